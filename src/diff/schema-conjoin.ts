import { memberOf, setMember } from '../base/json-object.js';
import { safeRegex } from '../base/safe-regex.js';
import type { JsonSchema } from '../contract/types.js';
import { TEXT_KEYWORDS, isAnnotation, isObject, valueKey } from './schema-keywords.js';

/**
 * What `allOf` folds into: two normalised nodes conjoined into one that accepts what both accept,
 * and the schema that applies to one property (its declaration, the patterns it matches, else the
 * fallback), which the conjunction and the object walker share.
 */
export type Node = JsonSchema | false;

const LOWER = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties', 'minContains']);
const UPPER = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties', 'maxContains']);
const OBJECT_SHAPE = ['properties', 'patternProperties', 'additionalProperties', 'unevaluatedProperties'];
const CONDITIONAL = ['if', 'then', 'else'];

const takesAll = (v: unknown): boolean => v === true || (isObject(v) && Object.keys(v).length === 0);

const both = (a: unknown, b: unknown): unknown => {
  if (a === undefined || a === true || (isObject(a) && Object.keys(a).length === 0)) return b;
  if (b === undefined || b === true || (isObject(b) && Object.keys(b).length === 0)) return a;
  // A schema conjoined with itself is itself.
  if (isObject(a) && isObject(b) && JSON.stringify(a) === JSON.stringify(b)) return a;
  return { allOf: [a, b] };
};

/**
 * The schema that applies to property `name`: its declaration and matching patterns, else the
 * fallback. `conjunct`: the schema is one of several applied together, where a name a sibling
 * declares is evaluated, so `unevaluatedProperties` does not govern it (only `additionalProperties`).
 */
export function propertySchema(schema: JsonSchema, name: string, conjunct = false): { schema: unknown; declared: boolean } {
  const parts: unknown[] = [];
  const declared = isObject(schema.properties) && Object.hasOwn(schema.properties, name);
  if (declared) parts.push((schema.properties as JsonSchema)[name]);
  if (isObject(schema.patternProperties)) {
    for (const [pattern, sub] of Object.entries(schema.patternProperties)) if (matches(pattern, name)) parts.push(sub);
  }
  if (parts.length === 0) return { schema: conjunct ? schema.additionalProperties : fallback(schema), declared };
  return { schema: parts.length === 1 ? parts[0] : { allOf: parts }, declared };
}

/** What applies to a property no declaration or pattern names: `additionalProperties`, then `unevaluatedProperties`. */
export const fallback = (schema: JsonSchema): unknown => both(schema.additionalProperties, schema.unevaluatedProperties);

export function matches(pattern: string, name: string): boolean {
  try {
    const re = safeRegex(pattern);
    return typeof re !== 'string' && re.test(name);
  } catch {
    return false;
  }
}

/**
 * Two normalised nodes -> one that accepts exactly what both accept. Keywords that combine
 * (bounds, types, enums, required, properties) are merged; two different patterns, conditionals
 * and the like stay side by side in a residual `allOf`, compared as a set of conjuncts.
 */
export function conjoin(a: Node, b: Node): Node {
  if (a === false || b === false) return false;
  const out: JsonSchema = { ...a };
  const residual: JsonSchema = {};
  // An `additionalProperties` that takes anything shapes nothing: beside patterns it still takes
  // every name, and marks each evaluated, whichever side it came from (a member's mark, kept for an
  // `unevaluatedProperties` the node may have: schema-implied.ts, dropOpen).
  const shapes = (n: JsonSchema) => OBJECT_SHAPE.some((k) => k in n && !(k === 'additionalProperties' && takesAll(n[k])));
  const shapeClash = (isObject(a.patternProperties) && shapes(b)) || (isObject(b.patternProperties) && shapes(a));
  for (const [key, value] of Object.entries(b)) {
    if (!Object.hasOwn(out, key)) {
      if (key === 'allOf' && Array.isArray(value)) out.allOf = value;
      else if (!(shapeClash && OBJECT_SHAPE.includes(key))) setMember(out, key, value);
      else setMember(residual, key, value);
      continue;
    }
    const mine = out[key];
    if (TEXT_KEYWORDS.has(key) || isAnnotation(key) || key === 'default') continue;
    if (valueKey(mine) === valueKey(value)) continue;
    if (shapeClash && OBJECT_SHAPE.includes(key)) {
      residual[key] = value;
      continue;
    }
    if (key === 'type') out.type = intersectTypes(mine, value);
    else if (key === 'enum' && Array.isArray(mine) && Array.isArray(value))
      out.enum = mine.filter((v) => value.some((w) => valueKey(w) === valueKey(v)));
    else if (LOWER.has(key) && typeof mine === 'number' && typeof value === 'number') out[key] = Math.max(mine, value);
    else if (UPPER.has(key) && typeof mine === 'number' && typeof value === 'number') out[key] = Math.min(mine, value);
    else if (key === 'required' && Array.isArray(mine) && Array.isArray(value)) out.required = [...new Set([...mine, ...value])];
    else if (key === 'uniqueItems') out.uniqueItems = Boolean(mine) || Boolean(value);
    else if (key === 'allOf' && Array.isArray(mine) && Array.isArray(value)) out.allOf = [...mine, ...value];
    else if (key === 'not') out.not = { anyOf: [mine, value] };
    else if (key === 'properties' || key === 'prefixItems' || key === 'items')
      continue; // merged below, with the other side's fallback
    else if ((key === 'additionalProperties' || key === 'unevaluatedProperties' || key === 'propertyNames') && !shapeClash)
      out[key] = both(mine, value);
    else if (key === 'patternProperties' && !shapeClash) out[key] = mergeMaps(mine, value);
    else if (key === 'dependentSchemas') out[key] = mergeMaps(mine, value);
    else if (key === 'dependentRequired' && isObject(mine) && isObject(value)) out[key] = mergeRequired(mine, value);
    else if (CONDITIONAL.includes(key))
      for (const k of CONDITIONAL) {
        if (k in b) residual[k] = b[k];
      }
    else setMember(residual, key, value);
  }
  if (!shapeClash && (isObject(a.properties) || isObject(b.properties))) out.properties = mergeProperties(a, b);
  if (['prefixItems', 'items'].some((k) => k in a) && ['prefixItems', 'items'].some((k) => k in b)) mergeArrays(out, a, b);
  if (Object.keys(residual).length) out.allOf = [...(Array.isArray(out.allOf) ? out.allOf : []), residual];
  if (Array.isArray(out.enum) && out.enum.length === 0) return false;
  return Array.isArray(out.type) && out.type.length === 0 ? false : out;
}

function intersectTypes(a: unknown, b: unknown): unknown {
  const set = (t: unknown) => new Set([t].flat().filter((x): x is string => typeof x === 'string'));
  const left = set(a);
  const right = set(b);
  const kept = [...left].filter((t) => right.has(t) || (t === 'integer' && right.has('number')));
  for (const t of right) if (t === 'integer' && left.has('number') && !kept.includes(t)) kept.push(t);
  return kept.length === 1 ? kept[0] : kept;
}

function mergeProperties(a: JsonSchema, b: JsonSchema): JsonSchema {
  const names = new Set([
    ...Object.keys(isObject(a.properties) ? a.properties : {}),
    ...Object.keys(isObject(b.properties) ? b.properties : {}),
  ]);
  const out: JsonSchema = {};
  for (const name of names) setMember(out, name, both(propertySchema(a, name, true).schema, propertySchema(b, name, true).schema));
  return out;
}

function mergeMaps(a: unknown, b: unknown): JsonSchema {
  const out: JsonSchema = { ...(isObject(a) ? a : {}) };
  for (const [k, v] of Object.entries(isObject(b) ? b : {})) setMember(out, k, Object.hasOwn(out, k) ? both(out[k], v) : v);
  return out;
}

function mergeRequired(a: JsonSchema, b: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const mine = memberOf(out, k);
    setMember(out, k, [...new Set([...(Array.isArray(mine) ? mine : []), ...(Array.isArray(v) ? v : [])])]);
  }
  return out;
}

function mergeArrays(out: JsonSchema, a: JsonSchema, b: JsonSchema): void {
  const prefixA = Array.isArray(a.prefixItems) ? a.prefixItems : [];
  const prefixB = Array.isArray(b.prefixItems) ? b.prefixItems : [];
  const length = Math.max(prefixA.length, prefixB.length);
  if (length)
    out.prefixItems = Array.from({ length }, (_, i) =>
      both(i < prefixA.length ? prefixA[i] : a.items, i < prefixB.length ? prefixB[i] : b.items),
    );
  // One side's `items` that takes anything still marks every item past the tuple evaluated (for an
  // `unevaluatedItems` of the node), so it is kept where the other side has none; dropOpen drops it
  // where nothing reads the mark.
  const rest = a.items === undefined ? b.items : b.items === undefined ? a.items : both(a.items, b.items);
  if (rest === undefined) delete out.items;
  else out.items = rest;
}
