import { hash } from 'node:crypto';
import { setMember } from '../base/json-object.js';

/** JSON with object keys sorted at every depth, so equal values always serialise to equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

export const sortKeys = (value: unknown): unknown => sortWithin(value, 1, Infinity);

const TOO_DEEP = Symbol('nested past the limit');

/**
 * `canonicalJson` of a value whose objects and arrays nest at most `limit` levels (the root is the
 * first, as `depthOf` counts them), or null for a deeper one: one walk both measures a tool
 * definition and sorts it, where a measure first would walk it twice. Never more than `limit`
 * frames deep.
 */
export function canonicalJsonWithin(value: unknown, limit: number): string | null {
  try {
    return JSON.stringify(sortWithin(value, 1, limit));
  } catch (error) {
    if (error === TOO_DEEP) return null;
    throw error;
  }
}

/** The value with every object's keys sorted, undefined values left out; TOO_DEEP past `limit` levels. */
function sortWithin(value: unknown, level: number, limit: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (level > limit) throw TOO_DEEP;
  if (Array.isArray(value)) return value.map((item) => sortWithin(item, level + 1, limit));
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const child = (value as Record<string, unknown>)[key];
    if (child === undefined) continue;
    // A plain store on the hot path; `__proto__` needs setMember, or it would set the prototype.
    if (key === '__proto__') setMember(sorted, key, sortWithin(child, level + 1, limit));
    else sorted[key] = sortWithin(child, level + 1, limit);
  }
  return sorted;
}

const sha256 = (text: string): string => hash('sha256', text, 'hex');

/** The hash of a canonical JSON text already made (`canonicalJson`, `canonicalJsonWithin`). */
export const hashOfCanonical = (text: string): string => `sha256:${sha256(text)}`;

export const canonicalHash = (value: unknown): string => hashOfCanonical(canonicalJson(value));
