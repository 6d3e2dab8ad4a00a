import type { ServerIdentity } from '../contract/types.js';
import { strandedClients } from '../findings/codes/run.js';
import { erasDiffer } from '../findings/revision.js';
import type { Change, EraCheck } from '../findings/types.js';
import { change } from './change.js';

const SUBJECT = { kind: 'server', field: 'protocolVersion' } as const;

/**
 * The negotiated revision went up (safe: newer revisions keep what callers used) or down
 * (dangerous: what the baseline negotiated may be gone). A name the gate cannot order counts as down.
 * A move to the other era is dangerous until the candidate is asked for the baseline's revision
 * (withEraCheck).
 */
export function diffProtocolVersion(before: ServerIdentity, after: ServerIdentity): Change[] {
  const [b, a] = [before.protocolVersion, after.protocolVersion];
  if (!b || !a || b === a) return [];
  return [
    change(
      'protocol-version-changed',
      SUBJECT,
      b,
      a,
      erasDiffer(b, a) ? `${capital(strandedClients(b))} can no longer connect.` : undefined,
    ),
  ];
}

/**
 * What the second session at the baseline's revision (contract/era-check.ts) makes of an era move:
 * a candidate that still serves that revision, with the contract the gate judged, strands none of
 * the baseline's clients, so the move is safe (news, never held). Anything else holds as before,
 * saying what was asked and what the candidate answered.
 */
export function withEraCheck(changes: Change[], check: EraCheck | null): Change[] {
  if (!check) return changes;
  return changes.map((c) => {
    if (c.code !== 'protocol-version-changed') return c;
    const made = change(c.code, c.subject, c.before, c.after, eraNote(c.before, check));
    return { ...made, ...(check.outcome === 'served' && { severity: 'safe' as const }), eraCheck: check };
  });
}

function eraNote(before: unknown, { outcome, revision, tried, answer }: EraCheck): string {
  const stranded = capital(strandedClients(before));
  switch (outcome) {
    case 'served':
      return `Clients of the baseline's revision still connect: ${tried}, and the candidate ${answer}.`;
    case 'not-served':
      return `${stranded} can no longer connect: ${tried}, and the candidate ${answer}.`;
    case 'differs':
      return `${stranded} still connect, but to another contract than the one judged here: ${tried}, and the candidate ${answer}.`;
    case 'not-checked':
      return `${stranded} can no longer connect, as far as the revisions tell (the candidate was not asked for ${revision}: ${answer}).`;
  }
}

const capital = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}`;
