import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit/index.js';
import { auditResult } from '../../src/audit/result-checks.js';
import { markRegressions } from '../../src/cases/regression.js';
import type { CaseResult, Observation } from '../../src/cases/types.js';
import { DEFAULTS } from '../../src/config/types.js';
import { decide } from '../../src/decide/decide.js';
import { collectSignals } from '../../src/decide/signals.js';
import { diffContracts } from '../../src/diff/index.js';
import { instancePlace, judgeByResults } from '../../src/diff/observed-outputs.js';
import { CODES, isCode } from '../../src/findings/codes.js';
import { caseResult } from '../helpers/cases.js';
import { contractOf, obj, tool } from '../helpers/contracts.js';

// The run's results against the letter of the schemas (docs/verdicts.md, "Output changes and the
// results"), and the fixes the audit asks for (docs/audit.md, "The fixes the audit asks for").
const observed = (structuredContent: unknown, extra: Partial<Observation> = {}): Observation => ({
  caseId: 'C',
  tool: 't',
  args: {},
  result: { structuredContent, content: [{ type: 'text', text: JSON.stringify(structuredContent) }] },
  resultBytes: 0,
  ...extra,
});
const withOutput = (schema: Record<string, unknown>) => contractOf(tool('t', { type: 'object' }, { outputSchema: schema }));
const strict = obj({ id: { type: 'string' }, eta: { type: ['string', 'null'] }, rows: { type: 'integer' } }, ['id', 'eta', 'rows'], {
  additionalProperties: false,
});
const loose = { type: 'object' };
const judged = (baseline: Observation[], candidate: Observation[], after: Record<string, unknown> = loose) =>
  judgeByResults(diffContracts(withOutput(strict), withOutput(after)), baseline, candidate)
    .filter((c) => c.code === 'output-property-removed')
    .map((c) => [c.path.split('/').at(-1), c.severity, c.results?.outcome ?? null]);
const policy = { ...DEFAULTS.promotion, rules: {}, exceptions: [] };

describe('an output field no longer declared, judged with the results', () => {
  it('still in every candidate result: held; held only as null (or never) by the baseline and gone: part of a fix; gone with data: a break', () => {
    const base = [observed({ id: 'a', eta: null, rows: 3 })];
    expect(judged(base, [observed({ id: 'a', rows: 3 })])).toEqual([
      ['eta', 'dangerous', 'only-null'],
      ['id', 'dangerous', 'still-returned'],
      ['rows', 'dangerous', 'still-returned'],
    ]);
    expect(judged(base, [observed({ id: 'a' })])).toEqual([
      ['eta', 'dangerous', 'only-null'],
      ['id', 'dangerous', 'still-returned'],
      ['rows', 'breaking', 'gone'],
    ]);
    // A field a case reads stays a break when it goes, even where the baseline held it as null.
    const read = [observed({ id: 'a', eta: null, rows: 3 }, { structured: { eta: null } })];
    expect(judged(read, [observed({ id: 'a', rows: 3 })])[0]).toEqual(['eta', 'breaking', 'gone']);
    // Returned by some results only: not still returned.
    expect(judged(base, [observed({ id: 'a', rows: 3 }), observed({ id: 'b' })])[2]).toEqual(['rows', 'breaking', 'gone']);
  });

  it('no result of the tool seen: judged from the schemas, and the message says so', () => {
    const changes = judgeByResults(diffContracts(withOutput(strict), withOutput(loose)), [], []);
    const rows = changes.find((c) => c.path === '/outputSchema/properties/rows')!;
    expect([rows.severity, rows.results?.outcome]).toEqual(['breaking', 'unseen']);
    expect(rows.message).toMatch(/No result of "t" was seen in this run, so this is judged from the schemas alone\.$/);
    // An error answer is no result to judge by.
    const failed = { ...observed({}), result: { isError: true, content: [{ type: 'text', text: 'down' }] } };
    expect(judged([failed], [failed]).map(([, , outcome]) => outcome)).toEqual(['unseen', 'unseen', 'unseen']);
  });

  it("no result seen: a field the candidate's schema still lets come is held; one a closed object excludes is a break", () => {
    // The write-ups' permissive status envelope: the object opened, fields no longer declared.
    const envelope = obj({ success: { type: 'boolean' } }, [], { additionalProperties: {} });
    const open = judgeByResults(diffContracts(withOutput(strict), withOutput(envelope)), [], [], withOutput(envelope));
    const removed = open.filter((c) => c.code === 'output-property-removed');
    expect(removed.map((c) => [c.severity, c.results?.outcome, c.results?.admitted])).toEqual([
      ['dangerous', 'unseen', true],
      ['dangerous', 'unseen', true],
      ['dangerous', 'unseen', true],
    ]);
    expect(removed[0]!.message).toMatch(
      /still lets the field come \(its object takes undeclared fields\): whether it is still returned is for a person/,
    );
    expect(decide(collectSignals(open, [], []), policy, '2026-12-02').verdict).toBe('Hold');
    // Closed: the candidate's schema says the field cannot come, and that is a break without results.
    const closed = obj({ id: { type: 'string' } }, ['id'], { additionalProperties: false });
    const shut = judgeByResults(diffContracts(withOutput(strict), withOutput(closed)), [], [], withOutput(closed));
    expect(
      shut
        .filter((c) => c.code === 'output-property-removed')
        .map((c) => [c.path.split('/').at(-1), c.results?.outcome, c.results?.admitted]),
    ).toEqual([
      ['eta', 'unseen', undefined],
      ['rows', 'unseen', undefined],
    ]);
    expect(decide(collectSignals(shut, [], []), policy, '2026-12-02').verdict).toBe('Rollback');
  });

  it('a change capped by the results is held, and one part of a fix says so in its reason', () => {
    const returned = judgeByResults(diffContracts(withOutput(strict), withOutput(loose)), [], [observed({ id: 'a', eta: 'x', rows: 3 })]);
    expect(decide(collectSignals(returned, [], []), policy, '2026-12-02').reasons.map((r) => [r.code, r.action])).toEqual([
      ['output-property-removed', 'hold'],
      ['output-constraint-loosened', 'hold'],
    ]);
    const changes = judgeByResults(
      diffContracts(withOutput(strict), withOutput(obj({ id: { type: 'string' }, rows: { type: 'integer' } }, ['id', 'rows']))),
      [observed({ id: 'a', eta: null, rows: 3 })],
      [observed({ id: 'a', rows: 3 })],
    );
    const reasons = decide(collectSignals(changes, [], []), policy, '2026-12-02').reasons;
    expect(reasons.map((r) => [r.code, r.action, r.message])).toContainEqual([
      'output-property-removed',
      'hold',
      'Output fields removed: 1 (t); held: part of a fix for result-null-fields.',
    ]);
  });

  it('maps a place in an output schema to the place in a result', () => {
    expect(instancePlace(['outputSchema', 'properties', 'posts', 'items', 'properties', 'eta'])).toEqual(['posts', '*', 'eta']);
    expect(instancePlace(['outputSchema', 'anyOf', '1', 'properties', 'a'])).toEqual(['a']);
    expect(instancePlace(['outputSchema', 'patternProperties', '^x', 'properties', 'a'])).toBeNull();
  });
});

describe('the audit does not punish the fixes it asks for', () => {
  const checks = (structuredContent: unknown, args: Record<string, unknown> = {}) =>
    auditResult(observed(structuredContent, { args }), contractOf(tool('t')).tools[0], 'candidate', 100_000).map((f) => f.code);
  const items = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];

  it('an explicit end signal is not a hidden next page', () => {
    const hidden = { content: [{ type: 'text', text: 'Found 3.' }] };
    const onlyCount = (structuredContent: unknown, args: Record<string, unknown>) =>
      auditResult({ ...observed(structuredContent, { args }), result: { ...hidden, structuredContent } }, undefined, 'candidate', 1e6).map(
        (f) => f.code,
      );
    expect(onlyCount({ items }, { limit: 3 })).toContain('pagination-hint-hidden');
    for (const end of [{ has_more: false }, { next: null }, { nextCursor: '' }, { total: 3 }])
      expect(onlyCount({ items, ...end }, { limit: 3 }), JSON.stringify(end)).not.toContain('pagination-hint-hidden');
    expect(onlyCount({ items, total: 40 }, { limit: 3 })).toContain('pagination-hint-hidden');
  });

  it('null keys in a single object that holds a list; a next cursor of null is an end, not a null key', () => {
    expect(checks({ id: 't1', tags: ['a', 'b'], eta: null, merged_into: null })).toContain('result-null-fields');
    expect(checks({ items, next_cursor: null, eta: null })).not.toContain('result-null-fields');
  });

  it('a null key removed, or has_more dropped, is its finding fixed; a field with data removed from the same result is not spared', () => {
    const contract = contractOf(tool('t'));
    const run = (before: unknown, after: unknown) =>
      audit(
        { side: 'baseline', contract, observations: [{ ...observed(before), result: { structuredContent: before, content: [] } }] },
        { side: 'candidate', contract, observations: [{ ...observed(after), result: { structuredContent: after, content: [] } }] },
        DEFAULTS.audit,
      )
        .findings.filter((f) => f.caseId !== undefined && f.code !== 'structured-content-without-text')
        .map((f) => [f.side, f.code, f.direction ?? null, f.path ?? null]);
    const before = { id: 't1', title: 'x', tags: ['a', 'b'], eta: null, merged_into: null, has_more: true };
    expect(run(before, { id: 't1', tags: ['a', 'b'] })).toEqual([
      ['baseline', 'pagination-hint-hidden', 'fixed', null],
      ['baseline', 'result-null-fields', 'fixed', null],
      ['candidate', 'result-field-removed', 'new', '/structuredContent/title'],
    ]);
  });

  it('the pairs are declared once, in the code table, and name codes that exist', () => {
    const pairs = Object.entries(CODES).flatMap(([code, meta]) =>
      'resolves' in meta ? Object.keys(meta.resolves).map((resolved) => [code, resolved]) : [],
    );
    expect(pairs).toContainEqual(['result-field-removed', 'result-null-fields']);
    expect(pairs).toContainEqual(['result-field-removed', 'pagination-hint-hidden']);
    expect(pairs.filter(([, resolved]) => !isCode(resolved!))).toEqual([]);
  });

  it('a case that fails on isError where the baseline answered the same probe with an error written as data is not broken', () => {
    const result = (status: CaseResult['status'], failures: CaseResult['failures'] = []): CaseResult => caseResult('C', status, failures);
    const flagged = result('failed', [{ code: 'probe-failed', tool: 't', message: 'probe returned isError: not found', check: 'isError' }]);
    const codes = (hidden: Set<string>) =>
      collectSignals([], markRegressions([result('passed')], [flagged], hidden), []).map((s) => s.code);
    expect(codes(new Set())).toEqual(['case-broken']);
    expect(codes(new Set(['C|t']))).toEqual(['case-already-failing']);
  });
});
