import { describe, expect, it } from 'vitest';
import { collectSignals } from '../../src/decide/signals.js';
import { decide } from '../../src/decide/decide.js';
import { diffContracts } from '../../src/diff/index.js';
import { withEraCheck } from '../../src/diff/protocol.js';
import type { EraCheck } from '../../src/findings/types.js';
import { buildContract } from '../../src/contract/normalize.js';
import { initializeHint } from '../../src/connect/protocol-versions.js';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import { eraOf } from '../../src/findings/revision.js';

const contract = (protocolVersion: string | null) =>
  buildContract({ name: 't', version: '1', protocolVersion, instructions: null }, [], { pages: 1, durationMs: 0, errors: [] });
const changes = (before: string | null, after: string | null) =>
  diffContracts(contract(before), contract(after)).map((c) => [c.code, c.severity, c.before, c.after]);
const verdict = (before: string, after: string, rules = {}) =>
  decide(
    collectSignals(diffContracts(contract(before), contract(after)), [], []),
    { rules, maxNewDestructiveTools: 0, maxBrokenCases: 0, exceptions: [] },
    '2026-01-01',
  );

describe('protocol-version-changed', () => {
  it('is silent when the version is the same or unknown on a side', () => {
    expect(changes('2025-06-18', '2025-06-18')).toEqual([]);
    expect(changes(null, '2025-06-18')).toEqual([]);
    expect(changes('2025-06-18', null)).toEqual([]);
  });

  it('going up is safe and moves no verdict', () => {
    expect(changes('2025-06-18', '2025-11-25')).toEqual([['protocol-version-changed', 'safe', '2025-06-18', '2025-11-25']]);
    expect(verdict('2025-06-18', '2025-11-25')).toMatchObject({ verdict: 'Promote', reasons: [] });
    // A draft of a later year is newer than every dated revision before it.
    expect(changes('2025-11-25', 'DRAFT-2026-v1')).toEqual([['protocol-version-changed', 'safe', '2025-11-25', 'DRAFT-2026-v1']]);
  });

  it('going down is dangerous and holds; rules can make it roll back or be ignored', () => {
    expect(changes('2025-11-25', '2024-11-05')).toEqual([['protocol-version-changed', 'dangerous', '2025-11-25', '2024-11-05']]);
    expect(verdict('2025-11-25', '2024-11-05').reasons.map((r) => [r.code, r.action, r.count])).toEqual([
      ['protocol-version-changed', 'hold', 1],
    ]);
    expect(verdict('2025-11-25', '2024-11-05', { 'protocol-version-changed': 'rollback' }).verdict).toBe('Rollback');
    expect(verdict('2025-11-25', '2024-11-05', { 'protocol-version-changed': 'ignore' }).verdict).toBe('Promote');
  });

  it('a move across eras is dangerous and holds, in either direction, and its message names both eras', () => {
    expect(changes('2025-11-25', '2026-07-28')).toEqual([['protocol-version-changed', 'dangerous', '2025-11-25', '2026-07-28']]);
    expect(changes('2026-07-28', '2025-06-18')).toEqual([['protocol-version-changed', 'dangerous', '2026-07-28', '2025-06-18']]);
    expect(verdict('2025-11-25', '2026-07-28').reasons.map((r) => [r.code, r.action])).toEqual([['protocol-version-changed', 'hold']]);
    const [up] = diffContracts(contract('2025-11-25'), contract('2026-07-28'));
    expect(up!.message).toBe(
      'Negotiated protocol version changed from "2025-11-25" to "2026-07-28" (an era change: from the 2025 era (an `initialize` handshake opens a session) to the 2026 era (stateless, `server/discover`)). Clients that speak only the 2025 revisions can no longer connect.',
    );
    // Within the modern era, going up is an upgrade like any other.
    expect(changes('2026-07-28', '2027-01-01')).toEqual([['protocol-version-changed', 'safe', '2026-07-28', '2027-01-01']]);
  });

  it("an era move the candidate still serves at the baseline's revision is safe; any other answer holds, saying what was asked", () => {
    const across = diffContracts(contract('2025-11-25'), contract('2026-07-28'));
    const tried = 'a second session sent initialize, offering 2025-11-25';
    const checked = (outcome: EraCheck['outcome'], answer: string) => {
      const changed = withEraCheck(across, { outcome, revision: '2025-11-25', tried, answer });
      const decided = decide(
        collectSignals(changed, [], []),
        { rules: {}, maxNewDestructiveTools: 0, maxBrokenCases: 0, exceptions: [] },
        '2026-01-01',
      );
      return { change: changed[0]!, verdict: decided.verdict };
    };
    const served = checked('served', 'answered 2025-11-25 and listed the same contract (2 tools)');
    expect([served.change.severity, served.verdict, served.change.eraCheck?.outcome]).toEqual(['safe', 'Promote', 'served']);
    expect(served.change.message).toContain(
      "Clients of the baseline's revision still connect: a second session sent initialize, offering 2025-11-25, and the candidate answered 2025-11-25 and listed the same contract (2 tools).",
    );
    // The fingerprint is the change's, whatever the check found: an exception given before still matches.
    expect(served.change.fingerprint).toBe(across[0]!.fingerprint);
    for (const outcome of ['not-served', 'differs', 'not-checked'] as const) {
      const held = checked(outcome, 'refused it');
      expect([outcome, held.change.severity, held.verdict]).toEqual([outcome, 'dangerous', 'Hold']);
    }
    expect(withEraCheck(across, null)).toBe(across);
  });

  it('eras: dated revisions from 2026-07-28 are modern, earlier ones legacy, other names unknown', () => {
    expect(['2024-11-05', '2025-11-25', '2026-07-28', '2027-03-01', 'DRAFT-2026-v1', null].map(eraOf)).toEqual([
      'legacy',
      'legacy',
      'modern',
      'modern',
      null,
      null,
    ]);
  });

  it('a revision name without a date cannot be ordered, so it counts as going down', () => {
    expect(changes('2025-11-25', 'next')).toEqual([['protocol-version-changed', 'dangerous', '2025-11-25', 'next']]);
  });
});

describe('connect failures that mean another protocol revision', () => {
  it('names an unsupported version and the revisions the gate speaks, both eras', () => {
    const hint = initializeHint(new Error("Server's protocol version is not supported: DRAFT-2026-v1"))!;
    expect(hint).toContain('"DRAFT-2026-v1"');
    expect(hint).toContain('2026-07-28, 2025-11-25, 2025-06-18');
  });

  it('reads "method not found" as a server with neither server/discover nor initialize', () => {
    expect(initializeHint(new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found'))).toContain(
      'implements neither server/discover (the 2026-07-28 revision) nor initialize',
    );
    expect(initializeHint(new ProtocolError(ProtocolErrorCode.InternalError, 'boom'))).toBeNull();
    expect(initializeHint(new Error('Request timed out'))).toBeNull();
  });
});
