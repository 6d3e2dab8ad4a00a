import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportFileName, writeReport } from '../../src/report/write.js';
import { readReport } from '../../src/report/read.js';
import type { Report } from '../../src/report/types.js';
import { ROOT, runCli, scratchProject } from '../helpers/cli.js';

const NO_CONSENT = {
  MCPGATE_PROFILES__BASELINE__ALLOW_SIDE_EFFECTS: 'false',
  MCPGATE_PROFILES__CANDIDATE_SAFE__ALLOW_SIDE_EFFECTS: 'false',
};

describe('a probe of a tool that is not read-only needs consent', () => {
  it('without allowSideEffects the probe is skipped with the reason, and skipped is never passed', async () => {
    const dir = scratchProject();
    const result = await runCli(['run', '--candidate', 'candidate-safe', '--format', 'json', '--quiet'], { cwd: dir, env: NO_CONSENT });
    const report = JSON.parse(result.stdout) as Report;
    const status = report.candidate.caseResults.map((r) => [r.id, r.status]);
    // TG-001 probes a read-only tool; TG-002 (Tickets.Reply) and TG-003 (Incident.Declare) are not read-only.
    expect(status).toEqual([
      ['TG-001', 'passed'],
      ['TG-002', 'skipped'],
      ['TG-003', 'skipped'],
    ]);
    expect(report.candidate.cases).toMatchObject({ total: 3, passed: 1, skipped: 2 });
    expect(report.candidate.cases.passRate).toBeCloseTo(1 / 3);
    const reply = report.candidate.caseResults[1]!.probes.find((p) => p.tool === 'Tickets.Reply')!;
    expect(reply).toMatchObject({ status: 'skipped', resultBytes: null });
    expect(reply.reason).toContain('set allowSideEffects: true on the profile or sideEffects: allowed on the case');
  });

  it('sideEffects: allowed on a case is consent for that case only', async () => {
    const dir = scratchProject();
    const file = join(dir, 'datasets/support-ops.cases.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('  - id: TG-003\n', '  - id: TG-003\n    sideEffects: allowed\n'));
    const result = await runCli(['run', '--candidate', 'candidate-safe', '--format', 'json', '--quiet'], { cwd: dir, env: NO_CONSENT });
    const report = JSON.parse(result.stdout) as Report;
    expect(report.candidate.caseResults.map((r) => r.status)).toEqual(['passed', 'skipped', 'passed']);
  });
});

describe('reports are never lost or half-written', () => {
  it('a report directory that cannot be written is a clear error, and the verdict is still printed', async () => {
    const dir = scratchProject();
    writeFileSync(join(dir, 'not-a-dir'), 'a file where a directory should be\n');
    const rollback = await runCli(['run', '--report-dir', 'not-a-dir/reports'], { cwd: dir });
    expect(rollback.code).toBe(1); // the verdict's own code
    expect(rollback.stdout).toContain('Rollback');
    expect(rollback.stderr).toMatch(
      /could not write the report to not-a-dir\/reports: a part of its path is a file, not a directory\. Set reports\.dir \(or --report-dir\) to a writable directory/,
    );
    // A passing verdict that left no report is not a success: exit 3.
    const promote = await runCli(['run', '--candidate', 'candidate-safe', '--report-dir', 'not-a-dir/reports'], { cwd: dir });
    expect(promote.stdout).toContain('Promote');
    expect(promote.code).toBe(3);
  });

  it('two reports of the same second get different names, both whole, with no temp file left', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-names-'));
    const report = readReport(join(ROOT, 'docs/examples/support-ops-rollback.report.json'), ROOT);
    const first = writeReport(dir, report);
    const second = writeReport(dir, report);
    expect(first).not.toBe(second);
    expect(second).toBe(first.replace(/\.json$/, '-2.json'));
    expect(readdirSync(dir).sort()).toEqual([first, second].map((f) => f.slice(dir.length + 1)).sort());
    for (const file of [first, second]) expect(readReport(file, dir).decision.verdict).toBe('Rollback');
    expect(reportFileName(dir, report)).toBe(first.replace(/\.json$/, '-3.json'));
  });
});
