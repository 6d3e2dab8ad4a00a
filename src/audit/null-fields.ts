import { isObject } from '../base/json-object.js';
import { escapeSegment } from '../base/json-pointer.js';
import { MORE_KEYS } from './pagination.js';

/** The null fields of one result: their names, and their places (pointers, `*` for any item of a list). */
interface NullFields {
  fields: string[];
  places: string[];
}

/**
 * Fields null in every object of a list that has at least two, and in the object returned itself
 * (beside any list it holds: the write-ups' own shape), when at least two such fields appear:
 * TypedDict-style output that writes absent optional keys as null. A single nullable field is a
 * value, not a pattern; a next cursor of null says the list ends (pagination.ts), not that a value
 * is absent. `root` is where the data sits in the result: `/structuredContent` or `/text`.
 */
export function nullFields(data: unknown, root: string): NullFields {
  const groups: { at: string; items: Record<string, unknown>[]; own: boolean }[] = [];
  if (Array.isArray(data)) groups.push({ at: `${root}/*`, items: data.filter(isObject), own: false });
  else if (isObject(data)) {
    groups.push({ at: root, items: [data], own: true });
    for (const [key, value] of Object.entries(data))
      if (Array.isArray(value) && value.length >= 2)
        groups.push({ at: `${root}/${escapeSegment(key)}/*`, items: value.filter(isObject), own: false });
  }
  const fields = new Set<string>();
  const places: string[] = [];
  for (const { at, items, own } of groups) {
    if (!items.length) continue;
    const keys = new Set(items.flatMap((i) => Object.keys(i)));
    for (const key of keys) {
      if (own && MORE_KEYS.includes(key)) continue;
      if (!items.every((i) => Object.hasOwn(i, key) && i[key] === null)) continue;
      fields.add(key);
      places.push(`${at}/${escapeSegment(key)}`);
    }
  }
  return fields.size >= 2 ? { fields: [...fields].sort(), places: places.sort() } : { fields: [], places: [] };
}
