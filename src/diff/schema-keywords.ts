import type { JsonSchema } from '../contract/types.js';
import { isObject, setMember } from '../base/json-object.js';

/**
 * What each JSON Schema keyword (draft-07 and 2020-12) is to the diff. Every keyword a schema can
 * carry falls in exactly one group, so a difference the walker does not compare is never silent:
 * unknown keywords are `schema-changed`, annotations are `schema-annotation-changed`.
 */

/** Text written for the model: compared by diff/text.ts, never as a schema change. */
export const TEXT_KEYWORDS = new Set(['description', 'title', 'examples', '$comment']);

/** Keywords that never change which instances validate. */
const ANNOTATION_KEYWORDS = new Set([
  '$schema',
  '$id',
  '$anchor',
  '$dynamicAnchor',
  '$vocabulary',
  '$defs',
  'definitions',
  'deprecated',
  'readOnly',
  'writeOnly',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
  'example',
  'discriminator',
]);

/**
 * Bounds on one value (a number's range and step, a string's length, pattern and format, a list's or
 * an object's size): each asserts on its own, reading no sibling and marking nothing a sibling reads.
 */
export const VALUE_BOUNDS: ReadonlySet<string> = new Set([
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
]);

/** Keywords the walker compares, each in one comparator. */
export const COMPARED_KEYWORDS = new Set([
  'type',
  'enum',
  'const',
  'default',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minItems',
  'maxItems',
  'uniqueItems',
  'items',
  'prefixItems',
  'contains',
  'minContains',
  'maxContains',
  'unevaluatedItems',
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'unevaluatedProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'dependentRequired',
  'dependentSchemas',
  'not',
  'if',
  'then',
  'else',
  'allOf',
  'anyOf',
  'oneOf',
  '$ref',
]);

/** Shared by the modules of this folder that read schemas. */
export { isObject };

/** Vendor extensions (`x-...`) are annotations too, by the spec's rule that unknown keywords assert nothing. */
export const isAnnotation = (keyword: string): boolean => ANNOTATION_KEYWORDS.has(keyword) || keyword.startsWith('x-');

export const SINGLE = new Set([
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'additionalItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'contentSchema',
]);
export const LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
export const MAP = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions', 'dependencies']);
/** Keywords whose array value is a set: order carries no meaning. */
export const SETS = new Set(['required', 'enum', 'type']);

const MAX_KEY_DEPTH = 256;

/**
 * A schema's constraint form: text keywords dropped at schema positions only (a property named
 * `description` stays), set-valued keywords sorted, keys sorted. Two schemas with the same key accept
 * the same instances and tell the model the same structure. Null when the schema is too deep to key,
 * which callers treat as "differs".
 */
export function constraintKey(schema: unknown): string | null {
  if (schema === undefined || schema === true) return '{}'; // both accept everything, as `{}` does
  try {
    return JSON.stringify(stripped(schema, 0));
  } catch {
    return null;
  }
}

function stripped(schema: unknown, depth: number): unknown {
  if (depth > MAX_KEY_DEPTH) throw new RangeError('schema too deep to key');
  if (!isObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(schema).sort()) {
    if (TEXT_KEYWORDS.has(key)) continue;
    const value = schema[key];
    if (value === undefined) continue;
    if (SINGLE.has(key) && (isObject(value) || typeof value === 'boolean')) out[key] = stripped(value, depth + 1);
    else if (LIST.has(key) && Array.isArray(value)) out[key] = value.map((v) => stripped(v, depth + 1));
    else if (MAP.has(key) && isObject(value)) {
      const map: Record<string, unknown> = {};
      for (const name of Object.keys(value).sort())
        setMember(map, name, Array.isArray(value[name]) ? value[name] : stripped(value[name], depth + 1));
      out[key] = map;
    } else if (SETS.has(key) && Array.isArray(value)) out[key] = value.map((v) => JSON.stringify(sortedValue(v, depth + 1))).sort();
    else setMember(out, key, sortedValue(value, depth + 1));
  }
  return out;
}

/** A plain JSON value (a `const`, a `default`) with its object keys sorted. */
function sortedValue(value: unknown, depth: number): unknown {
  if (depth > MAX_KEY_DEPTH) throw new RangeError('value too deep to key');
  if (Array.isArray(value)) return value.map((v) => sortedValue(v, depth + 1));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) if (value[key] !== undefined) setMember(out, key, sortedValue(value[key], depth + 1));
  return out;
}

let tooDeep = 0;
/** The key of a plain JSON value, for matching enum members and defaults. A value too deep to key equals nothing. */
export const valueKey = (value: unknown): string => {
  try {
    return JSON.stringify(sortedValue(value, 0)) ?? 'undefined';
  } catch {
    return `\u0000too-deep#${++tooDeep}`;
  }
};

/** The JSON types a schema accepts: its `type`, else the types of its `enum` members; null for any. */
export const typesOf = (schema: JsonSchema): Set<string> | null => {
  const t = schema.type;
  const declared =
    typeof t === 'string' ? new Set([t]) : Array.isArray(t) ? new Set(t.filter((x): x is string => typeof x === 'string')) : null;
  if (!Array.isArray(schema.enum)) return declared;
  const listed = new Set(schema.enum.map(jsonType));
  if (!declared) return listed;
  // A type the enum has no member of is accepted by nothing: `type: [string, null]` with string members is string.
  return new Set([...declared].filter((d) => listed.has(d) || (d === 'number' && listed.has('integer'))));
};

const jsonType = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'array'
      : typeof v === 'number'
        ? Number.isInteger(v)
          ? 'integer'
          : 'number'
        : typeof v === 'object'
          ? 'object'
          : typeof v;

/** Whether a node may accept values of a JSON type (`number` keywords also govern integers). */
export const accepts = (schema: JsonSchema, kind: 'string' | 'number' | 'array' | 'object'): boolean => {
  const types = typesOf(schema);
  return types === null || types.has(kind) || (kind === 'number' && types.has('integer'));
};
