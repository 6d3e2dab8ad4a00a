import { canonicalHash } from '../contract/canonical.js';
import type { Code, Severity } from '../findings/codes.js';
import type { Change } from '../findings/types.js';
import { changeMessage } from './messages.js';

/** Builds a Change with its message and fingerprint, the only way changes are made. */
export function change(
  code: Code,
  severity: Severity,
  tool: string | null,
  path: string,
  before: unknown,
  after: unknown,
  note?: string,
): Change {
  const base = { code, severity, tool, path, before: before ?? null, after: after ?? null };
  const message = [changeMessage(base), note].filter(Boolean).join(' ');
  return { ...base, message, fingerprint: fingerprintOf(base) };
}

const fingerprintOf = (c: Pick<Change, 'code' | 'tool' | 'path' | 'before' | 'after'>): string =>
  canonicalHash([c.code, c.tool, c.path, c.before ?? null, c.after ?? null]).slice('sha256:'.length, 'sha256:'.length + 16);

/** RFC 6901 escaping for one pointer segment. */
export const pointer = (...segments: (string | number)[]): string =>
  segments.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
