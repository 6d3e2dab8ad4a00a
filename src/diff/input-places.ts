import { unescapeSegment } from '../base/json-pointer.js';
import { isObject, memberOf } from '../base/json-object.js';
import type { SchemaWork } from '../contract/schema-work.js';

/**
 * One argument (or a field inside one) of a tool's input schema, as a caller reads it: what the
 * branches of an `anyOf`, `oneOf` or `allOf` and the local `$ref`s say about the same place, taken
 * together. The rules about new options (diff/new-options.ts) read places, not the schema walk: they
 * ask what a caller can newly send, by name and by what the text says of it.
 */
export interface InputPlace {
  /** Pointer segments from the tool: `['inputSchema', 'properties', 'action']`. */
  at: string[];
  /** The property's name; '' for the schema's root and for array items. */
  name: string;
  /** The string values an `enum` or `const` lists at this place. */
  values: Set<string>;
  /** The JSON types declared at this place. */
  types: Set<string>;
  descriptions: string[];
}

/** Enough for any real tool; a hostile schema stops being read here, and nothing past it is new. */
const MAX_NODES = 10_000;
const MAX_DEPTH = 32;

function resolve(root: Record<string, unknown>, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const segment of ref.slice(2).split('/')) node = isObject(node) ? memberOf(node, unescapeSegment(segment)) : undefined;
  return node;
}

/** The places of an input schema, keyed by their segments; the nodes read count against the run's schema budget (`work`). */
export function inputPlaces(schema: unknown, work?: SchemaWork): Map<string, InputPlace> {
  const places = new Map<string, InputPlace>();
  if (!isObject(schema)) return places;
  let nodes = 0;
  const visit = (node: unknown, at: string[], name: string, depth: number, refs: ReadonlySet<string>) => {
    if (!isObject(node) || depth > MAX_DEPTH || ++nodes > MAX_NODES) return;
    // A key only: the change is placed from `at` (cheaper than escaping a pointer per node).
    const key = at.join('\u0000');
    const place = places.get(key) ?? { at, name, values: new Set(), types: new Set(), descriptions: [] };
    places.set(key, place);
    const ref = memberOf(node, '$ref');
    if (typeof ref === 'string' && !refs.has(ref)) visit(resolve(schema, ref), at, name, depth + 1, new Set([...refs, ref]));
    const type = memberOf(node, 'type');
    for (const t of Array.isArray(type) ? type : [type]) if (typeof t === 'string') place.types.add(t);
    const listed = memberOf(node, 'enum');
    for (const value of [...(Array.isArray(listed) ? listed : []), memberOf(node, 'const')])
      if (typeof value === 'string') place.values.add(value);
    const description = memberOf(node, 'description');
    if (typeof description === 'string') place.descriptions.push(description);
    const properties = memberOf(node, 'properties');
    if (isObject(properties))
      for (const [child, sub] of Object.entries(properties)) visit(sub, [...at, 'properties', child], child, depth + 1, refs);
    visit(memberOf(node, 'items'), [...at, 'items'], '', depth + 1, refs);
    for (const keyword of ['anyOf', 'oneOf', 'allOf']) {
      const branches = memberOf(node, keyword);
      if (Array.isArray(branches)) for (const branch of branches) visit(branch, at, name, depth + 1, refs);
    }
  };
  visit(schema, ['inputSchema'], '', 0, new Set());
  work?.count(Math.min(nodes, MAX_NODES));
  return places;
}
