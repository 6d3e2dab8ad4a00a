import { describe, expect, it } from 'vitest';
import { collectSignals } from '../../src/decide/signals.js';
import { decide } from '../../src/decide/decide.js';
import { diffContracts } from '../../src/diff/index.js';
import { buildContract } from '../../src/contract/normalize.js';
import { initializeHint } from '../../src/connect/protocol-versions.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

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

  it('a revision name without a date cannot be ordered, so it counts as going down', () => {
    expect(changes('2025-11-25', 'next')).toEqual([['protocol-version-changed', 'dangerous', '2025-11-25', 'next']]);
  });
});

describe('initialize failures that mean another protocol revision', () => {
  it('names an unsupported version, and the 2026 revision when it is one', () => {
    const hint = initializeHint(new Error("Server's protocol version is not supported: DRAFT-2026-v1"))!;
    expect(hint).toContain('"DRAFT-2026-v1"');
    expect(hint).toContain('2025-11-25, 2025-06-18');
    expect(hint).toContain('only the 2026 revision');
    expect(initializeHint(new Error("Server's protocol version is not supported: 1999-01-01"))).not.toContain('2026');
  });

  it('reads "method not found" for initialize as a server without the handshake', () => {
    expect(initializeHint(new McpError(ErrorCode.MethodNotFound, 'Method not found: initialize'))).toContain(
      'drops the initialize handshake',
    );
    expect(initializeHint(new McpError(ErrorCode.InternalError, 'boom'))).toBeNull();
    expect(initializeHint(new Error('Request timed out'))).toBeNull();
  });
});
