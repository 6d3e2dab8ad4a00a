import { canonicalHash } from '../contract/canonical.js';
import { changeMeta, severityOf, type ChangeCode } from '../findings/codes.js';
import { pathOf, toolOf, type Subject } from '../findings/subject.js';
import type { Change } from '../findings/types.js';

/**
 * Builds a Change, the only way changes are made: the severity and the message's first sentence come
 * from the code's facts (findings/codes), the tool and path from the subject; `note` is what this
 * occurrence adds (why, which rule decided, the word diff).
 */
export function change(code: ChangeCode, subject: Subject, before: unknown, after: unknown, note?: string): Change {
  const facts = { subject, before: before ?? null, after: after ?? null };
  const base = {
    code,
    severity: severityOf(code, facts),
    subject,
    tool: toolOf(subject),
    path: pathOf(subject),
    before: facts.before,
    after: facts.after,
  };
  const message = [changeMeta(code).message(facts), note].filter(Boolean).join(' ');
  return { ...base, message, fingerprint: fingerprintOf(base) };
}

/** A change at a place in a tool's definition (`at` the pointer's segments). */
export const toolChange = (code: ChangeCode, tool: string, at: readonly string[], before: unknown, after: unknown, note?: string): Change =>
  change(code, { kind: 'tool', tool, at }, before, after, note);

const fingerprintOf = (c: Pick<Change, 'code' | 'tool' | 'path' | 'before' | 'after'>): string =>
  canonicalHash([c.code, c.tool, c.path, c.before ?? null, c.after ?? null]).slice('sha256:'.length, 'sha256:'.length + 16);

export { pointer } from '../findings/subject.js';
