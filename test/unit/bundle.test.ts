import { describe, expect, it } from 'vitest';
import { collisions } from '../../src/bundle/collisions.js';
import { summarizeBundle, type ServerOutcome } from '../../src/bundle/summary.js';
import type { Verdict } from '../../src/decide/decide.js';
import type { Report } from '../../src/report/types.js';

const policy = { rules: {}, maxNewDestructiveTools: 0, maxBrokenCases: 0, exceptions: [] };
const meta = { startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:01.000Z', config: null };
const tools = (names: string[]) => names.map((name) => ({ name }));

/** Just the fields the summary reads from a report. */
const decided = (name: string, verdict: Verdict, baseline: string[] = [], candidate: string[] = baseline): ServerOutcome => ({
  name,
  reportPath: `${name}.json`,
  report: {
    decision: { verdict, reasons: [], exceptionsApplied: [] },
    baseline: { profile: 'b', tools: tools(baseline) },
    candidate: { profile: 'c', available: true, tools: tools(candidate) },
  } as unknown as Report,
});
const undecided = (name: string): ServerOutcome => ({ name, report: null, error: 'baseline unreachable', baseline: 'b', candidate: 'c' });

describe('the bundle verdict', () => {
  it('is the worst verdict of its servers, servers sorted by name', () => {
    const summary = summarizeBundle([decided('c', 'Hold'), decided('a', 'Promote'), decided('b', 'Rollback')], policy, meta);
    expect([summary.verdict, summary.servers.map((s) => s.name)]).toEqual(['Rollback', ['a', 'b', 'c']]);
    expect(summarizeBundle([decided('a', 'Promote'), decided('b', 'Hold')], policy, meta).verdict).toBe('Hold');
    expect(summarizeBundle([decided('a', 'Promote')], policy, meta).verdict).toBe('Promote');
  });

  it('is undecided with an undecided server, unless another server is already Rollback', () => {
    expect(summarizeBundle([decided('a', 'Hold'), undecided('b')], policy, meta)).toMatchObject({ verdict: null, decided: false });
    expect(summarizeBundle([decided('a', 'Rollback'), undecided('b')], policy, meta)).toMatchObject({ verdict: 'Rollback', decided: true });
  });

  it('holds for a new cross-server collision; an ignore rule lets it pass', () => {
    const outcomes = [decided('a', 'Promote', ['x'], ['x', 'shared']), decided('b', 'Promote', ['y'], ['y', 'shared'])];
    expect(summarizeBundle(outcomes, policy, meta).decision.reasons.map((r) => [r.code, r.tools])).toEqual([
      ['cross-server-name-collision', ['shared']],
    ]);
    expect(summarizeBundle(outcomes, policy, meta).verdict).toBe('Hold');
    expect(summarizeBundle(outcomes, { ...policy, rules: { 'cross-server-name-collision': 'ignore' } }, meta).verdict).toBe('Promote');
  });
});

describe('cross-server collisions', () => {
  it('are names two candidates share; new unless two of those baselines shared them already', () => {
    expect(
      collisions([
        { name: 'b', baseline: ['old', 'mine'], candidate: ['old', 'new', 'mine'] },
        { name: 'a', baseline: ['old'], candidate: ['old', 'new'] },
        { name: 'c', baseline: ['mine'], candidate: [] },
      ]),
    ).toEqual([
      { tool: 'new', servers: ['a', 'b'], regression: true },
      { tool: 'old', servers: ['a', 'b'], regression: false },
    ]);
  });

  it('a name the baselines of other servers shared is still new for the servers that now share it', () => {
    expect(
      collisions([
        { name: 'a', baseline: ['t'], candidate: [] },
        { name: 'b', baseline: ['t'], candidate: ['t'] },
        { name: 'c', baseline: [], candidate: ['t'] },
      ]),
    ).toEqual([{ tool: 't', servers: ['b', 'c'], regression: true }]);
  });
});
