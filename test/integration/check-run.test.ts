import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderReport, unsupported } from '../../src/report/formats.js';
import type { Report } from '../../src/report/types.js';
import { ROOT, runCli, scratchProject, snapshotBaseline } from '../helpers/cli.js';

interface CheckRun {
  name: string;
  head_sha?: string;
  conclusion: string;
  output: {
    title: string;
    summary: string;
    annotations: { path: string; start_line: number; end_line: number; annotation_level: string; message: string; title: string }[];
  };
}

const checkRun = (report: Report, options = {}) => JSON.parse(renderReport(report, 'check-run', options)) as CheckRun;
const example = () => JSON.parse(readFileSync(join(ROOT, 'docs/examples/support-ops-rollback.report.json'), 'utf8')) as Report;

describe('--format check-run: a saved report, shown as a check run, annotated where datasets and snapshots say', () => {
  let dir: string;
  let shown: CheckRun;
  const lineIn = (file: string, needle: string) =>
    readFileSync(join(dir, file), 'utf8')
      .split('\n')
      .findIndex((l) => l.includes(needle)) + 1;

  beforeAll(async () => {
    // The example's Rollback against a committed snapshot of its baseline.
    dir = scratchProject();
    await snapshotBaseline(dir);
    const run = await runCli(['run', '--format', 'json', '--quiet'], { cwd: dir });
    expect(run.code, run.stderr).toBe(1);
    const saved = join(
      dir,
      'reports',
      readdirSync(join(dir, 'reports')).find((f) => f.endsWith('.json'))!,
    );
    const show = await runCli(['show', saved, '--format', 'check-run'], { cwd: dir });
    expect(show.code, show.stderr).toBe(0);
    shown = JSON.parse(show.stdout) as CheckRun;
  }, 60_000);

  it("is a check run's payload: its name, the verdict as its conclusion, the reasons in its summary", () => {
    expect([shown.name, shown.conclusion, shown.head_sha]).toEqual(['mcp-gate', 'failure', undefined]);
    expect(shown.output.title).toMatch(/^Rollback: /);
    expect(shown.output.summary).toContain('`required-argument-removed`');
  });

  it("places a broken case at its id in the dataset, and a change at the tool's line in the snapshot", () => {
    const at = (title: string) =>
      shown.output.annotations.filter((a) => a.title === title).map((a) => [a.path, a.start_line, a.annotation_level]);
    expect(at('mcp-gate case TG-001 broken')).toEqual([
      ['datasets/support-ops.cases.yaml', lineIn('datasets/support-ops.cases.yaml', 'id: TG-001'), 'failure'],
    ]);
    expect(at('mcp-gate required-argument-removed')).toEqual([
      ['contracts/baseline.json', lineIn('contracts/baseline.json', '"name": "Incident.Declare"'), 'failure'],
    ]);
    for (const a of shown.output.annotations) expect(a.end_line).toBe(a.start_line);
  });
});

describe('check-run, from a report alone', () => {
  it('takes at most 50 annotations, as GitHub takes in one request, and counts the rest in the summary', () => {
    const report = example();
    const failed = report.candidate.caseResults.find((c) => c.status === 'failed')!;
    for (let i = 0; i < 80; i++)
      report.candidate.caseResults.push({ ...failed, id: `EXTRA-${i}`, source: { file: failed.dataset, line: 9 } });
    const run = checkRun(report, { headSha: 'abc123' });
    expect([run.head_sha, run.output.annotations.length]).toEqual(['abc123', 50]);
    expect(run.output.summary).toMatch(/\d+ more items are not placed beside the code here/);
  });

  it('gives Hold as action_required and Promote as success, and names files from the repository root', () => {
    const report = example();
    report.decision = {
      ...report.decision,
      verdict: 'Hold',
      reasons: report.decision.reasons.map((r) => ({ ...r, action: 'hold' as const })),
    };
    const held = checkRun(report, { sourceRoot: 'servers/ops' });
    expect(held.conclusion).toBe('action_required');
    expect(new Set(held.output.annotations.map((a) => a.annotation_level))).toEqual(new Set(['warning']));
    expect(held.output.annotations.map((a) => a.path)).toContain('servers/ops/datasets/support-ops.cases.yaml');
    report.decision = { ...report.decision, verdict: 'Promote', reasons: [] };
    expect(checkRun(report).conclusion).toBe('success');
  });

  it('keeps server text inert: no escape sequence, mention or markdown of a server acts', () => {
    const report = example();
    const hostile = '\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007 @admin **bold** [x](https://evil.example)\n::error::forged';
    report.diff.changes[0] = { ...report.diff.changes[0]!, message: hostile, source: { file: 'contracts/b.json', line: 3 } };
    report.decision.reasons[0] = { ...report.decision.reasons[0]!, message: hostile };
    const text = renderReport(report, 'check-run');
    expect(text).not.toContain('\u001b');
    const run = JSON.parse(text) as CheckRun;
    const annotation = run.output.annotations.find((a) => a.path === 'contracts/b.json')!;
    expect(annotation.message).toContain('\\u{1B}]8;;https://evil.example');
    // The summary is markdown: mentions broken, emphasis and links escaped to show as text.
    expect(run.output.summary).not.toMatch(/@admin|[^\\]\*\*bold|[^\\]\[x/);
    expect(run.output.summary).toContain('@&#8203;admin \\*\\*bold\\*\\* \\[x\\]');
  });

  it('has no form for a bundle summary or the history, and says why', () => {
    expect(unsupported('bundle', 'check-run')).toMatch(/--format check-run/);
    expect(unsupported('history', 'check-run')).toMatch(/--format check-run/);
  });
});
