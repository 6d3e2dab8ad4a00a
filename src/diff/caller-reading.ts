import type { JsonSchema } from '../contract/types.js';
import { isObject, setMember } from '../base/json-object.js';
import { escapeSegment } from '../base/json-pointer.js';
import { lookup } from './schema-spellings.js';

/** How deep the reading goes: past it, a node is left as served. */
const MAX_CLOSE_DEPTH = 64;

/**
 * The baseline's input schema as a caller reads it, for the witness search (diff/confirm-ask.ts):
 * an object that declares its properties and says nothing of others takes only those. A model
 * shown the schema sends the arguments it declares, so a witness that needs an undeclared argument is no break (README, "Documented
 * policy"; `input-closed` is held for the same reason). A name counts as declared where any
 * subschema at the same place declares it: a branch of an `anyOf` takes, besides its own, the
 * names its parent and its sibling branches declare. Objects that combine subschemas, or say what
 * other names take, are left open. A definition is read as the places that reference it are
 * (`referencePlaces`): closed only where each of them would close it written inline.
 */
export function declaredOnly(root: JsonSchema): JsonSchema {
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
