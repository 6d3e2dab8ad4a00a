import type { JsonSchema } from '../contract/types.js';
import { unescapeSegment } from '../base/json-pointer.js';
import type { Dialect } from '../witness/judge.js';
import { isObject, valueKey } from './schema-keywords.js';

/** A JSON pointer into the document: `#`, `#/$defs/Name`, `#/properties/a`. */
export function lookup(root: JsonSchema, ref: string): unknown {
  let target: unknown = root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const key = unescapeSegment(decodeURIComponent(raw));
    if (Array.isArray(target) && /^\d+$/.test(key)) target = target[Number(key)];
    else target = isObject(target) && Object.hasOwn(target, key) ? target[key] : undefined;
  }
  return target;
}

/**
 * Older spellings of the same assertions, rewritten to 2020-12. Under draft-04 to draft-07 the
 * `unevaluated*` keywords do not exist (ajv's class for those drafts, as the SDK runs it, ignores
 * them), so they assert nothing there.
 */
export function spellings(input: JsonSchema, dialect: Dialect): JsonSchema {
  const s = { ...input };
  if (dialect === 'draft-04' || dialect === 'draft-07') {
    delete s.unevaluatedItems;
    delete s.unevaluatedProperties;
  }
  for (const [bound, exclusive] of [
    ['minimum', 'exclusiveMinimum'],
    ['maximum', 'exclusiveMaximum'],
  ] as const) {
    if (s[exclusive] === true && typeof s[bound] === 'number') {
      s[exclusive] = s[bound];
      delete s[bound];
    } else if (typeof s[exclusive] === 'boolean') {
      delete s[exclusive];
    }
  }
  if (Array.isArray(s.items)) {
    s.prefixItems = s.items;
    if ('additionalItems' in s) s.items = s.additionalItems;
    else delete s.items;
  }
  delete s.additionalItems;
  if (isObject(s.dependencies)) {
    const required: Record<string, unknown> = { ...(isObject(s.dependentRequired) ? s.dependentRequired : {}) };
    const schemas: Record<string, unknown> = { ...(isObject(s.dependentSchemas) ? s.dependentSchemas : {}) };
    for (const [name, value] of Object.entries(s.dependencies)) (Array.isArray(value) ? required : schemas)[name] = value;
    delete s.dependencies;
    if (Object.keys(required).length) s.dependentRequired = required;
    if (Object.keys(schemas).length) s.dependentSchemas = schemas;
  }
  if ('const' in s) {
    s.enum = Array.isArray(s.enum) ? s.enum.filter((v) => valueKey(v) === valueKey(s.const)) : [s.const];
    delete s.const;
  }
  if (s.nullable === true && (typeof s.type === 'string' || Array.isArray(s.type))) s.type = [...[s.type].flat(), 'null'];
  delete s.nullable;
  return s;
}

/**
 * Whether the gate resolves every reference of the document: each `$ref` a local JSON pointer (`#`,
 * `#/…`), and no `$id`, anchor or dynamic reference that would let a `$ref` reach a definition by
 * another name. Where it does not, a definition no pointer reached may still be reached, and a
 * form that leaves definitions out proves nothing (found in review: `$ref: "#foo"` to a definition
 * with `$anchor: foo`, its type changed, was called calm).
 */
export function resolvesEveryRef(root: JsonSchema): boolean {
  let known = RESOLVED.get(root);
  if (known === undefined) RESOLVED.set(root, (known = localOnly(root, 0)));
  return known;
}
const RESOLVED = new WeakMap<JsonSchema, boolean>();
const ELSEWHERE = new Set(['$id', '$anchor', '$dynamicAnchor', '$dynamicRef', '$recursiveRef', '$recursiveAnchor']);

function localOnly(node: unknown, depth: number): boolean {
  if (depth > 256) return false;
  if (Array.isArray(node)) return node.every((v) => localOnly(v, depth + 1));
  if (!isObject(node)) return true;
  for (const [k, v] of Object.entries(node)) {
    if (ELSEWHERE.has(k)) return false;
    if (k === '$ref' && (typeof v !== 'string' || !(v === '#' || v.startsWith('#/')))) return false;
    if (!localOnly(v, depth + 1)) return false;
  }
  return true;
}
