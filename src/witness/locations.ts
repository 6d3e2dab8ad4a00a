import { patternSamples } from './pattern-sample.js';
import { mulberry32 } from './prng.js';
import { isObject, type SchemaNode, type SchemaReader } from './reader.js';
import { escapeSegment } from '../base/json-pointer.js';

/**
 * Locations in an instance (paths of property names and item indexes) and edits at one location.
 * An edit copies only along its path, so seeds stay shared and unchanged.
 */
export type Path = string[];
export const ABSENT: unique symbol = Symbol('absent');

export const pathKey = (path: Path): string => path.map(escapeSegment).join('/');

export function valueAt(instance: unknown, path: Path): unknown {
  let here: unknown = instance;
  for (const seg of path) {
    if (Array.isArray(here)) here = /^\d+$/.test(seg) && Number(seg) < here.length ? here[Number(seg)] : ABSENT;
    else if (isObject(here) && Object.hasOwn(here, seg)) here = here[seg];
    else return ABSENT;
  }
  return here;
}

/** The instance with the value at `path` replaced, added (an index one past the end appends), or deleted (ABSENT). */
export function editAt(instance: unknown, path: Path, value: unknown): unknown {
  if (!path.length) return value;
  const [seg, ...rest] = path as [string, ...string[]];
  if (Array.isArray(instance)) {
    const index = /^\d+$/.test(seg) ? Number(seg) : -1;
    if (index < 0 || index > instance.length || (index === instance.length && rest.length)) return ABSENT;
    const inner = rest.length ? editAt(instance[index], rest, value) : value;
    if (inner === ABSENT && rest.length) return ABSENT;
    const copy = [...instance];
    if (inner === ABSENT) copy.splice(index, 1);
    else copy[index] = inner;
    return copy;
  }
  if (!isObject(instance) || (rest.length && !Object.hasOwn(instance, seg))) return ABSENT;
  const inner = rest.length ? editAt(instance[seg], rest, value) : value;
  if (inner === ABSENT && rest.length) return ABSENT;
  const copy = { ...instance };
  if (inner === ABSENT) delete copy[seg];
  else copy[seg] = inner;
  return copy;
}

/**
 * The subschemas of one schema that may apply at a path, through every branch. The instance tells
 * an array from an object where it has a value on the path; otherwise both readings are taken.
 */
export function schemasAt(reader: SchemaReader, path: Path, instance: unknown): SchemaNode[] {
  let nodes: SchemaNode[] = [reader.root];
  let here: unknown = instance;
  for (const seg of path) {
    const spread = reader.spread(nodes);
    const index = /^\d+$/.test(seg) ? Number(seg) : -1;
    const asArray = index >= 0 && !isObject(here) ? [...reader.itemSchemas(spread, index), ...containsOf(spread)] : [];
    const asObject = Array.isArray(here) ? [] : reader.propertySchemas(spread, seg);
    nodes = [...new Set([...asArray, ...asObject])];
    if (!nodes.length || reader.work.spent) return [];
    here = here === ABSENT ? ABSENT : valueAt(here, [seg]);
  }
  return reader.spread(nodes);
}

const containsOf = (nodes: SchemaNode[]): SchemaNode[] =>
  nodes.filter(isObject).flatMap((n) => (n.contains !== undefined ? [n.contains as SchemaNode] : []));

/** A short and a long property name for each `patternProperties` pattern (fixed by the pattern: no randomness drawn). */
const patternKeys = (n: Record<string, unknown>): string[] =>
  Object.keys(isObject(n.patternProperties) ? n.patternProperties : {}).flatMap((p) => patternSamples(p, mulberry32(0), 2));

/** Every location present in the instance, breadth-first, root first; at most `limit`. */
export function presentPaths(instance: unknown, limit: number): Path[] {
  const out: Path[] = [];
  const queue: [Path, unknown][] = [[[], instance]];
  while (queue.length && out.length < limit) {
    const [path, value] = queue.shift()!;
    out.push(path);
    if (Array.isArray(value)) value.forEach((v, i) => queue.push([[...path, String(i)], v]));
    else if (isObject(value)) for (const [k, v] of Object.entries(value)) queue.push([[...path, k], v]);
  }
  return out;
}

/** Locations a schema names under an object of the instance that the instance leaves out, and one past each array. */
export function absentPaths(readers: SchemaReader[], instance: unknown, present: Path[]): Path[] {
  const out: Path[] = [];
  for (const path of present) {
    const value = valueAt(instance, path);
    if (Array.isArray(value)) out.push([...path, String(value.length)]);
    if (!isObject(value)) continue;
    for (const reader of readers) {
      const nodes = reader.spread(schemasAt(reader, path, instance));
      for (const n of nodes.filter(isObject)) {
        const declared = [
          ...Object.keys(isObject(n.properties) ? n.properties : {}),
          ...(Array.isArray(n.required) ? (n.required as string[]) : []),
        ];
        for (const key of [...declared, ...patternKeys(n)]) if (!Object.hasOwn(value, key)) out.push([...path, key]);
      }
    }
  }
  const seen = new Set<string>();
  return out.filter((p) => !seen.has(pathKey(p)) && !!seen.add(pathKey(p)));
}
