import { canonicalJson } from '../contract/canonical.js';
import { ABSENT } from './locations.js';

/** The lists' items in turns (first of each, then second of each, …), so no list's tail comes before another's head. */
export function interleave<T>(lists: T[][]): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let i = 0; i < longest; i++) for (const list of lists) if (i < list.length) out.push(list[i]!);
  return out;
}

/** The values without repeats, the first of each kept; an absent value is one value. */
export function dedupe(values: unknown[]): unknown[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const key = v === ABSENT ? '\u0000absent' : canonicalJson(v);
    return !seen.has(key) && !!seen.add(key);
  });
}
