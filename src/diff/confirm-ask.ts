import { canonicalJson } from '../contract/canonical.js';
import type { ContractTool, JsonSchema } from '../contract/types.js';
import type { Change } from '../findings/types.js';
import { isObject, setMember } from '../base/json-object.js';
import { escapeSegment } from '../base/json-pointer.js';
import { lookup } from './schema-normalize.js';
import { JudgeFailure, judgeOf } from '../witness/judge.js';
import { findWitness, type WitnessOutcome } from '../witness/search.js';

/** How diff/confirm.ts asks the witness search: which schemas, read how, asked once, and safely. */
export type Side = 'input' | 'output';

/**
 * The schemas a side's searches use: a witness is accepted by `accept` and refused by `refuse`. For
 * an input, `accept` is the baseline read as a caller reads it (it takes the arguments it declares);
 * `rawBefore` and `rawAfter` are the two schemas as served, where a change's node is looked up.
 */
export interface SchemaPair {
  /** The two schemas' canonical text: what a run's searches are remembered by (the same pair, searched once). */
  key: string;
  side: Side;
  accept: JsonSchema;
  refuse: JsonSchema;
  rawBefore: JsonSchema;
  rawAfter: JsonSchema;
}

/**
 * The pairs a run made, by the two schemas' own text: a release-wide change (a family of tools built
 * from one definition, drifted alike) reads each distinct pair once. The pair depends only on the
 * schemas, so sharing it changes nothing.
 */
export type PairMemo = Map<string, SchemaPair | null>;

/** `schemasOf`, made once per distinct pair of schemas of a run. */
export function pairOf(memo: PairMemo, side: Side, old: ContractTool, now: ContractTool): SchemaPair | null {
  const [was, is] = side === 'input' ? [old.inputSchema, now.inputSchema] : [old.outputSchema, now.outputSchema];
  const key = `${side}\u0000${JSON.stringify(was)}\u0000${JSON.stringify(is)}`;
  let pair = memo.get(key);
  if (pair === undefined) memo.set(key, (pair = schemasOf(side, old, now)));
  return pair;
}

/** The schema that must accept and the one that must refuse a witness, for one side of one tool. */
function schemasOf(side: Side, old: ContractTool, now: ContractTool): SchemaPair | null {
  if (side === 'input') {
    if (!old.inputSchema || old.inputSchema.type !== 'object' || !now.inputSchema) return null; // a repaired root is held already
    const [accept, refuse] = [declaredOnly(old.inputSchema), now.inputSchema];
    // Searches are remembered by the key, and a witness must also be a call the baseline as served
    // takes (`takenAsServed`): two baselines read alike by a caller but served apart share no search.
    const pair = canonical(side, accept, refuse);
    const served = canonicalJson(old.inputSchema);
    return { ...pair, key: `${pair.key}\u0000${served}`, side, rawBefore: old.inputSchema, rawAfter: now.inputSchema };
  }
  if (!old.outputSchema || !now.outputSchema) return null;
  return { ...canonical(side, now.outputSchema, old.outputSchema), side, rawBefore: old.outputSchema, rawAfter: now.outputSchema };
}

/**
 * Whether the baseline as served takes an instance, where the search's accepting schema is another
 * reading of it (an input read as a caller reads it, `declaredOnly`). That reading
 * takes less than the schema served, except where narrowing a branch makes a call match one branch
 * of a `oneOf` it matched two of (or fail a `not`): such a call never worked, so it is no witness.
 * Null where the accepting schema is the baseline as served (an output's), or ajv cannot read it.
 */
export function takenAsServed(pair: SchemaPair): ((instance: unknown) => boolean) | null {
  if (pair.side !== 'input') return null;
  const judge = judgeOf(pair.rawBefore);
  return typeof judge === 'string' ? null : (instance) => judge.accepts(instance);
}

/** Both schemas with their keys in canonical order (the same schema served reordered gives the same witness), and the key. */
function canonical(side: Side, accept: JsonSchema, refuse: JsonSchema): { key: string; accept: JsonSchema; refuse: JsonSchema } {
  const [a, r] = [canonicalJson(accept), canonicalJson(refuse)];
  return { key: `${side}\u0000${a}\u0000${r}`, accept: JSON.parse(a) as JsonSchema, refuse: JSON.parse(r) as JsonSchema };
}

const MAX_CLOSE_DEPTH = 64;

/**
 * The baseline's input schema as a caller reads it: an object that declares its properties and
 * says nothing of others takes only those. A model shown the schema sends the arguments it
 * declares, so a witness that needs an undeclared argument is no break (README, "Documented
 * policy"; `input-closed` is held for the same reason). A name counts as declared where any
 * subschema at the same place declares it: a branch of an `anyOf` takes, besides its own, the
 * names its parent and its sibling branches declare. Objects that combine subschemas, or say what
 * other names take, are left open. A definition is read as the places that reference it are
 * (`referencePlaces`): closed only where each of them would close it written inline.
 */
function declaredOnly(root: JsonSchema): JsonSchema {
  const places = referencePlaces(root);
  const close = (node: JsonSchema, depth: number, around: readonly string[], at: string): JsonSchema => {
    if (depth > MAX_CLOSE_DEPTH) return node;
    const out: JsonSchema = { ...node };
    const here = [...new Set([...around, ...namesAt(node, 0, root)])];
    if (isObject(node.properties)) {
      const own = node.properties;
      const properties = Object.fromEntries(
        Object.entries(own).map(([k, v]) => [k, isObject(v) ? close(v, depth + 1, [], `${at}/properties/${escapeSegment(k)}`) : v]),
      );
      if (!OPENING.some((k) => node[k] !== undefined)) {
        out.additionalProperties = false;
        // Declared elsewhere at this place: any value passes this branch, as it did before.
        for (const name of here) if (!Object.hasOwn(own, name)) setMember(properties, name, true);
      }
      out.properties = properties;
    }
    if (isObject(node.items)) out.items = close(node.items, depth + 1, [], `${at}/items`);
    for (const key of ['anyOf', 'oneOf'] as const) {
      const list = node[key];
      if (Array.isArray(list)) out[key] = list.map((b, i) => (isObject(b) ? close(b, depth + 1, here, `${at}/${key}/${i}`) : b));
    }
    for (const key of ['$defs', 'definitions'] as const) {
      const defs = node[key];
      if (!isObject(defs)) continue;
      out[key] = Object.fromEntries(
        Object.entries(defs).map(([k, v]) => {
          const pointer = `${at}/${key}/${escapeSegment(k)}`;
          const names = places === null ? null : places.get(pointer);
          // Referenced where an inline copy would stay open (an `allOf` member, beside other keywords): open too.
          return [k, isObject(v) && names !== null ? close(v, depth + 1, names ?? [], pointer) : v];
        }),
      );
    }
    return out;
  };
  return close(root, 0, [], '');
}

/** Keywords that say nothing of which names a node takes: a `$ref` beside only these stands alone. */
const ANNOTATIONS = new Set([
  ...['$ref', 'description', 'title', 'default', 'examples', '$comment', 'deprecated', 'readOnly', 'writeOnly'],
  // Nor these of the names it takes: a root that is a reference (`{$ref, $defs}`) is its target.
  ...['$schema', '$defs', 'definitions', 'type'],
]);

/**
 * For each local definition (by its JSON Pointer from the root), the names declared at the places
 * that reference it, where `declaredOnly` would close an inline copy there: a `$ref` standing alone
 * as a property's or the items' schema, or as a branch of an `anyOf` or `oneOf` (whose place's
 * names it takes). Null for a definition referenced anywhere else (an `allOf` member, beside
 * `properties`, under `not` or `if`, from a resource with its own `$id`), where an inline copy
 * would stay open, so the definition does too. Null where references do not resolve from the root
 * alone (an embedded `$id`, `$dynamicRef`): then no definition is closed.
 */
function referencePlaces(root: JsonSchema): Map<string, string[] | null> | null {
  const places = new Map<string, string[] | null>();
  const seen = new Map<string, number>();
  const target = (ref: unknown): string | null => {
    if (typeof ref !== 'string' || !ref.startsWith('#')) return null;
    try {
      return decodeURIComponent(ref.slice(1));
    } catch {
      return null;
    }
  };
  const visit = (node: JsonSchema, depth: number, around: readonly string[]) => {
    if (depth > MAX_CLOSE_DEPTH) return;
    const here = [...new Set([...around, ...namesAt(node, 0, root)])];
    const pointer = target(node.$ref);
    if (pointer !== null && Object.keys(node).every((k) => ANNOTATIONS.has(k))) {
      seen.set(pointer, (seen.get(pointer) ?? 0) + 1);
      const known = places.get(pointer);
      if (known !== null) places.set(pointer, [...new Set([...(known ?? []), ...around])]);
    }
    if (isObject(node.properties)) for (const v of Object.values(node.properties)) if (isObject(v)) visit(v, depth + 1, []);
    if (isObject(node.items)) visit(node.items, depth + 1, []);
    for (const key of ['anyOf', 'oneOf'] as const) {
      const list = node[key];
      if (Array.isArray(list)) for (const b of list) if (isObject(b)) visit(b, depth + 1, here);
    }
    for (const key of ['$defs', 'definitions'] as const) {
      const defs = node[key];
      if (isObject(defs)) for (const v of Object.values(defs)) if (isObject(v)) visit(v, depth + 1, []);
    }
  };
  visit(root, 0, []);
  // Every reference in the schema, wherever it is: one the walk above did not read opens its definition.
  const all = new Map<string, number>();
  let resources = false;
  const count = (x: unknown, depth: number) => {
    if (depth > MAX_CLOSE_DEPTH * 4 || x === null || typeof x !== 'object') return;
    if (Array.isArray(x)) return x.forEach((v) => count(v, depth + 1));
    const node = x as Record<string, unknown>;
    if (depth > 0 && typeof node.$id === 'string') resources = true;
    if (typeof node.$dynamicRef === 'string' || typeof node.$recursiveRef === 'string') resources = true;
    const pointer = target(node.$ref);
    if (pointer !== null) all.set(pointer, (all.get(pointer) ?? 0) + 1);
    // An anchor (`#name`) or another resource's URI: which definition it names is not read here.
    else if (typeof node.$ref === 'string') resources = true;
    if (pointer !== null && pointer !== '' && !pointer.startsWith('/')) resources = true;
    for (const v of Object.values(node)) count(v, depth + 1);
  };
  count(root, 0);
  if (resources) return null;
  for (const [pointer, n] of all) {
    if ((seen.get(pointer) ?? 0) < n) places.set(pointer, null);
    // A reference into part of a definition (`#/$defs/H/properties/inner`) is read in its place: H stays open.
    const segments = pointer.split('/');
    for (let i = 1; i + 2 < segments.length; i++)
      if (segments[i] === '$defs' || segments[i] === 'definitions') places.set(segments.slice(0, i + 2).join('/'), null);
  }
  return places;
}

/** What an object says of names it does not declare, or a combination that may: it stays open. */
const OPENING = [
  'additionalProperties',
  'patternProperties',
  'unevaluatedProperties',
  'allOf',
  'anyOf',
  'oneOf',
  '$ref',
  'if',
  'dependentSchemas',
];

/** The property names a subschema and the subschemas applied at the same place declare, in order. */
function namesAt(node: JsonSchema, depth: number, root: JsonSchema, followed: Set<string> = new Set()): string[] {
  if (depth > MAX_CLOSE_DEPTH) return [];
  const names = isObject(node.properties) ? Object.keys(node.properties) : [];
  // A subschema behind a local `$ref` applies here as if written here; each is read once per place.
  if (typeof node.$ref === 'string' && node.$ref.startsWith('#') && !followed.has(node.$ref)) {
    followed.add(node.$ref);
    const target = safeLookup(root, node.$ref);
    if (isObject(target)) names.push(...namesAt(target, depth + 1, root, followed));
  }
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = node[key];
    if (Array.isArray(list)) for (const b of list) if (isObject(b)) names.push(...namesAt(b, depth + 1, root, followed));
  }
  for (const key of ['then', 'else'] as const) {
    const branch = node[key];
    if (isObject(branch)) names.push(...namesAt(branch, depth + 1, root, followed));
  }
  return names;
}

const safeLookup = (root: JsonSchema, ref: string): unknown => {
  try {
    return lookup(root, ref);
  } catch {
    return undefined;
  }
};

/**
 * What the run has left to spend, and the searches it already made: tools that share a schema
 * (a release-wide change, a family of tools built from one definition) are searched once. The
 * outcome depends only on the schemas, the focus and the budget, so sharing it changes nothing.
 */
export interface Ledger {
  instances: number;
  memo: Map<string, WitnessOutcome>;
}

/** A search made once per run for the same question; the first time it spends from the run's budget. */
export function remembered(left: Ledger, question: unknown[], run: () => WitnessOutcome): WitnessOutcome {
  const key = canonicalJson(question);
  const known = left.memo.get(key);
  if (known) return known;
  const outcome = run();
  left.instances -= outcome.tried;
  left.memo.set(key, outcome);
  return outcome;
}

/**
 * The search, with more bounds than its own: a schema nested past what the stack holds, or an
 * instance ajv fails on, is unsearchable, said so, never a crash (a run that cannot decide).
 */
export function searchSafely(accept: JsonSchema, refuse: JsonSchema, options: Parameters<typeof findWitness>[2]): WitnessOutcome {
  try {
    const outcome = findWitness(accept, refuse, options);
    // Bounds at or past ±(2^53-1) count as no bound (zod 4's .int()): a witness made of numbers no
    // JSON client sends exactly is no witness (README, "Documented policy").
    if (outcome.kind === 'found' && unsafe(outcome.instance, 0))
      return { kind: 'none', tried: outcome.tried, strategies: ['only numbers past the safe-integer range tell them apart'] };
    return outcome;
  } catch (error) {
    if (error instanceof RangeError)
      return { kind: 'unsearchable', reason: 'the schemas nest deeper than the search can follow', tried: 0 };
    if (error instanceof JudgeFailure) return { kind: 'unsearchable', reason: error.message, tried: 0 };
    throw error;
  }
}

function unsafe(x: unknown, depth: number): boolean {
  if (typeof x === 'number') return Math.abs(x) > Number.MAX_SAFE_INTEGER;
  if (depth > 64 || x === null || typeof x !== 'object') return false;
  return Object.values(x).some((v) => unsafe(v, depth + 1));
}

/**
 * A string a command line reads as an option: it starts with '-' and is not a number. Refusing one
 * is argument-injection hardening (a server that hands a ref or a path to git, tar or ssh keeps a
 * model from sending `--upload-pack=…`), so a break whose every refused call is refused for such a
 * value is held, not rolled back (docs/verdicts.md, "Argument-injection hardening").
 */
const OPTION_LIKE = /^-/;
const NUMBER = /^-(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

/**
 * Whether the value an instance is refused for (at `at`, the JSON Pointer of the refusing schema's
 * first error) is an option-like string. A refusal of anything else (a number past a bound, a
 * missing argument) is not, whatever else the instance holds.
 */
export function refusesOptionLike(instance: unknown, at: string): boolean {
  let value = instance;
  for (const raw of at.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return false;
    value = (value as Record<string, unknown>)[key];
  }
  return typeof value === 'string' && OPTION_LIKE.test(value) && !NUMBER.test(value);
}

/** The instance path a change is at: `/inputSchema/properties/a/properties/b/maximum` is `a/b`. */
export function instancePath(c: Change): string[] {
  const at = c.subject.kind === 'tool' ? c.subject.at : [];
  const path: string[] = [];
  for (let i = 1; i < at.length; i++) {
    if (at[i] === 'properties' && at[i + 1] !== undefined) path.push(at[++i]!);
    else if (at[i] === 'items') path.push('0');
  }
  return path;
}
