import { describe, expect, it } from 'vitest';
import { SideUnavailableError } from '../../src/connect/errors.js';
import { judgeAnswers, readAnswer } from '../../src/cases/witness-answers.js';
import { applyLive } from '../../src/diff/confirm-live.js';
import { withWitness } from '../../src/diff/confirm-words.js';
import { toolChange } from '../../src/diff/change.js';
import { collectSignals } from '../../src/decide/signals.js';
import { decide } from '../../src/decide/decide.js';
import type { LiveCheck } from '../../src/findings/types.js';

/**
 * How the gate reads a server's answer to a witness (cases/witness-answers.ts), and what the
 * answers make of a break (diff/confirm-live.ts, decide/signals.ts). The servers themselves are in
 * test/integration/witness-live.test.ts.
 */
const result = (text: string, isError = false) =>
  readAnswer({ ok: true, response: { result: { content: [{ type: 'text', text }], ...(isError && { isError }) }, durationMs: 1 } });
const thrown = (error: unknown) => readAnswer({ ok: false, error });

describe('reading an answer', () => {
  it('an input validation error, as each kind of server words it', () => {
    for (const text of [
      'MCP error -32602: Input validation error: Invalid arguments for tool t: Required at q',
      'Error executing tool t: 1 validation error for tArguments\nq\n  Field required',
      "must have required property 'q'",
      "'q' is a required property",
      'Missing required argument: q',
      // zod 4 inside a handler, which the server reports as -32603 (@zereight/mcp-gitlab 2.1.64).
      'MCP error -32603: Invalid arguments: project_id: Invalid input: expected nonoptional, received undefined',
    ])
      expect(result(text, true), text).toMatchObject({ kind: 'error', validation: true });
  });

  it('an undeclared argument refused, as each validator words it: validation, flagged or written as data', () => {
    for (const text of [
      'Input validation error: Invalid arguments for tool docs: Unrecognized key: "mcp_gate_undeclared"',
      'data must NOT have additional properties',
      "Additional properties are not allowed ('mcp_gate_undeclared' was unexpected)",
      "search() got an unexpected keyword argument 'mcp_gate_undeclared'",
      '1 validation error: mcp_gate_undeclared Extra inputs are not permitted',
    ]) {
      expect(result(text, true), text).toMatchObject({ kind: 'error', validation: true });
      expect(result(text), text).toMatchObject({ kind: 'result', validation: true });
    }
  });
  it('an error for another reason is not validation: no browser, a dummy key, a crash in the handler', () => {
    for (const text of ['no browser: Chrome is not installed', 'Invalid API key', 'TypeError: cannot read properties of undefined'])
      expect(result(text, true).validation, text).toBeUndefined();
  });

  it('an error written as data (isError left out) is marked: it refutes nothing, and is no baseline answer', () => {
    const data = result('Input validation error: Required at q');
    expect(data).toMatchObject({ kind: 'result', validation: true });
    expect(judgeAnswers(data, null).outcome).toBe('unconfirmed');
    expect(judgeAnswers({ kind: 'error', validation: true, text: 'Input validation error' }, data).outcome).toBe('unconfirmed');
  });

  it('a JSON-RPC error -32602 is validation; a timeout or an exit is no answer', () => {
    expect(
      thrown(new SideUnavailableError('candidate', 'tools/call', 'MCP error -32602: Invalid params', '', false, -32602)),
    ).toMatchObject({
      kind: 'error',
      validation: true,
    });
    expect(thrown(new SideUnavailableError('candidate', 'tools/call', 'MCP error -32603: boom', '', false, -32603))).toEqual({
      kind: 'error',
      text: 'MCP error -32603: boom',
    });
    expect(
      thrown(new SideUnavailableError('candidate', 'tools/call', 'tools/call timed out (timeouts.requestMs)', '', true, -32001)).kind,
    ).toBe('failed');
    expect(thrown(new SideUnavailableError('candidate', 'tools/call', 'Connection closed (server exited with code 1)')).kind).toBe(
      'failed',
    );
    const closed = new SideUnavailableError('candidate', 'tools/call', 'MCP error -32000: Connection closed', '', false, -32000);
    expect(thrown(closed).kind).toBe('failed');
  });

  it('an answer over the byte cap is no answer; a result with structuredContent only is shown as its JSON', () => {
    expect(readAnswer({ ok: true, response: { result: undefined, durationMs: 1, droppedBytes: 9_000_000 } }).kind).toBe('failed');
    expect(readAnswer({ ok: true, response: { result: { content: [], structuredContent: { n: 1 } }, durationMs: 1 } })).toEqual({
      kind: 'result',
      text: '{"n":1}',
    });
  });

  it('the text is made inert, then bounded', () => {
    const answer = result(`\u001b]8;;https://x\u0007${'a'.repeat(1000)}`, true);
    expect(answer.text).not.toContain('\u001b');
    expect(answer.text!.startsWith('\\u{1B}]8;;https://x\\u{07}')).toBe(true);
    expect(answer.text!.length).toBe(301);
  });
});

describe('judging the answers', () => {
  const ok = { kind: 'result', text: 'fine' } as const;
  const invalid = { kind: 'error', validation: true, text: 'Input validation error' } as const;
  const other = { kind: 'error', text: 'no browser' } as const;
  it('refuted only by a candidate that answers without an error', () => {
    expect(judgeAnswers(ok, other).outcome).toBe('refuted');
    expect(judgeAnswers(ok, null).outcome).toBe('refuted');
    expect(judgeAnswers(other, ok).outcome).toBe('unconfirmed');
    // A baseline that failed at its work (a network error) refused nothing, yet shows no call that worked.
    const refused = { kind: 'error' as const, validation: true as const, text: 'Invalid arguments: q' };
    const failedAtWork = { kind: 'error' as const, text: 'request to https://gitlab.com/api/v4/projects/undefined failed' };
    expect(judgeAnswers(refused, failedAtWork)).toMatchObject({
      outcome: 'unconfirmed',
      note: expect.stringContaining('with an error too'),
    });
    expect(judgeAnswers(refused, refused)).toMatchObject({ outcome: 'unconfirmed', note: 'the baseline refused the same call too' });
    expect(judgeAnswers({ kind: 'failed', text: 'timed out' }, ok).outcome).toBe('unconfirmed');
  });
  it('the same failure past the input on both sides: the candidate took the arguments (@qase/mcp-server 2.6.0)', () => {
    const offline = { kind: 'error', text: 'getaddrinfo ENOTFOUND api.qase.io' } as const;
    expect(judgeAnswers(offline, offline)).toMatchObject({ outcome: 'same-failure' });
    // Another error on the baseline, an error that reads as validation, or none at all: unconfirmed.
    expect(judgeAnswers(offline, { kind: 'error', text: 'getaddrinfo ENOTFOUND other.host' }).outcome).toBe('unconfirmed');
    expect(judgeAnswers(offline, null).outcome).toBe('unconfirmed');
    expect(judgeAnswers({ kind: 'error', text: '' }, { kind: 'error', text: '' }).outcome).toBe('unconfirmed');
    // A server that words it itself (@respira/wordpress-mcp-server 8.3.24).
    const unreachable = { kind: 'error', text: 'Could not connect to https://example.invalid. DNS lookup failed.' } as const;
    expect(judgeAnswers(unreachable, unreachable).outcome).toBe('same-failure');
    // The baseline writing the same failure as data, without isError (@mrfentmen/opensearch-mcp 1.0.1); the report keeps no text of its result.
    const asData = { kind: 'result', text: 'Health error: fetch failed' } as const;
    expect(judgeAnswers({ kind: 'error', text: 'Health error: fetch failed' }, asData)).toMatchObject({
      outcome: 'same-failure',
      baseline: { kind: 'result' },
    });
    expect(judgeAnswers({ kind: 'error', text: 'Health error: fetch failed' }, asData).baseline).not.toHaveProperty('text');
    expect(judgeAnswers({ kind: 'error', text: 'Health error: fetch failed' }, { kind: 'result', text: '3 nodes' }).outcome).toBe(
      'unconfirmed',
    );
    // A missing browser may be checked before the arguments are: the same text shows nothing.
    const noBrowser = { kind: 'error', text: 'no browser: Chrome is not installed on this machine' } as const;
    expect(judgeAnswers(noBrowser, noBrowser).outcome).toBe('unconfirmed');
  });
  it('confirmed only when the candidate refused it as input and the baseline answered it', () => {
    expect(judgeAnswers(invalid, ok).outcome).toBe('confirmed');
    expect(judgeAnswers(invalid, other)).toMatchObject({ outcome: 'unconfirmed', note: expect.stringContaining('with an error too') });
    expect(judgeAnswers(invalid, null)).toMatchObject({
      outcome: 'unconfirmed',
      note: 'no live baseline to show it accepted the same call',
    });
  });
});

describe('what a live check makes of a break', () => {
  const found = {
    kind: 'found',
    instance: { q: 'x' },
    refusal: "must have required property 'n'",
    at: '',
    keyword: 'required',
    tried: 3,
  } as const;
  const decided = (live: LiveCheck, code: 'required-argument-added' | 'required-argument-added-with-default', argument = 'n') => {
    const before = toolChange(code, 'T', ['inputSchema', 'properties', argument], 'optional', 'required');
    const [change] = applyLive(
      [withWitness(before, 'input', { ...found, ...(argument !== 'n' && { instance: {} }) })],
      new Map([[0, live]]),
    );
    const verdict = decide(
      collectSignals([change!], [], []),
      { rules: {}, maxNewDestructiveTools: 0, maxBrokenCases: 0, exceptions: [] },
      '2026-11-28',
    ).verdict;
    return { change: change!, verdict };
  };
  const answered = { kind: 'result', text: 'ok' } as const;
  const refused = { kind: 'error', validation: true, text: 'Input validation error' } as const;

  it('a break the candidate answered live is held, not rolled back', () => {
    expect(decided({ outcome: 'unconfirmed', note: 'x' }, 'required-argument-added').verdict).toBe('Rollback');
    const { change, verdict } = decided({ outcome: 'refuted', candidate: answered }, 'required-argument-added');
    expect([change.severity, verdict]).toEqual(['dangerous', 'Hold']);
  });

  it('a break the baseline refused live too, over the same argument, is held: no call that worked is shown (context-mode 1.0.131)', () => {
    const over = (text: string) => ({ kind: 'error', validation: true, text }) as const;
    const both = (baseline: string): LiveCheck => ({
      outcome: 'unconfirmed',
      note: 'the baseline refused the same call too',
      candidate: refused,
      baseline: over(baseline),
    });
    // The argument is `n`: too short a name to find in a sentence, so the break stands.
    expect(decided(both('n: Required'), 'required-argument-added').verdict).toBe('Rollback');
    const named = (baseline: string) => decided(both(baseline), 'required-argument-added', 'confirm');
    const { change, verdict } = named('Invalid arguments for tool ctx_purge: [{"path": ["confirm"], "message": "Required"}]');
    expect([change.severity, change.witness!.live!.outcome, verdict]).toEqual(['dangerous', 'already-refused', 'Hold']);
    expect(change.message).toContain('Not a break live: the baseline refused this call as invalid input too');
    expect(change.message).not.toContain('was accepted and is now refused');
    // Refused over another argument, or a longer name that only contains it: the break stands.
    expect(named('Invalid arguments: [{"path": ["scope"], "message": "Required"}]').verdict).toBe('Rollback');
    expect(named('Invalid arguments: [{"path": ["confirmation"]}]').verdict).toBe('Rollback');
  });

  it('a break both sides took live, failing at the same work, is held, not rolled back', () => {
    const offline = { kind: 'error', text: 'getaddrinfo ENOTFOUND api.qase.io' } as const;
    const { change, verdict } = decided({ outcome: 'same-failure', candidate: offline, baseline: offline }, 'required-argument-added');
    expect([change.severity, verdict]).toEqual(['dangerous', 'Hold']);
    expect(change.message).toContain('Not refused live: both sides took this call and failed at the same work');
  });

  it('a dropped default that both sides still use: held only where the same error names it (ssh-mcp-server-secured 1.0.20)', () => {
    const at = ['inputSchema', 'properties', 'connectionId'];
    const judged = (live: LiveCheck, oldDefault: unknown = 'default', instance: Record<string, unknown> = { command: 'x' }) => {
      const required = withWitness(toolChange('required-argument-added', 'ssh_execute', at, 'optional', 'required'), 'input', {
        ...found,
        instance,
        refusal: "must have required property 'connectionId'",
      });
      const dropped = toolChange('input-default-changed', 'ssh_execute', [...at, 'default'], oldDefault, null);
      const changes = applyLive([required, dropped], new Map([[0, live]]));
      const verdict = decide(
        collectSignals(changes, [], []),
        { rules: {}, maxNewDestructiveTools: 0, maxBrokenCases: 0, exceptions: [] },
        '2026-12-02',
      ).verdict;
      return { change: changes[0]!, verdict };
    };
    const error = (text: string) => ({ kind: 'error', text }) as const;
    const same = (text: string): LiveCheck => ({ outcome: 'unconfirmed', note: 'x', candidate: error(text), baseline: error(text) });
    const { change, verdict } = judged(same('No connection: default'));
    expect([change.severity, change.witness!.live!.outcome, verdict]).toEqual(['dangerous', 'default-kept', 'Hold']);
    expect(change.message).toContain('which names "default", the default the baseline declared for it: the candidate still fills it in');
    // A key checked first names no default; a default inside a longer word is not it.
    expect(judged(same('Invalid API key')).verdict).toBe('Rollback');
    expect(judged(same('No connection: defaults')).verdict).toBe('Rollback');
    // Different errors, a validation error, a call that sends the argument, a default too short or not a string.
    expect(
      judged({ outcome: 'unconfirmed', note: 'x', candidate: error('No connection: default'), baseline: error('No connection: default.') })
        .verdict,
    ).toBe('Rollback');
    expect(
      judged({ ...same('No connection: default'), candidate: { kind: 'error', validation: true, text: 'No connection: default' } }).verdict,
    ).toBe('Rollback');
    expect(judged(same('No connection: default'), 'default', { command: 'x', connectionId: 'a' }).verdict).toBe('Rollback');
    expect(judged(same('No connection: 10'), '10').verdict).toBe('Rollback');
    expect(judged(same('No connection: 100'), 100).verdict).toBe('Rollback');
    expect(judged(same('Failed --- retry'), '---').verdict).toBe('Rollback');
    // Confirmed live, the break stands whatever the error says.
    expect(judged({ outcome: 'confirmed', candidate: refused, baseline: answered }).verdict).toBe('Rollback');
  });

  it('a required argument with a default: held unless a live call confirms the break', () => {
    expect(decided({ outcome: 'refuted', candidate: answered }, 'required-argument-added-with-default').verdict).toBe('Hold');
    expect(decided({ outcome: 'not-called', note: 'consent' }, 'required-argument-added-with-default').verdict).toBe('Hold');
    const { change, verdict } = decided(
      { outcome: 'confirmed', candidate: refused, baseline: answered },
      'required-argument-added-with-default',
    );
    expect([change.code, change.severity, verdict]).toEqual(['required-argument-added', 'breaking', 'Rollback']);
    expect(change.witness!.live!.outcome).toBe('confirmed');
  });
});
