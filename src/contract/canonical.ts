import { hash } from 'node:crypto';

/** JSON with object keys sorted at every depth, so equal values always serialise to equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const child = (value as Record<string, unknown>)[key];
      if (child !== undefined) sorted[key] = sortKeys(child);
    }
    return sorted;
  }
  return value;
}

const sha256 = (text: string): string => hash('sha256', text, 'hex');

export const canonicalHash = (value: unknown): string => `sha256:${sha256(canonicalJson(value))}`;
