import type { ChangeCode } from '../findings/codes.js';
import type { Change } from '../findings/types.js';
import type { JsonSchema } from '../contract/types.js';
import { memberOf } from '../base/json-object.js';
import { toolChange } from './change.js';
import { compareCounts } from './schema-constraints.js';
import { annotationChange, constraint, emit, withProof, type WalkContext } from './schema-context.js';
import { accepts, isObject, valueKey } from './schema-keywords.js';
import { fallback, matches, propertySchema } from './schema-conjoin.js';
import { normalize } from './schema-normalize.js';
import { valueAt } from '../witness/locations.js';

/** What a closed input does with an argument it no longer declares (diff/deprecation.ts says it too). */
export const CLOSED_REFUSES = 'The schema is closed, so a caller that still sends it is refused.';

const requiredSet = (schema: JsonSchema): Set<string> =>
  new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
const keysOf = (value: unknown): string[] => (isObject(value) ? Object.keys(value) : []);
const isOpen = (schema: unknown) => schema === undefined || schema === true || (isObject(schema) && Object.keys(schema).length === 0);

/**
 * Properties, required names, what applies to undeclared names (`additionalProperties`,
 * `patternProperties`, `unevaluatedProperties`), `propertyNames` and the `dependent*` keywords.
 * The schema that governs a name is worked out on each side, so a property moved into
 * `additionalProperties`, or one now refused by a closed schema, is judged by what callers may send.
 */
export function compareObjects(b: JsonSchema, a: JsonSchema, path: string[], ctx: WalkContext): Change[] {
  if (!accepts(b, 'object') && !accepts(a, 'object')) return [];
  const out: Change[] = [...compareCounts('object', b, a, path, ctx)];
  const closed = (s: JsonSchema, root: JsonSchema, reached: Set<string>) => {
    try {
      return normalize(fallback(s), root, reached).node === false;
    } catch {
      return false;
    }
  };
  const closedBefore = closed(b, ctx.rootBefore, ctx.reached.before);
  const closedAfter = closed(a, ctx.rootAfter, ctx.reached.after);
  const reqBefore = requiredSet(b);
  const reqAfter = requiredSet(a);
  const names = [...new Set([...keysOf(b.properties), ...keysOf(a.properties), ...reqBefore, ...reqAfter])].sort();
  for (const name of names)
    out.push(
      ...compareProperty(
        name,
        b,
        a,
        { reqB: reqBefore.has(name), reqA: reqAfter.has(name), closedBefore, closedAfter },
        [...path, 'properties', name],
        ctx,
      ),
    );
  const at = [...path, 'additionalProperties'];
  if (closedBefore !== closedAfter) {
    out.push(
      closedAfter
        ? emit(ctx, { input: 'input-closed', output: 'output-constraint-tightened' }, at, fallback(b) ?? null, false)
        : emit(ctx, { input: 'input-opened', output: 'output-constraint-loosened' }, at, false, fallback(a) ?? null),
    );
  } else if (!closedBefore) {
    out.push(...ctx.walk(fallback(b), fallback(a), at, ctx));
  }
  for (const pattern of [...new Set([...keysOf(b.patternProperties), ...keysOf(a.patternProperties)])].sort()) {
    const own = (s: JsonSchema) => isObject(s.patternProperties) && Object.hasOwn(s.patternProperties, pattern);
    const governing = (s: JsonSchema) => (own(s) ? (s.patternProperties as JsonSchema)[pattern] : fallback(s));
    const at = [...path, 'patternProperties', pattern];
    // As with declared names: a pattern that appears on an open schema declares new optional names.
    if (!own(b) && isOpen(fallback(b)))
      out.push(emit(ctx, { input: 'input-property-added', output: 'output-property-added' }, at, null, governing(a)));
    else if (!own(a) && isOpen(fallback(a)))
      out.push(emit(ctx, { input: 'input-property-removed', output: 'output-property-removed' }, at, governing(b), null));
    else out.push(...ctx.walk(governing(b), governing(a), at, ctx));
  }
  if ('propertyNames' in b || 'propertyNames' in a) out.push(...comparePropertyNames(b, a, closedBefore && closedAfter, path, ctx));
  out.push(...compareDependencies(b, a, path, ctx));
  return out;
}

/**
 * Whether the candidate's object at `at` (a property's place) says it takes any other name, as
 * served (`additionalProperties: true` or a schema): a map, whose keys a removed name may be. One
 * that merely stopped saying `false` is open by default, not a map (zod 4 under the SDK drops the
 * `false` from every input, names and all). The walk's nodes are normalized, where the two read
 * alike, so the served schema is read; where the place is not found there, it is taken for a map.
 */
function servedAsMap(root: JsonSchema, at: readonly string[]): boolean {
  const node = valueAt(root, at.slice(1, -2));
  if (!isObject(node)) return true;
  const branches = objectBranches(node);
  return takesOtherNames(node) || (branches.length > 0 && branches.every(takesOtherNames));
}

const takesOtherNames = (node: JsonSchema): boolean => {
  const rest = memberOf(node, 'additionalProperties');
  return rest === true || isObject(rest);
};

/**
 * The object alternatives of a union the walk reads through: the walk's place names a property,
 * not the branch it sits in, so a nullable map (`anyOf: [{type: object, additionalProperties: …},
 * {type: null}]`, as zod's `.nullable()` and OpenAPI generators write it) is found at its union.
 * None (an empty list) where the node is no union or has no object alternative.
 */
function objectBranches(node: JsonSchema): JsonSchema[] {
  const list = memberOf(node, 'anyOf') ?? memberOf(node, 'oneOf');
  if (!Array.isArray(list)) return [];
  return list.filter(
    (b): b is JsonSchema => isObject(b) && ([b.type].flat().includes('object') || 'properties' in b || 'additionalProperties' in b),
  );
}

interface Requirement {
  reqB: boolean;
  reqA: boolean;
  /** Whether the object refused undeclared names, on each side. */
  closedBefore: boolean;
  closedAfter: boolean;
}

function compareProperty(
  name: string,
  b: JsonSchema,
  a: JsonSchema,
  { reqB, reqA, closedBefore, closedAfter }: Requirement,
  at: string[],
  ctx: WalkContext,
): Change[] {
  const before = propertySchema(b, name);
  const after = propertySchema(a, name);
  const out: Change[] = [];
  const here = (code: ChangeCode, before: unknown, after: unknown, note?: string) => toolChange(code, ctx.tool, at, before, after, note);
  if (ctx.side === 'input') {
    if (before.declared && !after.declared) {
      const refused = isRefused(after.schema, ctx);
      // A closed shape turned into a map in the same change: the baseline refused undeclared
      // names, the candidate takes them (and says so with `input-opened`). A name whose declaration
      // went with it is not dropped: it is one of the map's keys now, so a required one becomes
      // optional and an optional one stays accepted (the published Notion server's page
      // `properties`, 2.0.0 → 2.1.0). What the map takes is still compared with the old property.
      // Only a map, though: where the candidate only stopped refusing other names, a name it no
      // longer declares is an argument removed (context-mode 1.0.169's `ctx_insight`, seventh
      // held-out set).
      if (closedBefore && !closedAfter && !refused && servedAsMap(ctx.rootAfter, at)) {
        if (reqB) out.push(here('argument-became-optional', 'required', 'optional'));
        if (!isOpen(after.schema)) out.push(...ctx.walk(before.schema, after.schema, at, ctx));
        return out;
      }
      // Where the input refuses undeclared names, a caller that still sends the optional argument
      // is refused: a call that worked no longer does (docs/verdicts.md, "Optional arguments removed").
      const code = reqB ? 'required-argument-removed' : refused ? 'input-property-removed-closed' : 'input-property-removed';
      const note = refused && reqB ? CLOSED_REFUSES : undefined;
      out.push(here(code, before.schema ?? null, null, note));
      if (!refused && !isOpen(after.schema)) out.push(...ctx.walk(before.schema, after.schema, at, ctx));
      return out;
    }
    if (!before.declared && after.declared) {
      out.push(here(reqA && !reqB ? requiredAdded(after.schema) : 'input-property-added', null, after.schema ?? null));
      // An undeclared name is no interface, unless the baseline required it (callers had to send
      // it, with any value) or gave undeclared names a schema: then its new schema is compared.
      if (reqB ? !isRefused(before.schema, ctx) : !isOpen(before.schema) && !isRefused(before.schema, ctx))
        out.push(...ctx.walk(before.schema ?? true, after.schema, at, ctx));
      return out;
    }
    if (!reqB && reqA) out.push(here(requiredAdded(after.schema), 'optional', 'required'));
    if (reqB && !reqA) out.push(here('argument-became-optional', 'required', 'optional'));
  } else {
    if (before.declared && !after.declared) {
      // An optional field that the candidate can no longer return: every result it gives still
      // satisfies the baseline's schema, so no consumer of the old contract breaks
      // (docs/verdicts.md, "A field added to an output the baseline closed": the mirror).
      const gone = !reqB && isRefused(after.schema, ctx);
      return [here(gone ? 'output-optional-property-removed' : 'output-property-removed', before.schema ?? null, null)];
    }
    if (!before.declared && after.declared) {
      // Where the baseline refused the name, a result that carries it fails the old contract.
      const refusedBefore = isRefused(before.schema, ctx);
      return [here(refusedBefore ? 'output-closed-property-added' : 'output-property-added', null, after.schema ?? null)];
    }
    if (reqB && !reqA) out.push(here('output-property-optional', 'required', 'optional'));
    if (!reqB && reqA) out.push(constraint(ctx, 'tightened', at, 'optional', 'required'));
  }
  // Names required but declared on neither side are governed by the fallback, compared once for all.
  if (before.declared && after.declared) {
    const changes = ctx.walk(before.schema, after.schema, at, ctx);
    // Every call the baseline accepted sent an argument it required: a default added or changed
    // decides nothing for any of them, so it is an annotation (an argument made optional with one
    // says so on its own).
    const ownDefault = (c: Change) =>
      c.code === 'input-default-changed' &&
      c.subject.kind === 'tool' &&
      c.subject.at.length === at.length + 1 &&
      c.subject.at.at(-1) === 'default';
    const calm = (c: Change) => (ownDefault(c) ? annotationChange(ctx, [...at, 'default'], c.before ?? null, c.after ?? null) : c);
    out.push(...(ctx.side === 'input' && reqB ? changes.map(calm) : changes));
  }
  return out;
}

/** A name made required: with a `default`, zod-built servers still accept calls that omit it. */
const requiredAdded = (schema: unknown): ChangeCode =>
  isObject(schema) && 'default' in schema ? 'required-argument-added-with-default' : 'required-argument-added';

/**
 * `propertyNames`. On an object closed on both sides (no patterns), only declared names can occur:
 * when every one of them passes both versions, the change excludes nothing anyone can send.
 */
function comparePropertyNames(b: JsonSchema, a: JsonSchema, closed: boolean, path: string[], ctx: WalkContext): Change[] {
  const at = [...path, 'propertyNames'];
  const declared = [...new Set([...keysOf(b.properties), ...keysOf(a.properties)])];
  const noPatterns = !isObject(b.patternProperties) && !isObject(a.patternProperties);
  const everyDeclared =
    noPatterns && declared.every((n) => nameAccepted(b.propertyNames, n) === true && nameAccepted(a.propertyNames, n) === true);
  if (closed && everyDeclared) return [annotationChange(ctx, at, b.propertyNames ?? null, a.propertyNames ?? null)];
  const changes = ctx.walk(b.propertyNames, a.propertyNames, at, ctx);
  // An open input: only an undeclared name is refused, which a caller that sends what the schema
  // declares never sends (the reading docs/verdicts.md gives every input witness).
  if (ctx.side !== 'input' || !everyDeclared) return changes;
  return changes.map((c) =>
    withProof(c, 'every name the schema declares passes both versions of propertyNames, so only a name it does not declare is refused'),
  );
}

/** Whether a simple string schema accepts a name; null when the schema uses more than the gate evaluates. */
function nameAccepted(schema: unknown, name: string): boolean | null {
  if (schema === undefined || schema === true) return true;
  if (schema === false) return false;
  if (!isObject(schema)) return null;
  const known = new Set(['type', 'minLength', 'maxLength', 'pattern', 'enum', 'const', 'description', 'title']);
  if (Object.keys(schema).some((k) => !known.has(k))) return null;
  const length = [...name].length;
  if (schema.type !== undefined && schema.type !== 'string') return null;
  if (typeof schema.minLength === 'number' && length < schema.minLength) return false;
  if (typeof schema.maxLength === 'number' && length > schema.maxLength) return false;
  if (typeof schema.pattern === 'string' && !matches(schema.pattern, name)) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(name)) return false;
  if ('const' in schema && schema.const !== name) return false;
  return true;
}

function isRefused(schema: unknown, ctx: WalkContext): boolean {
  try {
    return normalize(schema, ctx.rootAfter, new Set()).node === false;
  } catch {
    return false;
  }
}

/** `dependentRequired` (names required when another is present) and `dependentSchemas`. */
function compareDependencies(b: JsonSchema, a: JsonSchema, path: string[], ctx: WalkContext): Change[] {
  const out: Change[] = [];
  const listOf = (s: JsonSchema, key: string): string[] => {
    const map = s.dependentRequired;
    const list = isObject(map) ? memberOf(map, key) : undefined;
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
  };
  // A dependent name the object already requires asks nothing more: only the others count.
  const [reqB, reqA] = [requiredSet(b), requiredSet(a)];
  for (const key of [...new Set([...keysOf(b.dependentRequired), ...keysOf(a.dependentRequired)])].sort()) {
    const before = listOf(b, key);
    const after = listOf(a, key);
    const at = [...path, 'dependentRequired', key];
    const [needB, needA] = [before.filter((n) => !reqB.has(n)), after.filter((n) => !reqA.has(n))];
    if (needA.some((n) => !needB.includes(n))) out.push(constraint(ctx, 'tightened', at, before, after));
    else if (needB.some((n) => !needA.includes(n))) out.push(constraint(ctx, 'loosened', at, before, after));
    else if (valueKey(before) !== valueKey(after)) out.push(annotationChange(ctx, at, before, after));
  }
  for (const key of [...new Set([...keysOf(b.dependentSchemas), ...keysOf(a.dependentSchemas)])].sort()) {
    const pick = (s: JsonSchema) => (isObject(s.dependentSchemas) ? memberOf(s.dependentSchemas, key) : undefined);
    out.push(...ctx.walk(pick(b), pick(a), [...path, 'dependentSchemas', key], ctx));
  }
  return out;
}
