import { canonicalHash, canonicalJson } from '../contract/canonical.js';

/** The longest field value a change carries whole (canonical JSON characters); past it, its digest. */
const MAX_SHOWN = 500;

/**
 * A field of a tool definition as a change carries it in `before` and `after`: the value itself when
 * it is short, else its size and digest. Icons hold data URIs and `_meta` whole documents: the report
 * says that they changed, and the snapshots keep what they were.
 */
export function fieldValue(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  const text = canonicalJson(value);
  return text.length <= MAX_SHOWN ? value : { characters: text.length, digest: canonicalHash(value) };
}

/** Whether two field values are the same JSON, whatever the order of their keys. */
export const sameValue = (a: unknown, b: unknown): boolean => canonicalJson(a ?? null) === canonicalJson(b ?? null);
