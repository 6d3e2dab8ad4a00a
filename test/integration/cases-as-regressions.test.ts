import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { collectSignals } from '../../src/decide/signals.js';
import { runCli, scratchProject } from '../helpers/cli.js';
import { readReportFile } from '../helpers/report.js';
import type { Report } from '../../src/report/types.js';

/**
 * Cases are judged as regressions, like the audit: the Support Ops example gated against itself
 * with a dataset whose cases fail on both sides (an expectation nothing returns, a forbidden tool
 * both expose, a tool both lack) must Promote with zero changes and zero signals. The failures are
 * still reported, under case-already-failing, in every format.
 */
const DATASET = `role: support-agent
cases:
  - id: OUTAGE-1
    userTask: Find the tickets; the upstream answer never contains what the case expects.
    requiredTools:
      - toolName: Tickets.Search
        probeArguments: { query: checkout }
        expect: { contains: [this text is never returned] }
  - id: FORBID-1
    userTask: Both sides expose a tool this role forbids.
    requiredTools:
      - toolName: Customers.Lookup
    forbiddenTools: [Tickets.Reply]
  - id: PASSES-1
    userTask: A case that passes on both sides.
    requiredTools:
      - toolName: Tickets.Search
        probeArguments: { query: checkout, status: open }
        expect: { contains: [TCK-1001] }
`;

function project(rules: string): string {
  const dir = scratchProject();
  const config = readFileSync(join(dir, 'gate.config.yaml'), 'utf8')
    .replace(/^candidate: candidate$/m, 'candidate: baseline')
    .replace(/^datasets: .*$/m, 'datasets: [datasets/both.cases.yaml]')
    .replace(/^ {2}rules: \{\}$/m, `  rules: ${rules}`);
  writeFileSync(join(dir, 'gate.config.yaml'), config);
  writeFileSync(join(dir, 'datasets/both.cases.yaml'), DATASET);
  return dir;
}

const onlyReport = (dir: string): Report => {
  const files = readdirSync(join(dir, 'reports')).filter((f) => f.endsWith('.json'));
  expect(files).toHaveLength(1);
  return readReportFile(join(dir, 'reports', files[0]!));
};

describe('a case failing the same way on both sides is pre-existing (real servers over stdio)', () => {
  let dir: string;
  let report: Report;
  let stdout: string;
  let code: number | null;

  beforeAll(async () => {
    dir = project('{}');
    ({ code, stdout } = await runCli(['run'], { cwd: dir }));
    report = onlyReport(dir);
  });

  it('the server against itself: Promote, exit 0, zero changes, zero signals', () => {
    expect(code).toBe(0);
    expect(report.decision).toMatchObject({ verdict: 'Promote', reasons: [] });
    expect(report.diff.changes).toEqual([]);
    const findings = [...report.audit.findings, ...(report.roles ?? []).flatMap((r) => r.findings)];
    expect(
      collectSignals(report.diff.changes, report.candidate.caseResults, findings).filter((s) => s.code !== 'case-already-failing'),
    ).toEqual([]);
  });

  it('the cases still fail on both sides, and the candidate ones are marked pre-existing, failure by failure', () => {
    expect(report.baseline.cases).toMatchObject({ total: 3, passed: 1, failed: 2 });
    expect(report.candidate.cases).toMatchObject({ total: 3, passed: 1, failed: 2 });
    const failed = report.candidate.caseResults.filter((r) => r.status === 'failed');
    expect(failed.map((r) => [r.id, r.regression, r.failures.map((f) => [f.code, f.check ?? null, f.regression])])).toEqual([
      ['OUTAGE-1', false, [['expectation-failed', 'contains:this text is never returned', false]]],
      ['FORBID-1', false, [['forbidden-tool-exposed', null, false]]],
    ]);
    expect(report.baseline.caseResults.every((r) => r.regression === undefined)).toBe(true);
  });

  it('is shown in the text summary, and in markdown, JUnit and SARIF from the saved report', async () => {
    expect(stdout).toContain('candidate OUTAGE-1 (fails on the baseline too: pre-existing, not judged)');
    const file = join(
      dir,
      'reports',
      readdirSync(join(dir, 'reports')).find((f) => f.endsWith('.json'))!,
    );
    const markdown = (await runCli(['show', file, '--format', 'markdown'], { cwd: dir })).stdout;
    expect(markdown).toMatch(/\| OUTAGE-1 \| support-agent \| failed \| failed \(pre-existing\) \|/);
    const junit = (await runCli(['show', file, '--format', 'junit'], { cwd: dir })).stdout;
    expect(junit).toContain('type="case-already-failing"');
    expect(junit).toContain('message="pre-existing (fails on the baseline the same way): ');
    const sarif = JSON.parse((await runCli(['show', file, '--format', 'sarif'], { cwd: dir })).stdout) as {
      runs: { results: { ruleId: string; level: string }[] }[];
    };
    expect(sarif.runs[0]!.results.map((r) => [r.ruleId, r.level])).toEqual([
      ['case-already-failing', 'note'],
      ['case-already-failing', 'note'],
    ]);
  });

  it('promotion.rules can make pre-existing failures Hold, with their own reason', async () => {
    const held = project('{ case-already-failing: hold }');
    const run = await runCli(['run'], { cwd: held });
    expect(run.code).toBe(2);
    expect(onlyReport(held).decision.reasons.map((r) => [r.code, r.action, r.count, r.message])).toEqual([
      ['case-already-failing', 'hold', 2, '2 frozen role cases fail on the baseline too, the same way.'],
    ]);
  });
});
