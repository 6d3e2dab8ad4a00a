import type { JsonSchema } from '../contract/types.js';
import { TEXT_KEYWORDS, isAnnotation, isObject, valueKey } from './schema-keywords.js';
import { conjoin, type Node } from './schema-conjoin.js';
import { dropImplied, withoutOpen } from './schema-implied.js';
import { lookup, spellings } from './schema-spellings.js';
import { dialectOf } from '../witness/judge.js';

/**
 * One schema node in a single form, so that equal meanings compare equal: `false` accepts nothing,
 * local `$ref`s are resolved, `allOf` is folded into one conjunction, nullable spellings and an
 * `anyOf` of bare types become a type list, draft-04/07 spellings become their 2020-12 equivalents, and numeric bounds that exclude
 * no safely representable number are dropped. Subschemas stay raw: the walker normalises them when
 * it reaches them, which is what keeps `$ref` cycles finite.
 */
export type { Node };

export interface Resolved {
  node: Node;
  /** The local refs followed to reach this node: the walker's cycle key. */
  refs: string[];
}

export const MAX_NORMALIZE_DEPTH = 64;

/**
 * `merged`: the node is read to be conjoined into another (an `allOf` member, a `$ref` target beside
 * other keywords, a lone `anyOf` branch). It keeps an `items` or `additionalProperties` that takes
 * anything, since that marks what it covers evaluated for an `unevaluated*` of the node it joins;
 * the node the conjunction ends in drops what it does not need (schema-implied.ts, dropOpen).
 */
export function normalize(raw: unknown, root: JsonSchema, reached: Set<string>, refs: string[] = [], depth = 0, merged = false): Resolved {
  if (depth > MAX_NORMALIZE_DEPTH) throw new RangeError(`more than ${MAX_NORMALIZE_DEPTH} nested $ref or allOf levels`);
  if (raw === undefined || raw === true) return { node: {}, refs };
  if (raw === false) return { node: false, refs };
  if (!isObject(raw)) return { node: { $invalid: raw }, refs };
  let schema: JsonSchema = { ...raw };
  let followed = refs;

  const ref = schema.$ref;
  if (typeof ref === 'string' && ref.startsWith('#') && !refs.includes(ref)) {
    const target = lookup(root, ref);
    if (target !== undefined) {
      reached.add(ref);
      const { $ref: _ref, ...rest } = schema;
      const beside = hasAssertions(rest);
      const resolved = normalize(target, root, reached, [...refs, ref], depth + 1, merged || beside);
      followed = resolved.refs;
      if (!beside) return { node: resolved.node, refs: followed };
      return { node: joinedTo(resolved.node, rest, root, reached, refs, depth, merged), refs: followed };
    }
  }

  schema = spellings(schema, dialectOf(root));
  if (schema.not === true || (isObject(schema.not) && !hasAssertions(schema.not))) return { node: false, refs: followed };

  let node: Node = schema;
  if (Array.isArray(schema.allOf)) {
    const { allOf, ...rest } = schema;
    node = rest;
    for (const branch of allOf) {
      const part = normalize(branch, root, reached, refs, depth + 1, true);
      followed = [...followed, ...part.refs.filter((r) => !followed.includes(r))];
      node = conjoin(node, part.node);
    }
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (node === false) break;
    const branches = node[key];
    if (Array.isArray(branches) && branches.length === 1) {
      const { [key]: _one, ...rest } = node;
      node = conjoin(rest, normalize(branches[0], root, reached, refs, depth + 1, true).node);
    } else if (Array.isArray(branches) && branches.length === 0) {
      return { node: false, refs: followed };
    }
  }
  if (node !== false) node = foldValues(node, root, reached, refs, depth);
  if (node !== false) node = foldNullable(node, root, reached, refs, depth);
  if (node !== false) node = foldTypes(node, root, reached, refs, depth);
  if (node !== false) node = dropImplied(node, (sub, m = false) => normalize(sub, root, reached, refs, depth + 1, m).node, merged);
  return { node: node === false ? false : bounds(types(node)), refs: followed };
}

/**
 * A `$ref`'s target conjoined with the keywords beside it. The target is applied in place, as an
 * `allOf` member is: this node's `unevaluated*` read what it evaluates, so they are read on the
 * conjunction, not on the rest alone.
 */
function joinedTo(
  target: Node,
  rest: JsonSchema,
  root: JsonSchema,
  reached: Set<string>,
  refs: string[],
  depth: number,
  merged: boolean,
): Node {
  const { unevaluatedItems, unevaluatedProperties, ...own } = rest;
  const legacy = ['draft-04', 'draft-07'].includes(dialectOf(root)); // no unevaluated* there (spellings)
  const unevaluated: JsonSchema = legacy
    ? {}
    : {
        ...(unevaluatedItems !== undefined && { unevaluatedItems }),
        ...(unevaluatedProperties !== undefined && { unevaluatedProperties }),
      };
  let both = conjoin(target, normalize(own, root, reached, refs, depth + 1, true).node);
  if (both !== false && Object.keys(unevaluated).length > 0) {
    // The target keeps one of its own (it evaluates through its own subschemas): the outer one sees
    // what the target evaluates, which this form cannot say. Not compared (found in review).
    if (Object.keys(unevaluated).some((k) => k in (both as JsonSchema)))
      throw new RangeError('an unevaluated keyword beside a $ref whose target has its own');
    both = dropImplied({ ...both, ...unevaluated }, (sub, m = false) => normalize(sub, root, reached, refs, depth + 1, m).node, merged);
  }
  return merged ? both : withoutOpen(both);
}

/** Whether a schema asserts anything beyond text and annotations. */
export const hasAssertions = (schema: JsonSchema): boolean =>
  Object.keys(schema).some((k) => !TEXT_KEYWORDS.has(k) && !isAnnotation(k) && k !== 'default');

/**
 * `anyOf: [X, null]` (any order; null spelled `{type: "null"}`, `{const: null}` or `{enum: [null]}`)
 * is "X or null": a type list, when X names its types and asserts nothing a null would meet (a
 * `not`, a conditional, a combination). A list of values in X gains null too.
 */
function foldNullable(node: JsonSchema, root: JsonSchema, reached: Set<string>, refs: string[], depth: number): Node {
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = node[key];
    if (!Array.isArray(branches) || branches.length !== 2) continue;
    const parts = branches.map((b) => normalize(b, root, reached, refs, depth + 1).node);
    const nullAt = parts.findIndex(isNull);
    const other = parts[1 - nullAt];
    if (nullAt === -1 || !other || isNull(other) || !typed(other) || Object.keys(other).some((k) => REACHES_NULL.has(k))) continue;
    const { [key]: _pair, ...rest } = node;
    const widened: JsonSchema = { ...other, type: [...new Set([...[other.type].flat(), 'null'])] };
    if (Array.isArray(other.enum)) widened.enum = [...other.enum.filter((v) => v !== null), null];
    const merged = conjoin(rest, widened);
    return merged === false ? false : merged;
  }
  return node;
}

/**
 * `anyOf` (or a `oneOf` whose lists share no value) of branches that each list values, and assert
 * nothing else but a type, is one list of values: `enum: [a, b]` spelled as
 * `anyOf: [{type: "string", const: a}, {const: b}]`. A value its own branch's type refuses is no value.
 */
function foldValues(node: JsonSchema, root: JsonSchema, reached: Set<string>, refs: string[], depth: number): Node {
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = node[key];
    if (!Array.isArray(branches) || branches.length < 2) continue;
    const parts = branches.map((b) => normalize(b, root, reached, refs, depth + 1).node);
    if (!parts.every((p) => p !== false && Array.isArray(p.enum) && !hasOtherAssertions(p, 'enum', 'type'))) continue;
    const values = parts.flatMap((p) => ((p as JsonSchema).enum as unknown[]).filter((v) => ofType(v, (p as JsonSchema).type)));
    const keys = values.map(valueKey);
    if (key === 'oneOf' && new Set(keys).size !== keys.length) continue;
    const { [key]: _values, ...rest } = node;
    return conjoin(rest, { enum: values.filter((_, i) => keys.indexOf(keys[i]!) === i) });
  }
  return node;
}

/**
 * `anyOf` of branches that assert a type and nothing else is one type list: `anyOf: [{type:
 * "string"}, {type: "boolean"}]` is `type: ["string", "boolean"]`. So is such a `oneOf` whose types
 * share no value (`integer` is a `number`, so those two together stay a `oneOf`).
 */
function foldTypes(node: JsonSchema, root: JsonSchema, reached: Set<string>, refs: string[], depth: number): Node {
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = node[key];
    if (!Array.isArray(branches) || branches.length < 2) continue;
    const parts = branches.map((b) => normalize(b, root, reached, refs, depth + 1).node);
    if (!parts.every((p) => p !== false && typed(p) && !hasOtherAssertions(p, 'type'))) continue;
    const named = parts.flatMap((p) => [(p as JsonSchema).type].flat() as string[]);
    const kinds = named.map((t) => (t === 'integer' ? 'number' : t));
    if (key === 'oneOf' && new Set(kinds).size !== kinds.length) continue;
    const { [key]: _types, ...rest } = node;
    return conjoin(rest, { type: [...new Set(named)] });
  }
  return node;
}

/** Whether a JSON value is of a `type` (a name or a list; absent: any). */
function ofType(value: unknown, type: unknown): boolean {
  if (type === undefined) return true;
  const kind = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : (typeof value as string);
  return [type].flat().some((t) => t === kind || (t === 'integer' && Number.isInteger(value)) || (t === 'number' && kind === 'number'));
}

/** A branch that takes null and nothing else. */
const isNull = (p: Node): boolean =>
  p !== false &&
  ((p.type === 'null' && !hasOtherAssertions(p, 'type')) ||
    (Array.isArray(p.enum) &&
      p.enum.length === 1 &&
      p.enum[0] === null &&
      (p.type === undefined || p.type === 'null') &&
      !hasOtherAssertions(p, 'enum', 'type')));

const typed = (p: JsonSchema): boolean =>
  typeof p.type === 'string' || (Array.isArray(p.type) && p.type.length > 0 && p.type.every((t) => typeof t === 'string'));

/** Keywords that judge a null too: a branch that carries one cannot take null as a type alone. */
const REACHES_NULL = new Set(['not', 'if', 'then', 'else', 'allOf', 'anyOf', 'oneOf', '$ref', 'const']);

const hasOtherAssertions = (schema: JsonSchema, ...except: string[]) =>
  Object.keys(schema).some((k) => !except.includes(k) && !TEXT_KEYWORDS.has(k) && !isAnnotation(k));

const TYPE_ORDER = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'];

/** A type list as a sorted set; `number` already covers `integer`. An empty list accepts nothing. */
function types(node: JsonSchema): Node {
  if (!Array.isArray(node.type)) return node;
  const set = new Set(node.type.filter((t): t is string => typeof t === 'string'));
  if (set.has('number')) set.delete('integer');
  const list = TYPE_ORDER.filter((t) => set.has(t));
  if (list.length === 0) return false;
  return { ...node, type: list.length === 1 ? list[0] : list };
}

/** Whether every number a `type` takes is whole: `integer`, alone or beside types that are no number. */
const wholeNumbersOnly = (type: unknown): boolean =>
  type === 'integer' || (Array.isArray(type) && type.includes('integer') && !type.includes('number'));

/**
 * Bounds that exclude no safely representable number are no bounds (zod 4's `.int()` writes
 * ±9007199254740991). For integers an exclusive bound is the inclusive one next to it.
 */
function bounds(node: Node): Node {
  if (node === false) return false;
  const s = { ...node };
  const limit = Number.MAX_SAFE_INTEGER;
  // Of an inclusive and an exclusive bound on the same side, only the tighter one bounds anything.
  if (typeof s.minimum === 'number' && typeof s.exclusiveMinimum === 'number')
    delete s[s.exclusiveMinimum >= s.minimum ? 'minimum' : 'exclusiveMinimum'];
  if (typeof s.maximum === 'number' && typeof s.exclusiveMaximum === 'number')
    delete s[s.exclusiveMaximum <= s.maximum ? 'maximum' : 'exclusiveMaximum'];
  if (typeof s.minimum === 'number' && s.minimum <= -limit) delete s.minimum;
  if (typeof s.exclusiveMinimum === 'number' && s.exclusiveMinimum < -limit) delete s.exclusiveMinimum;
  if (typeof s.maximum === 'number' && s.maximum >= limit) delete s.maximum;
  if (typeof s.exclusiveMaximum === 'number' && s.exclusiveMaximum > limit) delete s.exclusiveMaximum;
  // Integers, or numbers that must be whole multiples: either way an exclusive bound has an inclusive twin.
  // A bound applies to numbers alone, so `[integer, null]` takes whole numbers only, as `integer` does.
  if (wholeNumbersOnly(s.type) || (typeof s.multipleOf === 'number' && Number.isInteger(s.multipleOf) && s.multipleOf > 0)) {
    if (typeof s.exclusiveMinimum === 'number') {
      const inclusive = Math.floor(s.exclusiveMinimum) + 1;
      s.minimum = typeof s.minimum === 'number' ? Math.max(s.minimum, inclusive) : inclusive;
      delete s.exclusiveMinimum;
    }
    if (typeof s.exclusiveMaximum === 'number') {
      const inclusive = Math.ceil(s.exclusiveMaximum) - 1;
      s.maximum = typeof s.maximum === 'number' ? Math.min(s.maximum, inclusive) : inclusive;
      delete s.exclusiveMaximum;
    }
  }
  return s;
}
