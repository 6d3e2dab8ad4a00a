import type { Change } from '../findings/types.js';
import type { JsonSchema } from '../contract/types.js';
import { toolChange } from './change.js';
import { spend, typeChange, unclassified, unread, type WalkContext } from './schema-context.js';
import { isAnnotation } from './schema-keywords.js';
import { normalize, type Node } from './schema-normalize.js';
import { lostOverlap, narrowsOutput, newOverlap, type Variant } from './schema-overlap.js';
import { isObject } from '../base/json-object.js';

/**
 * `anyOf`/`oneOf`: a node read as a list of complete alternatives, compared alternative by
 * alternative, with `oneOf`'s exclusivity. Split from schema-walk.ts, which passes its own node
 * comparison in (`compareNormalized`) so the two modules do not import each other.
 */
const MAX_VARIANTS = 64;
/** Alternatives compared inside alternatives, with no walk step between, at most this deep. */
const MAX_VARIANT_NEST = 2;

export const hasVariants = (n: JsonSchema) => Array.isArray(n.anyOf) || Array.isArray(n.oneOf);

type CompareNodes = (b: Node, a: Node, path: string[], ctx: WalkContext) => Change[];

/**
 * A node as a list of alternatives, each complete: `{type: object, anyOf: [A, B]}` is
 * `[object ∧ A, object ∧ B]`, and a type list splits into one variant per type. Node-level keywords
 * (default, annotations) are left out: compareLocal tells them once. The node's `unevaluated*`
 * keywords read what the chosen branches mark evaluated, so they stay on the outer node of each
 * combination; as a conjunct of their own they would read nothing and refuse every name a branch
 * marks (found in review: `unevaluatedProperties: false` over a branch with
 * `additionalProperties: true` was read as closed on both sides, and its removal was calm).
 */
function variantsOf(node: JsonSchema, root: JsonSchema, reached: Set<string>, depth = 0): Variant[] {
  const { anyOf, oneOf, default: _default, unevaluatedItems, unevaluatedProperties, ...rest } = node;
  const base: JsonSchema = Object.fromEntries(Object.entries(rest).filter(([k]) => !isAnnotation(k)));
  const unevaluated: JsonSchema = {
    ...(unevaluatedItems !== undefined && { unevaluatedItems }),
    ...(unevaluatedProperties !== undefined && { unevaluatedProperties }),
  };
  let choices: { branches: unknown[]; at: string[] }[] = [{ branches: [], at: [] }];
  for (const [key, list] of [
    ['anyOf', anyOf],
    ['oneOf', oneOf],
  ] as const) {
    if (!Array.isArray(list)) continue;
    choices = choices.flatMap((c) => list.map((branch, i) => ({ branches: [...c.branches, branch], at: [...c.at, key, String(i)] })));
    if (choices.length > MAX_VARIANTS) throw new RangeError(`more than ${MAX_VARIANTS} alternatives`);
  }
  const variants: Variant[] = choices
    .map((c) => {
      const merged = normalize({ ...unevaluated, allOf: [base, ...c.branches] }, root, reached).node;
      return merged === false ? null : { node: merged, at: c.at };
    })
    .filter((x): x is Variant => x !== null);
  const out: Variant[] = [];
  for (const v of variants) {
    if (hasVariants(v.node) && depth < 3)
      out.push(...variantsOf(v.node, root, reached, depth + 1).map((w) => ({ node: w.node, at: [...v.at, ...w.at] })));
    else if (Array.isArray(v.node.type)) for (const t of v.node.type) out.push({ node: { ...v.node, type: t }, at: v.at });
    else out.push(v);
  }
  if (out.length > MAX_VARIANTS) throw new RangeError(`more than ${MAX_VARIANTS} alternatives`);
  return out;
}

/**
 * `anyOf`/`oneOf`, on either side or both. On the input side every alternative the baseline
 * accepted must still be accepted by some alternative of the candidate; on the output side every
 * alternative the candidate may return must be one the baseline promised. Each alternative is
 * compared with its closest counterpart, and that comparison's changes are what is reported; an
 * alternative nobody needed is a widening (input) or a narrowing (output).
 */
export function compareVariants(b: JsonSchema, a: JsonSchema, path: string[], ctx: WalkContext, compareNormalized: CompareNodes): Change[] {
  if (ctx.variantNest >= MAX_VARIANT_NEST)
    return [
      unread(
        ctx,
        path,
        `The alternatives (anyOf/oneOf) lead back into themselves ${MAX_VARIANT_NEST} times; they were not compared further.`,
      ),
    ];
  const inner: WalkContext = { ...ctx, variantNest: ctx.variantNest + 1 };
  let before: Variant[], after: Variant[];
  try {
    before = variantsOf(b, ctx.rootBefore, ctx.reached.before);
    after = variantsOf(a, ctx.rootAfter, ctx.reached.after);
  } catch (error) {
    return [unread(ctx, path, `The alternatives (anyOf/oneOf) could not be compared: ${(error as Error).message}.`)];
  }
  const [must, may] = ctx.side === 'input' ? [before, after] : [after, before];
  const best = closestMatches(must, may, path, ctx, inner, compareNormalized);
  // An alternative that another one already matches cleanly is not "changed" into it: it is gone.
  const used = new Set(best.filter((m) => m && m.score[0] === 0).map((m) => m!.j));
  const out: Change[] = [];
  const unmatched: Variant[] = [];
  for (const [i, match] of best.entries()) {
    const needed = must[i]!;
    // An input alternative split into one alternative per value of a name it requires (a
    // discriminated union): no one of them takes it all, every value is taken by one.
    const split = ctx.side === 'input' && (!match || match.score[0]! > 0) ? splitCover(needed, may, path, inner, compareNormalized) : null;
    if (split) {
      for (const part of split) {
        used.add(part.j);
        out.push(...part.changes);
      }
      continue;
    }
    if (!match || (match.score[0]! > 0 && used.has(match.j))) {
      const at = [...path, ...needed.at];
      if (ctx.side === 'input') out.push(typeChange(ctx, true, at, needed.node, null));
      // A union the baseline already declared gains a member: consumers branch on its kinds already.
      else if (isUnion(may, needed)) out.push(toolChange('output-variant-added', ctx.tool, at, null, needed.node));
      else unmatched.push(needed);
      continue;
    }
    used.add(match.j);
    out.push(...match.changes);
  }
  // An output alternative of null alone, while every one the baseline returned is still there
  // (`string` → `anyOf: [string, null]`): the value may now be absent, no kind swapped for another.
  const kept = may.every((_, j) => used.has(j));
  for (const needed of unmatched) out.push(typeChange(ctx, false, [...path, ...needed.at], null, needed.node, kept && isNull(needed.node)));
  for (const [j, spare] of may.entries()) {
    if (used.has(j)) continue;
    const at = [...path, ...spare.at];
    out.push(ctx.side === 'input' ? typeChange(ctx, false, at, null, spare.node) : typeChange(ctx, true, at, spare.node, null));
  }
  const overlap = ctx.side === 'input' ? newOverlap(b, after, before, grownOf(may, best, used)) : lostOverlap(b, before, shrunkOf(best));
  if (overlap) out.push(unclassified(ctx, [...path, 'oneOf'], overlap));
  const seen = new Set<string>();
  return out.filter((c) => !seen.has(c.fingerprint) && seen.add(c.fingerprint));
}

type Closest = { j: number; changes: Change[]; score: number[] } | null;

/** Values of a discriminating name tried one by one, at most. */
const MAX_SPLIT_VALUES = 64;

/**
 * Whether the candidate's alternatives take, between them, everything one baseline alternative
 * took, split by the values of a name it requires (`provider: atlassian | dropbox | …` become one
 * object per provider): for each value, the alternative restricted to it meets one that breaks
 * nothing. The matches, or null when some value finds none.
 */
function splitCover(
  needed: Variant,
  may: Variant[],
  path: string[],
  inner: WalkContext,
  compareNormalized: CompareNodes,
): { j: number; changes: Change[] }[] | null {
  const node = needed.node;
  if (may.length < 2 || !isObject(node.properties) || !Array.isArray(node.required)) return null;
  const properties = node.properties as Record<string, unknown>;
  for (const name of node.required) {
    const property = typeof name === 'string' ? properties[name] : undefined;
    if (!isObject(property) || !Array.isArray(property.enum) || property.enum.length < 2 || property.enum.length > MAX_SPLIT_VALUES)
      continue;
    const parts: { j: number; changes: Change[] }[] = [];
    for (const value of property.enum) {
      const restricted = { ...node, properties: { ...properties, [name as string]: { ...property, enum: [value] } } };
      let found: { j: number; changes: Change[] } | null = null;
      for (const [j, offered] of may.entries()) {
        const changes = compareNormalized(restricted, offered.node, [...path, ...offered.at], inner);
        if (!changes.some((c) => c.severity === 'breaking')) {
          found = { j, changes };
          break;
        }
      }
      if (!found) break;
      parts.push(found);
    }
    if (parts.length === property.enum.length) return parts;
  }
  return null;
}

/**
 * Each alternative that must be matched, with its closest counterpart among those that may match
 * it: fewest breaks, then fewest changes, then nearest in the list. Alternatives matched cleanly so
 * far: of two clean matches, one not yet taken is the better, so that a repeated alternative (two
 * `{}` branches on each side) pairs with its twin, not the first.
 */
function closestMatches(
  must: Variant[],
  may: Variant[],
  path: string[],
  ctx: WalkContext,
  inner: WalkContext,
  compareNormalized: CompareNodes,
): Closest[] {
  const clean = new Set<number>();
  return must.map((needed, i) => {
    let found: Closest = null;
    for (const [j, offered] of may.entries()) {
      const [bv, av] = ctx.side === 'input' ? [needed, offered] : [offered, needed];
      const at = [...path, ...av.at];
      // Inside alternatives already, each comparison counts like a node of the walk: alternatives
      // that lead back into themselves through a $ref would otherwise multiply without a bound.
      const changes = (ctx.variantNest > 0 && spend(ctx, at)) || compareNormalized(bv.node, av.node, at, inner);
      const exact = changes.length === 0;
      const score = [
        changes.filter((c) => c.severity === 'breaking').length,
        changes.length,
        exact && clean.has(j) ? 1 : 0,
        Math.abs(i - j),
      ];
      if (!found || lexLess(score, found.score)) found = { j, changes, score };
      if (exact && !clean.has(j)) break;
    }
    if (found?.changes.length === 0) clean.add(found.j);
    return found;
  });
}

/**
 * Whether the baseline's output was already a union that consumers branch on: several alternatives,
 * or one object tagged by a required enum (`type: image | audio | blob`) that the new alternative
 * also carries. A new member of such a union is a new kind, not a new shape for a field.
 */
function isUnion(baseline: Variant[], added: Variant): boolean {
  if (baseline.length >= 2) return true;
  const tags = (n: JsonSchema, min: number) => {
    const props = n.properties && typeof n.properties === 'object' ? (n.properties as Record<string, JsonSchema>) : {};
    const required = new Set(Array.isArray(n.required) ? n.required : []);
    return Object.entries(props)
      .filter(
        ([name, p]) =>
          required.has(name) &&
          typeof p === 'object' &&
          p !== null &&
          (Array.isArray(p.enum) ? p.enum.length >= min : 'const' in p && min <= 1),
      )
      .map(([name]) => name);
  };
  const own = tags(added.node, 1);
  return baseline.some((v) => tags(v.node, 2).some((name) => own.includes(name)));
}

type Match = { j: number; changes: Change[] } | null;

/** The candidate's input alternatives that no baseline one needed, or that accept more than their match did. */
const grownOf = (may: Variant[], best: Match[], used: Set<number>) =>
  new Set(may.map((_, j) => j).filter((j) => !used.has(j) || best.some((m) => m?.j === j && m.changes.some(widens))));

/** The baseline's output alternatives whose match in the candidate promises less. */
const shrunkOf = (best: Match[]) => new Set(best.flatMap((m) => (m && m.changes.some(narrowsOutput) ? [m.j] : [])));

/** A change that lets an alternative accept more than it did. */
const widens = (c: Change) =>
  (c.severity === 'safe' && c.code.startsWith('input-') && !c.code.startsWith('input-property-removed')) ||
  c.code === 'argument-became-optional';

const lexLess = (x: number[], y: number[]) => {
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]!;
  return false;
};

/** A schema that admits null alone: `{type: "null"}`, `{const: null}`, `{enum: [null]}`. */
function isNull(node: unknown): boolean {
  if (!isObject(node)) return false;
  if (node.type === 'null' || (Array.isArray(node.type) && node.type.length > 0 && node.type.every((t) => t === 'null'))) return true;
  return (
    (Object.hasOwn(node, 'const') && node.const === null) ||
    (Array.isArray(node.enum) && node.enum.length > 0 && node.enum.every((v) => v === null))
  );
}
