import { setMember } from '../base/json-object.js';
import { SchemaWork } from '../contract/schema-work.js';
import type { JsonSchema } from '../contract/types.js';
import {
  LIST,
  MAP,
  SETS,
  SINGLE,
  TEXT_KEYWORDS,
  VALUE_BOUNDS,
  constraintKey,
  isAnnotation,
  isObject,
  valueKey,
} from './schema-keywords.js';
import { MAX_NORMALIZE_DEPTH, hasAssertions, normalize, type Resolved } from './schema-normalize.js';
import { lookup } from './schema-spellings.js';
import { dialectOf } from '../witness/judge.js';

/**
 * A whole schema in normal form, every subschema normalised, as a string: two schemas with the same
 * form assert the same thing however they spell it. A recursive definition is written out once per
 * path, and its way back by how far up it leads, not by its name; past the depth bound the raw text
 * stands in.
 */
export function normalForm(raw: unknown, root: JsonSchema, work: SchemaWork = new SchemaWork()): string {
  return JSON.stringify(form(raw, root, [], [], 0, { left: work.limits.perTool, work }));
}

/**
 * A node the form could not write out, as its text: where that text names a `$ref`, the whole
 * document's too, since what the reference reaches may differ while the node reads the same (a
 * definition changed past the depth bound, found in review).
 */
function rawForm(raw: unknown, root: JsonSchema): unknown {
  const text = constraintKey(raw);
  return text?.includes('"$ref"') ? { $raw: text, $document: documentKey(root) } : { $raw: text };
}

const documentKeys = new WeakMap<JsonSchema, string | null>();
function documentKey(root: JsonSchema): string | null {
  let key = documentKeys.get(root);
  if (key === undefined) documentKeys.set(root, (key = constraintKey(root)));
  return key;
}

/**
 * Nodes the form may still write out, `$ref`s followed (a fan-out of definitions is 2^n of them):
 * past the budget the raw text stands in, so two schemas that differ in text are never told equal.
 */
interface Budget {
  left: number;
  work: SchemaWork;
}

/**
 * `refs`: the `$ref`s followed on the way here; `at`: the depth of the node at which each was
 * followed, so that a way back names the node it returns to (a chain of `$ref`s to a `$ref` is
 * followed at one node, and counting refs would tell two different returns apart as one).
 */
function form(raw: unknown, root: JsonSchema, refs: string[], at: number[], depth: number, budget: Budget): unknown {
  budget.work.count();
  if (depth > MAX_NORMALIZE_DEPTH || --budget.left < 0) return rawForm(raw, root);
  let resolved: Resolved;
  try {
    resolved = normalize(raw, root, new Set(), refs);
  } catch {
    return rawForm(raw, root);
  }
  const { node, refs: followed } = resolved;
  if (node === false) return false;
  const exact = exactRefs(raw, root);
  const followedAt = [...at, ...followed.slice(refs.length).map((ref) => (exact.has(ref) ? depth : -1))];
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(node).sort()) {
    const value = node[key];
    // Annotations (`$schema`, `deprecated`, `x-…`) validate nothing: the walk tells them apart, the form does not.
    if (TEXT_KEYWORDS.has(key) || isAnnotation(key) || value === undefined) continue;
    const sub = (v: unknown) => form(v, root, followed, followedAt, depth + 1, budget);
    if (SINGLE.has(key) && (isObject(value) || typeof value === 'boolean')) out[key] = sub(value);
    else if (ALTERNATIVES.has(key) && Array.isArray(value)) out[key] = alternatives(value.map(sub), key === 'anyOf' && !readsMarks(root));
    else if (LIST.has(key) && Array.isArray(value)) out[key] = value.map(sub);
    else if (MAP.has(key) && isObject(value))
      out[key] = Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((k) => [k, Array.isArray(value[k]) ? value[k] : sub(value[k])]),
      );
    else if (SETS.has(key) && Array.isArray(value)) out[key] = value.map(valueKey).sort();
    else if (key === '$ref' && typeof value === 'string' && followed.includes(value)) {
      // A cycle's way back, written by how many levels up the node it returns to is rather than by
      // the definition's name: `#/definitions/Node` and `#/$defs/Node` close the same recursion.
      // Where no node up there is the definition alone (it was joined with keywords beside its
      // `$ref`, or met inside an `allOf`), the way back is the document's text: no proof.
      const up = followedAt[followed.lastIndexOf(value)]!;
      out.$ref = up < 0 ? { $cycle: value, $document: documentKey(root) } : { $cycle: depth - up };
    } else setMember(out, key, valueKey(value));
  }
  // What is left of an `anyOf` after its alternatives are gathered may be one: the node is that one.
  const only = Object.keys(out);
  if (only.length === 1 && only[0] === 'anyOf' && Array.isArray(out.anyOf) && out.anyOf.length === 1) return out.anyOf[0];
  return out;
}

/**
 * The `$ref`s whose definition this node is, whole: a chain of references with nothing beside them
 * (`{$ref: A}`, A `{$ref: B}`, B the node). A reference with keywords beside it makes the node more
 * than its definition, and so does one reached through an `allOf` (found in review: a recursion
 * into `B` written as the way back to `{$ref: B, required: [x]}` told a release that requires `x`
 * all the way down the same as one that required it at the top only).
 */
function exactRefs(raw: unknown, root: JsonSchema): Set<string> {
  const out = new Set<string>();
  let at = raw;
  while (isObject(at) && typeof at.$ref === 'string' && at.$ref.startsWith('#') && !out.has(at.$ref)) {
    const { $ref: ref, ...beside } = at;
    if (hasAssertions(beside)) break;
    out.add(ref);
    at = lookup(root, ref);
  }
  return out;
}

const ALTERNATIVES = new Set(['anyOf', 'oneOf']);

/**
 * Whether an `unevaluated*` keyword anywhere in the document reads what alternatives mark evaluated.
 * A form drops marks that assert nothing (`additionalProperties: true`), so two alternatives with one
 * form may mark different names: in such a document an `anyOf`'s alternatives are kept each as it is
 * (found in review: `anyOf: [{required: [a]}, {required: [a], additionalProperties: true}]` under
 * `unevaluatedProperties: false` takes `{a, b}`, and without its second alternative refuses it).
 */
export function readsMarks(root: JsonSchema): boolean {
  // Under draft-04 and draft-07 those keywords do not exist, and assert nothing (schema-spellings.ts).
  if (['draft-04', 'draft-07'].includes(dialectOf(root))) return false;
  const text = documentKey(root);
  return text === null || text.includes('"unevaluatedProperties"') || text.includes('"unevaluatedItems"');
}

/**
 * Alternatives are a set: their order never changes what validates. `anyOf` also takes each once;
 * `oneOf` keeps a repeated one, which refuses what it matches (two alternatives match it).
 */
function alternatives(formed: unknown[], dedupe: boolean): unknown[] {
  const keyed = (dedupe ? gathered(formed) : formed)
    .map((f) => [JSON.stringify(f), f] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return (dedupe ? keyed.filter(([k], i) => i === 0 || keyed[i - 1]![0] !== k) : keyed).map(([, f]) => f);
}

/**
 * Keywords that assert on their own: they read no sibling and leave no annotation a sibling reads.
 * One alternative that is another plus only these takes less than it, never more.
 */
const STANDALONE = new Set([...VALUE_BOUNDS, 'type', 'enum', 'required', 'not']);

/**
 * The alternatives of an `anyOf` as the set of instances they take: alternatives alike but for their
 * values are one with the values together (`anyOf: [{const: "a"}, {const: "b"}, S]` is `anyOf:
 * [{enum: ["a", "b"]}, S]`), and one that is another with more standalone assertions is taken by
 * that other and goes (`anyOf: [{type: string, enum: […]}, {type: string}]` is `{type: string}`: the
 * values were a list of suggestions the schema never enforced).
 */
function gathered(formed: unknown[]): unknown[] {
  const byRest = new Map<string, Record<string, unknown>>();
  const out: unknown[] = [];
  for (const f of formed) {
    if (!isObject(f) || !Array.isArray(f.enum)) {
      out.push(f);
      continue;
    }
    const { enum: values, ...rest } = f;
    const key = JSON.stringify(rest);
    const known = byRest.get(key);
    if (known) known.enum = [...new Set([...(known.enum as string[]), ...(values as string[])])].sort();
    else {
      const merged = { ...f };
      byRest.set(key, merged);
      out.push(merged);
    }
  }
  return out.filter((f, i) => !out.some((g, j) => j !== i && takesAll(g, f) && (!takesAll(f, g) || j < i)));
}

/** Whether `wide` takes every instance `narrow` takes: `narrow` is `wide` and only standalone assertions more. */
function takesAll(wide: unknown, narrow: unknown): boolean {
  if (!isObject(wide) || !isObject(narrow)) return false;
  const same = (k: string) => Object.hasOwn(narrow, k) && JSON.stringify(narrow[k]) === JSON.stringify(wide[k]);
  return Object.keys(wide).every(same) && Object.keys(narrow).every((k) => Object.hasOwn(wide, k) || STANDALONE.has(k));
}
