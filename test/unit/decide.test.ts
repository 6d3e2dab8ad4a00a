import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { change } from '../../src/diff/change.js';
import { approveCovering, decide, decideByRole, type Policy } from '../../src/decide/decide.js';
import { collectSignals, unannotatedSiblings, type Signal } from '../../src/decide/signals.js';
import type { Contract } from '../../src/contract/types.js';
import { diffContracts } from '../../src/diff/index.js';
import { caseResult as result } from '../helpers/cases.js';
import { contractOf, tool } from '../helpers/contracts.js';
import { markRegressions } from '../../src/cases/regression.js';
import type { CaseFailure, CaseResult } from '../../src/cases/types.js';
import type { FindingCode, JudgedCode } from '../../src/findings/codes.js';
import { property, runs } from '../helpers/property.js';

const policy = (over: Partial<Policy> = {}): Policy => ({
  rules: {},
  maxNewDestructiveTools: 0,
  maxBrokenCases: 0,
  exceptions: [],
  ...over,
});
const signal = (code: JudgedCode, tool: string | null = 'T', fingerprint: string | null = null): Signal => ({
  code,
  tool,
  fingerprint,
  message: code,
});
const TODAY = '2026-11-22';

describe('decide', () => {
  it('promotes when nothing fires, and ignores ignore-by-default codes', () => {
    expect(decide([], policy(), TODAY)).toMatchObject({ verdict: 'Promote', reasons: [] });
    expect(decide([signal('tool-added')], policy(), TODAY).verdict).toBe('Promote');
  });

  it('takes the strongest action: rollback beats hold', () => {
    const d = decide([signal('description-changed'), signal('tool-removed')], policy(), TODAY);
    expect(d.verdict).toBe('Rollback');
    expect(d.reasons.map((r) => [r.code, r.action])).toEqual([
      ['tool-removed', 'rollback'],
      ['description-changed', 'hold'],
    ]);
  });

  it("a break held under its cap is its own reason, with why, not listed under its siblings' Rollback", () => {
    const refuted: Signal = {
      ...signal('required-argument-added', 'search'),
      cap: { action: 'hold', why: 'the candidate answered the witness live without an error' },
    };
    const d = decide([signal('required-argument-added', 'create'), refuted], policy(), TODAY);
    expect(d.verdict).toBe('Rollback');
    expect(d.reasons.map((r) => [r.code, r.action, r.tools])).toEqual([
      ['required-argument-added', 'rollback', ['create']],
      ['required-argument-added', 'hold', ['search']],
    ]);
    expect(d.reasons[1]!.message).toBe(
      'Required arguments added: 1 (search); held, not rolled back: the candidate answered the witness live without an error.',
    );
    // A signal its cap lets go (a calm change) is in no reason at all.
    const calm: Signal = { ...signal('schema-changed', 'b'), cap: { action: 'ignore', why: 'no instance tells the two schemas apart' } };
    expect(decide([signal('schema-changed', 'a'), calm], policy(), TODAY).reasons.map((r) => r.tools)).toEqual([['a']]);
  });

  it('rules override the defaults', () => {
    expect(decide([signal('tool-removed')], policy({ rules: { 'tool-removed': 'hold' } }), TODAY).verdict).toBe('Hold');
    expect(decide([signal('tool-added')], policy({ rules: { 'tool-added': 'rollback' } }), TODAY).verdict).toBe('Rollback');
    expect(decide([signal('tool-removed')], policy({ rules: { 'tool-removed': 'ignore' } }), TODAY).verdict).toBe('Promote');
  });

  it('thresholds: new destructive tools and broken cases fire only past their maximum', () => {
    const two = [signal('tool-added-destructive', 'a'), signal('tool-added-destructive', 'b')];
    expect(decide(two, policy({ maxNewDestructiveTools: 2 }), TODAY).verdict).toBe('Promote');
    expect(decide(two, policy({ maxNewDestructiveTools: 1 }), TODAY).reasons[0]).toMatchObject({
      code: 'tool-added-destructive',
      count: 2,
      tools: ['a', 'b'],
    });
    const cases = [signal('case-broken', null), signal('case-broken', null)];
    expect(decide(cases, policy({ maxBrokenCases: 2 }), TODAY).verdict).toBe('Promote');
    expect(decide(cases, policy({ maxBrokenCases: 1 }), TODAY).reasons[0]!.message).toBe('Candidate failed 2 frozen role cases.');
  });

  it('exceptions approve by code, tool and fingerprint until they expire', () => {
    const s = [signal('tool-removed', 'a', 'f1'), signal('tool-removed', 'b', 'f2')];
    const approveA = { code: 'tool-removed', tool: 'a', reason: 'deprecated in 1.3', expires: '2026-12-31' };
    const partly = decide(s, policy({ exceptions: [approveA] }), TODAY);
    expect(partly.reasons[0]).toMatchObject({ code: 'tool-removed', count: 1, tools: ['b'] });
    expect(partly.exceptionsApplied).toEqual([{ ...approveA, matched: 1 }]);

    const byFingerprint = decide(
      s,
      policy({ exceptions: [{ code: 'tool-removed', fingerprint: 'f2', reason: 'ok', expires: '2026-12-31' }] }),
      TODAY,
    );
    expect(byFingerprint.reasons[0]!.tools).toEqual(['a']);

    const expired = decide(s, policy({ exceptions: [{ ...approveA, expires: '2026-11-21' }] }), TODAY);
    expect(expired.reasons.map((r) => [r.code, r.action])).toEqual([
      ['tool-removed', 'rollback'],
      ['exception-expired', 'hold'],
    ]);

    const stale = decide([], policy({ exceptions: [approveA] }), TODAY);
    expect(stale).toMatchObject({ verdict: 'Hold', reasons: [{ code: 'exception-stale', action: 'hold' }] });
  });

  it('folds a forbidden exposure into case-broken when those cases already roll back', () => {
    const s = [signal('forbidden-tool-exposed', 'Deploy'), signal('case-broken', null)];
    expect(decide(s, policy(), TODAY).reasons.map((r) => [r.code, r.tools])).toEqual([['case-broken', ['Deploy']]]);
    expect(decide(s, policy({ maxBrokenCases: 1 }), TODAY).reasons.map((r) => r.code)).toEqual(['forbidden-tool-exposed']);
  });

  it('names the prompts, resources and capabilities behind a reason, as it names tools, ten at most', async () => {
    const { diffFeatures } = await import('../../src/diff/features.js');
    const { buildFeatures } = await import('../../src/contract/features.js');
    const before = buildFeatures(
      {
        capabilities: { prompts: {}, resources: {} },
        prompts: [{ name: 'triage', arguments: [{ name: 'service' }] }, { name: 'gone' }],
        resources: [{ uri: 'file:///a/b.txt', name: 'b' }],
        resourceTemplates: [],
      },
      [],
    );
    const after = buildFeatures(
      {
        capabilities: { prompts: {} },
        prompts: [{ name: 'triage', arguments: [{ name: 'service', required: true }] }],
        resources: [],
        resourceTemplates: [],
      },
      [],
    );
    const d = decide(collectSignals(diffFeatures(before, after), [], []), policy(), TODAY);
    expect(d.reasons.map((r) => r.message)).toEqual([
      'Prompts removed: 1 (gone).',
      'Prompt arguments now required: 1 (triage: service).',
      'Resources removed: 1 (file:///a/b.txt).',
      'Capabilities removed: 1 (resources).',
    ]);
    expect(d.reasons.every((r) => r.tools.length === 0)).toBe(true);
    const many = Array.from({ length: 12 }, (_, i) => signal('tool-removed', `t${String(i).padStart(2, '0')}`));
    expect(decide(many, policy(), TODAY).reasons[0]!.message).toBe(
      'Tools removed: 12 (t00, t01, t02, t03, t04, t05, t06, t07, t08, t09, and 2 more).',
    );
  });

  it('is deterministic: input order does not change the reasons', () => {
    const s = [signal('description-changed', 'z'), signal('tool-removed', 'b'), signal('input-closed', 'a'), signal('tool-removed', 'a')];
    expect(decide([...s].reverse(), policy(), TODAY)).toEqual(decide(s, policy(), TODAY));
  });
});

describe('promotion.unannotatedServers: a new bare tool on a server that declares no hints (docs/verdicts.md)', () => {
  const bare = (name: string) => tool(name);
  const judge = (before: Contract, after: Contract, over: Partial<Policy> = {}) => {
    const unannotated = unannotatedSiblings(before, after);
    const signals = collectSignals(diffContracts(before, after), [], [], unannotated ? { unannotated } : {});
    return decide(signals, policy(over), TODAY).reasons.map((r) => [r.code, r.action, r.tools]);
  };
  const baseline = contractOf(bare('list_issues'), bare('get_issue'));
  const candidate = contractOf(
    bare('list_issues'),
    bare('get_issue'),
    bare('add_category'),
    tool('archive', { type: 'object' }, { annotations: { openWorldHint: false } }),
  );

  it('holds by default, every new tool destructive only by the defaults', () => {
    expect(judge(baseline, candidate)).toEqual([['tool-added-destructive-by-default', 'hold', ['add_category', 'archive']]]);
  });

  it('like-siblings: the bare new tool is judged like the bare tools in production; one that declares a hint is judged as usual', () => {
    expect(judge(baseline, candidate, { unannotatedServers: 'like-siblings' })).toEqual([
      ['tool-added-destructive-by-default', 'hold', ['archive']],
    ]);
    // Whatever a rule asks of the code: the setting names these tools, and a rule names the code.
    expect(
      judge(baseline, candidate, { unannotatedServers: 'like-siblings', rules: { 'tool-added-destructive-by-default': 'rollback' } }),
    ).toEqual([['tool-added-destructive-by-default', 'rollback', ['archive']]]);
  });

  it('a baseline that annotates any tool, or has none, has no bare siblings: held as usual', () => {
    const readOnly = tool('get_issue', { type: 'object' }, { annotations: { readOnlyHint: true } });
    const annotated = contractOf(bare('list_issues'), readOnly);
    const next = contractOf(bare('list_issues'), readOnly, bare('add_category'));
    expect(unannotatedSiblings(annotated, next)).toBeNull();
    expect(unannotatedSiblings(contractOf(), next)).toBeNull();
    expect(judge(annotated, next, { unannotatedServers: 'like-siblings' })).toEqual([
      ['tool-added-destructive-by-default', 'hold', ['add_category']],
    ]);
    expect(unannotatedSiblings(baseline, candidate)).toEqual({ siblings: 2, tools: new Set(['list_issues', 'get_issue', 'add_category']) });
  });

  it("the change's message says the baseline declares no hint either, and which setting decides", () => {
    const [added] = diffContracts(baseline, contractOf(bare('list_issues'), bare('get_issue'), bare('add_category'))).filter(
      (c) => c.code === 'tool-added-destructive-by-default',
    );
    expect(added!.message).toContain(
      'The baseline declares no hint on any of its 2 tools either: promotion.unannotatedServers says whether it is judged like them (hold by default).',
    );
  });
});

describe('cases judged as regressions (markRegressions + collectSignals)', () => {
  const failure = (code: CaseFailure['code'], tool: string, check?: string): CaseFailure => ({
    code,
    tool,
    message: `${code} ${tool} ${check ?? ''} (live text ${tool.length * 7})`,
    ...(check && { check }),
  });
  const codes = (baseline: CaseResult[], candidate: CaseResult[]) =>
    collectSignals([], markRegressions(baseline, candidate), []).map((s) => s.code);

  it('passed on the baseline, failed on the candidate: case-broken', () => {
    expect(codes([result('A', 'passed')], [result('A', 'failed', [failure('probe-failed', 't')])])).toEqual(['case-broken']);
  });

  it('the same failure on both sides, whatever the messages quote: case-already-failing, which decides nothing', () => {
    const quoting = (got: string) => ({ ...failure('expectation-failed', 't', 'contains:x'), message: `expected "x"; got ${got}` });
    const signals = codes([result('A', 'failed', [quoting('"503 at 12:00"')])], [result('A', 'failed', [quoting('"503 at 12:01"')])]);
    expect(signals).toEqual(['case-already-failing']);
    expect(
      decide(
        signals.map((code) => ({ code, tool: null, fingerprint: null, message: '' })),
        policy(),
        '2026-11-23',
      ).verdict,
    ).toBe('Promote');
  });

  it('a failure the baseline does not have (another check, another tool, or a skipped or missing baseline case) is a regression', () => {
    const base = [result('A', 'failed', [failure('expectation-failed', 't', 'contains:x')])];
    expect(
      codes(base, [
        result('A', 'failed', [failure('expectation-failed', 't', 'contains:x'), failure('expectation-failed', 't', 'matches')]),
      ]),
    ).toEqual(['case-broken']);
    expect(codes(base, [result('A', 'failed', [failure('expectation-failed', 'u', 'contains:x')])])).toEqual(['case-broken']);
    expect(codes([result('A', 'skipped')], [result('A', 'failed', [failure('probe-failed', 't')])])).toEqual(['case-broken']);
    expect(codes([], [result('A', 'failed', [failure('probe-failed', 't')])])).toEqual(['case-broken']);
  });

  it('fewer failures than the baseline had is still pre-existing, not new', () => {
    const base = [result('A', 'failed', [failure('probe-failed', 't'), failure('required-tool-missing', 'u')])];
    expect(codes(base, [result('A', 'failed', [failure('probe-failed', 't')])])).toEqual(['case-already-failing']);
  });

  it('a forbidden tool the baseline exposed too is no signal; a newly exposed one is', () => {
    const exposed = (tool: string) => failure('forbidden-tool-exposed', tool);
    expect(codes([result('A', 'failed', [exposed('x')])], [result('A', 'failed', [exposed('x')])])).toEqual(['case-already-failing']);
    expect(codes([result('A', 'failed', [exposed('x')])], [result('A', 'failed', [exposed('x'), exposed('y')])])).toEqual([
      'forbidden-tool-exposed',
      'case-broken',
    ]);
  });
});

describe('approveCovering: a label approves what was there when it was given', () => {
  const signals: Signal[] = [signal('tool-removed', 'a', 'f1'), signal('required-argument-removed', 'b', 'f2')];
  const decided = decide(signals, policy(), TODAY);

  it('given now: Promote, covering the signals behind the reasons', () => {
    const d = approveCovering(decided, signals, 'ok', null);
    expect(d).toMatchObject({ verdict: 'Promote', approval: { label: 'ok', verdictBefore: 'Rollback', covers: ['f1', 'f2'] } });
  });

  it('a later run with the same signals: still approved; with one more: the verdict stands, stale', () => {
    expect(approveCovering(decided, signals, 'ok', ['f1', 'f2']).verdict).toBe('Promote');
    const more = [...signals, signal('tool-removed', 'c', 'f3')];
    const d = approveCovering(decide(more, policy(), TODAY), more, 'ok', ['f1', 'f2']);
    expect(d.verdict).toBe('Rollback');
    expect(d.staleApproval).toMatchObject({ label: 'ok', uncovered: 1 });
    expect(approveCovering(decided, signals, 'ok', []).staleApproval?.uncovered).toBe(2);
  });
});

describe('each role decided in the run pass', () => {
  const ROLES = ['agent', 'commander', 'auditor'];
  const TOOLS = ['Tickets.Close', 'Runbooks.Search', 'Deployments.Rollback'];
  const caseResult = fc.record({
    id: fc.constantFrom('A', 'B', 'C', 'D'),
    role: fc.constantFrom(...ROLES),
    roles: fc.option(fc.subarray(ROLES, { minLength: 1 }), { nil: undefined }),
    status: fc.constantFrom<CaseResult['status']>('passed', 'failed', 'skipped'),
    regression: fc.option(fc.boolean(), { nil: undefined }),
    exposed: fc.array(fc.record({ tool: fc.constantFrom(...TOOLS), regression: fc.option(fc.boolean(), { nil: undefined }) }), {
      maxLength: 2,
    }),
  });
  type CaseDraft = typeof caseResult extends fc.Arbitrary<infer T> ? T : never;
  const roleFinding = fc.record({
    code: fc.constantFrom<FindingCode>('role-surface-leak', 'role-destructive-limit'),
    tool: fc.constantFrom(...TOOLS),
    role: fc.constantFrom(...ROLES),
    regression: fc.boolean(),
  });
  const exception = fc.record({
    code: fc.constantFrom<JudgedCode>('case-broken', 'forbidden-tool-exposed', 'role-surface-leak', 'tool-removed'),
    tool: fc.option(fc.constantFrom(...TOOLS), { nil: undefined }),
    reason: fc.constant('approved'),
    expires: fc.constantFrom('2020-01-01', '2099-01-01'),
  });
  const toResult = (r: CaseDraft, i: number): CaseResult => ({
    id: `${r.id}${i}`,
    role: r.role,
    ...(r.roles && { roles: [r.role, ...r.roles.filter((x) => x !== r.role)] }),
    dataset: `${r.role}.cases.yaml`,
    status: r.status,
    passed: r.status === 'passed',
    ...(r.regression !== undefined && { regression: r.regression }),
    failures: r.exposed.map((e) => ({
      code: 'forbidden-tool-exposed',
      tool: e.tool,
      message: `${e.tool} is exposed`,
      ...(e.regression !== undefined && { regression: e.regression }),
    })),
    probes: [],
  });

  property('gives each role what deciding its own signals alone gives, and the run what deciding all of them gives', () => {
    fc.assert(
      fc.property(
        fc.array(caseResult, { maxLength: 8 }),
        fc.array(roleFinding, { maxLength: 4 }),
        fc.array(exception, { maxLength: 3 }),
        fc.integer({ min: 0, max: 2 }),
        (raw, rawFindings, exceptions, maxBrokenCases) => {
          const cases = raw.map(toResult);
          const findings = rawFindings.map((f) => ({
            ...f,
            severity: 'dangerous' as const,
            side: 'candidate' as const,
            subject: { kind: 'tool' as const, tool: f.tool, at: [] },
            message: f.code,
          }));
          const changes = [change('tool-removed', { kind: 'tool', tool: 'Tickets.Close', at: [] }, 'Tickets.Close', null)];
          const rules = { 'role-surface-leak': 'rollback' as const };
          const p = policy({ maxBrokenCases, exceptions, rules });
          const signals = collectSignals(changes, cases, findings);
          const decided = decideByRole(signals, p, TODAY, ROLES);
          expect(decided.decision).toEqual(decide(signals, p, TODAY));
          for (const role of ROLES) {
            // What each role was given before the run's one pass: a decision of its own cases and findings.
            const own = decide(
              collectSignals(
                [],
                cases.filter((c) => (c.roles ?? [c.role]).includes(role)),
                findings.filter((f) => f.role === role),
              ),
              p,
              TODAY,
            );
            expect(decided.roles.get(role)).toEqual({ verdict: own.verdict, reasons: own.reasons });
          }
        },
      ),
      { numRuns: runs(300) },
    );
  });
});
