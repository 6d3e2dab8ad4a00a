import { isObject, memberOf, setMember } from '../base/json-object.js';
import { unescapeSegment } from '../base/json-pointer.js';
/**
 * Probe arguments built from a tool's input schema, for `record`: the smallest call the schema
 * allows, from what its author wrote down first. For each value, in order: an example, the
 * default, `const`, the first of `enum`, then a plain value of its type and format (1 for a number
 * whose bounds allow it, else the bound nearest to it). Only required
 * properties are filled. A schema this cannot satisfy (a `pattern` without an example, a `$ref`
 * outside the schema) gives the reason, and the user gives the arguments in the `--args` file.
 */

type Schema = Record<string, unknown>;
export type Built = { ok: true; value: unknown } | { ok: false; reason: string };

const MAX_DEPTH = 16;

/** Plain values of a string format: valid, and plainly made up. */
const FORMATS: Record<string, string> = {
  'date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  time: '00:00:00Z',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  iri: 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  duration: 'P1D',
};

/** The arguments object for a tool's input schema. */
export function probeArguments(inputSchema: unknown): Built {
  if (inputSchema === undefined || inputSchema === null) return { ok: true, value: {} };
  if (!isObject(inputSchema)) return { ok: false, reason: 'its inputSchema is not an object' };
  const built = valueFor(inputSchema, inputSchema, 0, '');
  if (!built.ok) return built;
  return isObject(built.value) ? built : { ok: false, reason: 'its inputSchema does not describe an object' };
}

function resolveRef(schema: Schema, root: Schema): Schema | string {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  if (!ref.startsWith('#')) return `$ref ${ref} points outside the schema`;
  let target: unknown = root;
  for (const part of ref.slice(1).split('/').filter(Boolean)) {
    const key = unescapeSegment(decodeURIComponent(part));
    target = isObject(target) ? memberOf(target, key) : undefined;
  }
  return isObject(target) ? target : `$ref ${ref} names nothing in the schema`;
}

function valueFor(given: unknown, root: Schema, depth: number, at: string): Built {
  const where = at || 'the arguments';
  if (given === true || (isObject(given) && Object.keys(given).length === 0)) return { ok: true, value: 'example' };
  if (!isObject(given)) return { ok: false, reason: `${where} has a schema that allows nothing` };
  if (depth > MAX_DEPTH) return { ok: false, reason: `${where} nests deeper than ${MAX_DEPTH} levels` };
  const schema = resolveRef(given, root);
  if (typeof schema === 'string') return { ok: false, reason: `${where}: ${schema}` };
  if (schema !== given) return valueFor(schema, root, depth + 1, at);
  if (Array.isArray(schema.examples) && schema.examples.length) return { ok: true, value: schema.examples[0] };
  if (schema.example !== undefined) return { ok: true, value: schema.example };
  if (schema.default !== undefined) return { ok: true, value: schema.default };
  if (schema.const !== undefined) return { ok: true, value: schema.const };
  if (Array.isArray(schema.enum) && schema.enum.length) return { ok: true, value: schema.enum.find((v) => v !== null) ?? schema.enum[0] };
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length) {
      // The first option that is not just null: a nullable value is probed with a value.
      const option = options.find((o) => !(isObject(o) && o.type === 'null')) ?? options[0];
      return valueFor({ ...withoutKey(schema, key), ...(isObject(option) ? option : {}) }, root, depth + 1, at);
    }
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length) {
    const merged = schema.allOf.reduce<Schema>(
      (all, part) => mergeSchemas(all, isObject(part) ? (resolveRef(part, root) as Schema) : {}),
      withoutKey(schema, 'allOf'),
    );
    return valueFor(merged, root, depth + 1, at);
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => t !== 'null') ?? types[0] ?? (isObject(schema.properties) ? 'object' : undefined);
  switch (type) {
    case 'object':
      return objectFor(schema, root, depth, at);
    case 'array': {
      const count = typeof schema.minItems === 'number' ? schema.minItems : 0;
      if (!count) return { ok: true, value: [] };
      const item = valueFor(schema.items ?? {}, root, depth + 1, `${at}/0`);
      return item.ok ? { ok: true, value: Array.from({ length: count }, () => item.value) } : item;
    }
    case 'string':
      return stringFor(schema, where);
    case 'integer':
    case 'number':
      return { ok: true, value: numberFor(schema, type === 'integer') };
    case 'boolean':
      return { ok: true, value: false };
    case 'null':
      return { ok: true, value: null };
    default:
      return { ok: false, reason: `${where} has no type, example or default to build a value from` };
  }
}

function objectFor(schema: Schema, root: Schema, depth: number, at: string): Built {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
  const value: Record<string, unknown> = {};
  for (const name of required) {
    const built = valueFor((memberOf(properties, name) as Schema | undefined) ?? {}, root, depth + 1, `${at}/${name}`);
    if (!built.ok) return built;
    setMember(value, name, built.value);
  }
  return { ok: true, value };
}

function stringFor(schema: Schema, where: string): Built {
  if (typeof schema.format === 'string' && FORMATS[schema.format]) return { ok: true, value: FORMATS[schema.format] };
  if (typeof schema.pattern === 'string') return { ok: false, reason: `${where} must match /${schema.pattern}/ and has no example` };
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  let value = 'example';
  while (value.length < min) value += 'x';
  return { ok: true, value: value.slice(0, Math.max(min, Math.min(max, value.length))) };
}

function numberFor(schema: Schema, integer: boolean): number {
  const minimum =
    typeof schema.minimum === 'number'
      ? schema.minimum
      : typeof schema.exclusiveMinimum === 'number'
        ? schema.exclusiveMinimum + (integer ? 1 : 0.5)
        : undefined;
  const maximum =
    typeof schema.maximum === 'number'
      ? schema.maximum
      : typeof schema.exclusiveMaximum === 'number'
        ? schema.exclusiveMaximum - (integer ? 1 : 0.5)
        : undefined;
  // 1 when the bounds allow it: a small valid value reads as an id or a count, where the bound of a
  // zod .int() (-9007199254740991) would read as nothing a server holds.
  if ((minimum === undefined || minimum <= 1) && (maximum === undefined || maximum >= 1)) return 1;
  let value = minimum !== undefined && minimum > 1 ? minimum : (maximum ?? 1);
  if (integer) value = minimum !== undefined && minimum > 1 ? Math.ceil(value) : Math.floor(value);
  return value;
}

function withoutKey(schema: Schema, key: string): Schema {
  const { [key]: _dropped, ...rest } = schema;
  return rest;
}

function mergeSchemas(a: Schema, b: Schema): Schema {
  const properties = { ...(isObject(a.properties) ? a.properties : {}), ...(isObject(b.properties) ? b.properties : {}) };
  const required = [...(Array.isArray(a.required) ? a.required : []), ...(Array.isArray(b.required) ? b.required : [])];
  return { ...a, ...b, properties, required: [...new Set(required)] };
}
