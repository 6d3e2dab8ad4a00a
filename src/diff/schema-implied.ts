import type { JsonSchema } from '../contract/types.js';
import { conjoin, propertySchema, type Node } from './schema-conjoin.js';
import { constraintKey, isObject } from './schema-keywords.js';
import { ASSERTED_FORMATS } from '../witness/formats.js';

/**
 * Keywords a node's other keywords already imply, dropped, and conditionals settled where the node
 * decides them. Each rule is a proof that the node accepts the same instances without the keyword
 * (docs/verdicts.md, "Calm needs a proof"), so the walk and the normal form see no change where
 * none is:
 * - a bound nothing is under (`minLength: 0`, `minItems: 0`, `minProperties: 0`), `uniqueItems`
 *   where at most one item fits, `multipleOf: 1` on integers (and `number` with it is `integer`);
 * - `items: true` (and the like), which is no `items`, except an `items` or `additionalProperties`
 *   beside an `unevaluated*` that refuses something, which marks what it covers evaluated;
 *   `propertyNames: {type: "string"}`, since every name is a string; a `format` ajv does not assert;
 * - `unevaluatedProperties` where nothing but the node's own `properties` evaluates;
 * - `not: X` where no instance of the node is an X (the two conjoined accept nothing);
 * - `if` that no instance of the node satisfies (only `else` applies), or that every one does
 *   (only `then` applies);
 * - a `dependentSchemas` entry, or a `contains` under `minItems` of at least one, that the node
 *   already asks for (conjoined with it, the node reads the same).
 * `resolve` normalises a raw subschema (schema-normalize.ts), so these rules see through `$ref`s.
 */
export function dropImplied(node: JsonSchema, resolve: (raw: unknown, merged?: boolean) => Node, merged = false): Node {
  // A conditional's branch and a dependent schema apply at this node's place: read as joined to it,
  // their open marks are kept for this node's `unevaluated*` (or the node this one joins).
  const joined: Joined = (raw) => resolve(raw, true);
  const settled = (n: Node): Node => (merged || n === false ? n : withoutOpen(n));
  const s: JsonSchema = { ...node };
  for (const key of ['minLength', 'minItems', 'minProperties'] as const) if (s[key] === 0) delete s[key];
  if (s.uniqueItems === false || (s.uniqueItems === true && typeof s.maxItems === 'number' && s.maxItems <= 1)) delete s.uniqueItems;
  // A tuple whose every position takes what the rest takes is no tuple (draft-07's `items: [X]` with
  // `additionalItems: X`, X `{}` too): read before dropOpen drops an `items: {}`. A tuple with no rest
  // is kept: an `unevaluatedItems` here, or on a node this one is merged into, reads what it marks.
  if (
    Array.isArray(s.prefixItems) &&
    s.items !== undefined &&
    s.prefixItems.every((p) => constraintKey(p) === constraintKey(s.items) || (accepting(p) && accepting(s.items)))
  )
    delete s.prefixItems;
  dropOpen(s, merged);
  // A member's name is a string: `propertyNames: {type: "string"}` (zod 4's records) asks nothing.
  if (isObject(s.propertyNames) && Object.keys(s.propertyNames).every((k) => k === 'type' || k === 'description' || k === 'title'))
    if ([s.propertyNames.type].flat().includes('string')) delete s.propertyNames;
  if (s.format !== undefined && (typeof s.format !== 'string' || !ASSERTED_FORMATS.has(s.format))) delete s.format;
  integers(s);
  // An `unevaluatedProperties` read as `additionalProperties` leaves the one beside it open.
  readUnevaluated(s, merged);
  const { not, if: condition, then, else: otherwise, ...rest } = s;
  let out = s as Node;
  if (not !== undefined && unsatisfiable(conjoin(rest, resolve(not)), resolve)) {
    const { not: _implied, ...kept } = s;
    out = kept;
  }
  if (out !== false && 'if' in out) out = settled(settle(out, condition, then, otherwise, joined, resolve, merged));
  if (out !== false && 'if' in out && !marksRead(out, condition, joined, merged) && implied(out, [then, otherwise], joined, settled)) {
    const { if: _if, then: _then, else: _else, ...kept } = out;
    out = kept;
  }
  if (out !== false) out = withoutImpliedDependents(out, joined, settled);
  if (out !== false) out = withoutImpliedContains(out, resolve);
  // A conditional settled or a dependent schema dropped may leave nothing else evaluating: read the
  // unevaluated keywords again (`unevaluatedProperties` as `additionalProperties`, …).
  if (out !== false && out !== s && (s.if !== undefined || s.dependentSchemas !== undefined)) {
    out = { ...out };
    readUnevaluated(out, merged);
  }
  return out;
}

/** The unevaluated keywords read where nothing else evaluates, and what takes anything then dropped. */
function readUnevaluated(s: JsonSchema, merged: boolean): void {
  unevaluatedAsAdditional(s);
  unevaluatedAsItems(s);
  dropOpen(s, merged);
}

/**
 * `multipleOf: 1` says "integer" of numbers, and nothing of other kinds: `integer` then needs no
 * more, and `number` with it is `integer`. A node that names no type keeps it (it would need a list).
 */
function integers(s: JsonSchema): void {
  if (s.multipleOf !== 1 || s.type === undefined) return;
  const types = [s.type].flat();
  if (types.some((t) => typeof t !== 'string')) return;
  const next = [...new Set(types.map((t) => (t === 'number' ? 'integer' : t)))];
  s.type = next.length === 1 ? next[0] : next;
  delete s.multipleOf;
}

/**
 * Whether no instance satisfies a normalised node: it is `false`, or it takes only objects and
 * requires a name whose schema no value satisfies. Not knowing is false.
 */
function unsatisfiable(node: Node, resolve: (raw: unknown) => Node, depth = 0): boolean {
  if (node === false) return true;
  if (depth > 8 || node.type !== 'object') return false;
  const required = Array.isArray(node.required) ? node.required : [];
  return required.some((name) => typeof name === 'string' && unsatisfiable(resolve(propertySchema(node, name).schema), resolve, depth + 1));
}

/** Keywords whose absent value is "accept anything": `true` or `{}` there says nothing. */
const OPEN_BY_DEFAULT = [
  'items',
  'additionalItems',
  'unevaluatedItems',
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
] as const;
/**
 * Drops the keywords of OPEN_BY_DEFAULT that take anything. An `items` or `additionalProperties`
 * that takes anything still marks what it covers evaluated: beside an `unevaluated*` that refuses
 * something, it is not "nothing", and stays; in a node `merged` into another (schema-normalize.ts),
 * whose `unevaluated*` this one cannot see, it stays too.
 */
function dropOpen(s: JsonSchema, merged: boolean): void {
  const marks = (unevaluated: 'unevaluatedItems' | 'unevaluatedProperties') =>
    merged || (s[unevaluated] !== undefined && !accepting(s[unevaluated]));
  for (const key of OPEN_BY_DEFAULT) {
    if (s[key] === undefined || !accepting(s[key])) continue;
    const unevaluated = MARKS_EVALUATED[key];
    if (unevaluated && marks(unevaluated)) continue;
    delete s[key];
  }
  // What `conjoin` left side by side (a member's mark beside `patternProperties`) is read the same way.
  if (!Array.isArray(s.allOf)) return;
  const members = s.allOf.flatMap((m) => {
    if (!isObject(m)) return [m];
    const kept = Object.fromEntries(
      Object.entries(m).filter(([key, v]) => {
        const unevaluated = MARKS_EVALUATED[key as keyof typeof MARKS_EVALUATED];
        return !(unevaluated && accepting(v) && !marks(unevaluated));
      }),
    );
    return Object.keys(kept).length === 0 && Object.keys(m).length > 0 ? [] : [kept];
  });
  if (members.length === 0) delete s.allOf;
  else s.allOf = members;
}

/** A conjunction that ends at its node (no node it joins further): what takes anything there, dropped. */
export function withoutOpen(node: Node): Node {
  if (node === false) return node;
  const s = { ...node };
  dropOpen(s, false);
  return s;
}

/** What each of them marks evaluated, for the `unevaluated*` keyword beside it. */
const MARKS_EVALUATED: Partial<Record<(typeof OPEN_BY_DEFAULT)[number], 'unevaluatedItems' | 'unevaluatedProperties'>> = {
  items: 'unevaluatedItems',
  additionalItems: 'unevaluatedItems',
  additionalProperties: 'unevaluatedProperties',
};
const accepting = (v: unknown): boolean => v === true || (isObject(v) && Object.keys(v).length === 0);

/** Applicators whose subschemas evaluate properties: beside one, `unevaluatedProperties` is not `additionalProperties`. */
const EVALUATES = ['allOf', 'anyOf', 'oneOf', 'if', 'then', 'else', '$ref', '$dynamicRef', '$recursiveRef', 'dependentSchemas'];

/** A subschema read as joined to the node it applies at (`merged`, schema-normalize.ts). */
type Joined = (raw: unknown) => Node;

/**
 * `unevaluatedItems` on a node that evaluates items only by its own `prefixItems` and `items` is
 * `items` (after `prefixItems`, as `items` applies); beside an `items`, which evaluates every item
 * the tuple leaves, it says nothing. Read here, in a member, it no longer meets the `items` of the
 * node the member joins, which it never sees (found in review).
 */
function unevaluatedAsItems(s: JsonSchema): void {
  if (s.unevaluatedItems === undefined || EVALUATES.some((k) => k in s) || 'contains' in s) return;
  if (s.items === undefined) s.items = s.unevaluatedItems;
  delete s.unevaluatedItems;
}

/**
 * `unevaluatedProperties` on a node that evaluates properties only by its own `properties` and
 * `patternProperties` (its `allOf` and local `$ref`s are folded in by now) is `additionalProperties`;
 * beside an `additionalProperties`, which evaluates every other name, it says nothing.
 */
function unevaluatedAsAdditional(s: JsonSchema): void {
  if (s.unevaluatedProperties === undefined || EVALUATES.some((k) => k in s)) return;
  if (s.additionalProperties === undefined) s.additionalProperties = s.unevaluatedProperties;
  delete s.unevaluatedProperties;
}

/** Whether every branch given (raw; undefined: none) asks nothing the node does not already ask. */
function implied(node: JsonSchema, branches: unknown[], joined: Joined, settled: (n: Node) => Node): boolean {
  const { if: _if, then: _then, else: _else, ...rest } = node;
  // Compared as conjoin writes it (an open object's `{}` member left out), not as the node was listed.
  const alone = conjoin(rest, {});
  const key = constraintKey(alone === false ? rest : alone);
  return branches.every((raw) => {
    if (raw === undefined) return true;
    const both = settled(conjoin(rest, joined(raw)));
    return both !== false && constraintKey(both) === key;
  });
}

/** A conditional whose `if` the node decides: gone, with the branch that always applies conjoined. */
function settle(
  node: JsonSchema,
  condition: unknown,
  then: unknown,
  otherwise: unknown,
  joined: Joined,
  resolve: (raw: unknown) => Node,
  merged: boolean,
): Node {
  const { if: _if, then: _then, else: _else, ...rest } = node;
  const guard = joined(condition);
  const never = guard === false || unsatisfiable(conjoin(rest, guard), resolve);
  // An `if` that passes marks what it evaluates too: where an `unevaluated*` reads the marks, one
  // that keeps a mark is not "always"; where none does, a mark that takes anything asks nothing.
  const asks = guard === false || marksRead(node, condition, joined, merged) ? guard : withoutOpen(guard);
  const always = asks !== false && !never && Object.keys(asks).length === 0;
  if (!never && !always) return node;
  const branch = never ? otherwise : then;
  return branch === undefined ? rest : conjoin(rest, joined(branch));
}

/** Keywords by which a passing subschema marks properties or items evaluated. */
const MARKING = [
  'properties',
  'patternProperties',
  'additionalProperties',
  'prefixItems',
  'items',
  'additionalItems',
  'contains',
  ...EVALUATES,
];

/**
 * Whether an `unevaluated*` may read what the node's `if` marks when it passes: one on the node, or
 * on a node this one is merged into, which it cannot see, and an `if` that marks something.
 */
function marksRead(node: JsonSchema, condition: unknown, joined: Joined, merged: boolean): boolean {
  if (!merged && node.unevaluatedItems === undefined && node.unevaluatedProperties === undefined) return false;
  const guard = joined(condition);
  return guard !== false && MARKING.some((key) => key in guard);
}

function withoutImpliedDependents(node: JsonSchema, joined: Joined, settled: (n: Node) => Node): Node {
  if (!isObject(node.dependentSchemas)) return node;
  const { dependentSchemas, ...rest } = node;
  const kept: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(dependentSchemas)) {
    // With the name present, the node asks the same as the node with the dependent schema too.
    const present = conjoin(rest, { required: [name] });
    const both = present === false ? false : settled(conjoin(present, joined(raw)));
    if (present === false || both === false || constraintKey(both) !== constraintKey(present)) kept[name] = raw;
  }
  return Object.keys(kept).length ? { ...rest, dependentSchemas: kept } : rest;
}

function withoutImpliedContains(node: JsonSchema, resolve: (raw: unknown) => Node): Node {
  if (!('contains' in node) || 'minContains' in node || 'maxContains' in node || 'prefixItems' in node) return node;
  if (typeof node.minItems !== 'number' || node.minItems < 1) return node;
  // No `items` (or one dropped above as taking anything) lets every item through; then `contains`
  // is what marks items evaluated, so beside `unevaluatedItems` it is not implied.
  if (node.items === undefined && 'unevaluatedItems' in node) return node;
  const items = node.items === undefined ? {} : resolve(node.items);
  const contains = resolve(node.contains);
  if (items === false || contains === false) return node;
  const both = conjoin(items, contains);
  if (both === false || constraintKey(both) !== constraintKey(items)) return node;
  const { contains: _implied, ...rest } = node;
  return rest;
}
