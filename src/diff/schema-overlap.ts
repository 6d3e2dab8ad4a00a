import type { Change } from '../findings/types.js';
import type { JsonSchema } from '../contract/types.js';
import { typesOf, valueKey } from './schema-keywords.js';
import { memberOf } from '../base/json-object.js';

/**
 * `oneOf`'s exclusivity across a release: alternatives that come to overlap on the input side, or
 * come apart on the output side. Split from schema-variants.ts, which lists the alternatives.
 */

/** One complete alternative of a node, and where it sits under the node (`anyOf/1/oneOf/0`). */
export interface Variant {
  node: JsonSchema;
  at: string[];
}

/**
 * `oneOf` refuses an instance that matches more than one alternative. So on the input side,
 * alternatives that accept more (or are new), or a switch to `oneOf`, can refuse what was taken:
 * this tells when two of the candidate's `oneOf` alternatives may now overlap. Alternatives of
 * different types, with different `const` values on a name both require, or where one is closed
 * and the other requires a name it does not declare, cannot.
 */
export function newOverlap(b: JsonSchema, after: Variant[], before: Variant[], grown: Set<number>): string | null {
  // Alternatives of one `oneOf`, wherever it sits among nested `anyOf`s (the walk reads them as one
  // list): the same place before its `oneOf`, another branch of it.
  const groupOf = (v: Variant): [place: string, branch: string] | null => {
    const k = v.at.lastIndexOf('oneOf');
    return k < 0 ? null : [v.at.slice(0, k).join('/'), v.at[k + 1]!];
  };
  const branchesAt = (variants: Variant[], place: string) =>
    new Set(variants.flatMap((v) => (groupOf(v)?.[0] === place ? [groupOf(v)![1]] : []))).size;
  for (let j = 0; j < after.length; j++) {
    for (let k = j + 1; k < after.length; k++) {
      const [x, y] = [groupOf(after[j]!), groupOf(after[k]!)];
      if (!x || !y || x[0] !== y[0] || x[1] === y[1] || !mayOverlap(after[j]!.node, after[k]!.node)) continue;
      const wasOneOf = x[0] === '' ? Array.isArray(b.oneOf) && b.oneOf.length >= 2 : branchesAt(before, x[0]) >= 2;
      if (wasOneOf && !grown.has(j) && !grown.has(k)) continue;
      const where = x[0] ? ` (at ${x[0]})` : '';
      return wasOneOf
        ? `oneOf alternatives ${x[1]} and ${y[1]}${where} may now both match one input (one of them accepts more or is new), and oneOf refuses an input that matches two.`
        : `The alternatives became a oneOf${where}, and alternatives ${x[1]} and ${y[1]} may both match one input, which oneOf refuses.`;
    }
  }
  return null;
}

/** A change that lets an output alternative promise less than it did. */
export const narrowsOutput = (c: Change) =>
  ['output-constraint-tightened', 'output-type-narrowed', 'output-enum-narrowed'].includes(c.code);

/**
 * The mirror on the output side: where two of the baseline's `oneOf` alternatives may overlap, a
 * result they both matched was refused, so a consumer validating against it never saw one. If one
 * of them now accepts less, such a result may match only the other: the candidate may return what
 * the baseline's schema refused (the oracle's "oneOf branches that come apart").
 */
export function lostOverlap(b: JsonSchema, before: Variant[], shrunk: Set<number>): string | null {
  if (!Array.isArray(b.oneOf) || b.oneOf.length < 2 || shrunk.size === 0) return null;
  const branch = (v: Variant) => v.at[v.at.indexOf('oneOf') + 1];
  for (const j of shrunk)
    for (let k = 0; k < before.length; k++) {
      const [x, y] = [before[j]!, before[k]!];
      if (k === j || branch(x) === undefined || branch(x) === branch(y) || !mayOverlap(x.node, y.node)) continue;
      return `The baseline's oneOf alternatives ${branch(x)} and ${branch(y)} may both have matched one result, which oneOf refused; alternative ${branch(x)} now accepts less, so such a result may now match one alternative and be returned.`;
    }
  return null;
}

function mayOverlap(x: JsonSchema, y: JsonSchema): boolean {
  const tx = typesOf(x) && [...typesOf(x)!];
  const ty = typesOf(y) && [...typesOf(y)!];
  const numeric = (t: string) => t === 'integer' || t === 'number';
  if (tx && ty && !tx.some((t) => ty.includes(t) || (numeric(t) && ty.some(numeric)))) return false;
  const required = (n: JsonSchema) => new Set(Array.isArray(n.required) ? n.required : []);
  const props = (n: JsonSchema) => (n.properties && typeof n.properties === 'object' ? (n.properties as Record<string, unknown>) : {});
  const [rx, ry] = [required(x), required(y)];
  // A closed alternative refuses a name the other requires and it does not declare.
  const refuses = (n: JsonSchema, names: Set<unknown>) =>
    n.additionalProperties === false &&
    !n.patternProperties &&
    [...names].some((r) => typeof r === 'string' && !Object.hasOwn(props(n), r));
  if (refuses(x, ry) || refuses(y, rx)) return false;
  for (const [name, px] of Object.entries(props(x))) {
    const py = memberOf(props(y), name);
    if (!rx.has(name) || !ry.has(name) || !py || typeof px !== 'object' || typeof py !== 'object') continue;
    const values = (p: object) =>
      'const' in p
        ? [(p as { const: unknown }).const]
        : Array.isArray((p as { enum?: unknown }).enum)
          ? (p as { enum: unknown[] }).enum
          : null;
    const [vx, vy] = [values(px!), values(py)];
    if (vx && vy && !vx.some((v) => vy.some((w) => valueKey(v) === valueKey(w)))) return false;
  }
  return true;
}
