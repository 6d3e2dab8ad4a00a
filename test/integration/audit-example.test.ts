import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import type { Report } from '../../src/report/types.js';

// Each audit-* release of the example server gets one thing the model sees wrong. Real calls over stdio.
const config = join(ROOT, 'examples/support-ops/audit.config.yaml');
const gate = async (candidate: string, baseline = 'baseline') => {
  const result = await runCli([
    'run',
    '-c',
    config,
    '--baseline',
    baseline,
    '--candidate',
    candidate,
    '--format',
    'json',
    '--quiet',
    '--report-dir',
    join(ROOT, '.tmp/audit-reports'),
  ]);
  return { code: result.code, report: JSON.parse(result.stdout) as Report };
};
const regressions = (report: Report) =>
  report.audit.findings.filter((f) => f.side === 'candidate' && f.regression).map((f) => [f.code, f.tool, f.caseId ?? null]);

describe('the audit on the example', () => {
  it('hidden next-page signal: pagination-hint-hidden, held', async () => {
    const { code, report } = await gate('audit-hidden-pagination');
    expect(regressions(report)).toContainEqual(['pagination-hint-hidden', 'Tickets.Search', 'TA-001']);
    expect(report.decision).toMatchObject({ verdict: 'Hold', reasons: [{ code: 'pagination-hint-hidden', action: 'hold' }] });
    expect(code).toBe(2);
  });

  it('failure without isError: error-not-flagged, held, although the case itself passes', async () => {
    const { report } = await gate('audit-unflagged-error');
    expect(regressions(report)).toEqual([['error-not-flagged', 'Customers.Lookup', 'TA-002']]);
    expect(report.candidate.cases.failed).toBe(0);
    expect(report.decision.reasons.map((r) => [r.code, r.action])).toEqual([['error-not-flagged', 'hold']]);
  });

  it('outputSchema types an integer as an object: structured-content-invalid with the ajv path, held', async () => {
    const { report } = await gate('audit-mistyped-output');
    const finding = report.audit.findings.find((f) => f.code === 'structured-content-invalid')!;
    expect(finding).toMatchObject({ side: 'candidate', tool: 'Tickets.Get', regression: true });
    expect(finding.message).toContain('/messageCount must be object');
    expect(report.decision.verdict).toBe('Hold');
  });

  it('60 KB of pretty JSON for three records: result-too-large, result-pretty-json, result-size-regression, held', async () => {
    const { report } = await gate('audit-bloated-result');
    const codes = regressions(report).map(([code]) => code);
    expect(codes).toEqual(expect.arrayContaining(['result-too-large', 'result-pretty-json', 'result-size-regression']));
    const probe = report.candidate.caseResults[0]!.probes[0]!;
    expect(probe.resultBytes).toBeGreaterThan(55_000);
    expect(probe.resultBytes).toBeLessThan(70_000);
    expect(report.decision.reasons.map((r) => r.code)).toEqual(['result-too-large', 'result-size-regression']);
  });

  it('the fixed release promotes, and as the next baseline it leaves no regression to clear', async () => {
    const fixed = await gate('audit-fixed');
    expect(fixed.report.decision.verdict).toBe('Promote');
    // Its new output schemas say draft-07 (the SDK 1.x stamps it): the SDK's 2.0 beta clients would
    // refuse both tools. Reported, not held, while audit.clients does not name those clients.
    expect(regressions(fixed.report)).toEqual([
      ['client-would-reject-tool', 'Tickets.Get', null],
      ['client-would-reject-tool', 'Tickets.Search', null],
    ]);
    for (const broken of ['audit-hidden-pagination', 'audit-bloated-result']) {
      const after = await gate('audit-fixed', broken);
      // The fix replaced the bloated release's JSON text ({ records, total }) with a compact projection:
      // a client that parsed those fields loses them, so the live-result comparison holds it for a person.
      const drift =
        broken === 'audit-bloated-result'
          ? [
              ['result-field-removed', 'Tickets.Search', 'TA-001'],
              ['result-field-removed', 'Tickets.Search', 'TA-001'],
            ]
          : [];
      // The output schemas the broken release did not declare yet are newly draft-07, as above: reported.
      const refused = [
        ['client-would-reject-tool', 'Tickets.Get', null],
        ...(broken === 'audit-bloated-result' ? [['client-would-reject-tool', 'Tickets.Search', null]] : []),
      ];
      expect(regressions(after.report)).toEqual([...drift, ...refused]);
      if (drift.length)
        expect(after.report.audit.findings.filter((f) => f.path).map((f) => f.path)).toEqual(['/text/records', '/text/total']);
      // The broken release's findings stay visible on the baseline side.
      expect(after.report.audit.findings.some((f) => f.side === 'baseline')).toBe(true);
    }
  });
});
