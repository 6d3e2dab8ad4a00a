import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderReport } from '../../src/report/formats.js';
import { MAX_WORKFLOW_ANNOTATIONS } from '../../src/report/workflow-commands.js';
import type { Report } from '../../src/report/types.js';
import { ROOT } from '../helpers/cli.js';

/** The committed example report (docs/examples), with `broken` more failed cases. */
function reportWithBrokenCases(broken: number): Report {
  const report = JSON.parse(readFileSync(join(ROOT, 'docs/examples/support-ops-rollback.report.json'), 'utf8')) as Report;
  const failed = report.candidate.caseResults.find((c) => c.status === 'failed')!;
  for (let i = 0; i < broken; i++)
    report.candidate.caseResults.push({ ...failed, id: `EXTRA-${i}`, source: { file: failed.dataset, line: 100 + i } });
  return report;
}

const annotations = (report: Report, sourceRoot?: string) =>
  renderReport(report, 'workflow-annotations', sourceRoot === undefined ? {} : { sourceRoot })
    .split('\n')
    .filter(Boolean);

describe('workflow annotations', () => {
  it('are placed where the report says each case comes from, without reading any file; past the cap, one notice counts the rest', () => {
    const report = reportWithBrokenCases(500);
    const lines = annotations(report);
    expect(lines).toHaveLength(MAX_WORKFLOW_ANNOTATIONS + 1);
    expect(lines.at(-1)).toMatch(/^::notice title=mcp-gate::\d+ more annotations left out/);
    // Errors lead: the diff changes behind a rollback reason, then broken cases, up to the cap, each at its own line.
    const rollback = new Set(report.decision.reasons.filter((r) => r.action === 'rollback').map((r) => r.code));
    const breaking = report.diff.changes.filter((c) => rollback.has(c.code)).length;
    const placed = lines.filter((l) => /^::error file=datasets\/support-ops\.cases\.yaml,line=\d+,title=mcp-gate case /.test(l));
    expect(placed).toHaveLength(MAX_WORKFLOW_ANNOTATIONS - breaking);
    const lineOf = new Map(report.candidate.caseResults.map((c) => [c.id, c.source!.line]));
    for (const line of placed) expect(line).toMatch(new RegExp(`line=${lineOf.get(/case (\S+) broken/.exec(line)![1]!)},`));
    expect(placed.at(-1)).toMatch(/case EXTRA-\d+ broken/);
  });

  it('name files from the repository root when the run worked in a folder of it, and place nothing a report does not place', () => {
    const report = reportWithBrokenCases(0);
    const [tg001] = report.candidate.caseResults.filter((c) => c.id === 'TG-001');
    expect(tg001!.source).toEqual({ file: 'datasets/support-ops.cases.yaml', line: 6 });
    expect(annotations(report, 'servers/ops')).toContainEqual(
      '::error file=servers/ops/datasets/support-ops.cases.yaml,line=6,title=mcp-gate case TG-001 broken::forbidden tool Deployments.Rollback is exposed',
    );
    for (const c of report.candidate.caseResults) delete c.source;
    expect(annotations(report).filter((l) => l.includes('case TG-001'))).toEqual([
      '::error title=mcp-gate case TG-001 broken::forbidden tool Deployments.Rollback is exposed',
    ]);
  });
});

describe('annotation levels follow the verdict', () => {
  const levels = (lines: string[], title: string) =>
    lines.filter((l) => l.includes(`title=${title}`)).map((l) => l.slice(2, l.indexOf(' ')));

  it('error for what rolls back, warning for what holds, notice for what the policy ignores', () => {
    const report = reportWithBrokenCases(0);
    // The same breaking change, judged hold by a rule: a warning, not an error; a code with no reason: a notice.
    report.decision.reasons = report.decision.reasons.map((r) =>
      r.code === 'required-argument-removed' ? { ...r, action: 'hold' as const } : r,
    );
    report.decision.reasons = report.decision.reasons.filter((r) => r.code !== 'tool-added-destructive');
    const lines = annotations(report);
    expect(levels(lines, 'mcp-gate required-argument-removed')).toEqual(['warning']);
    expect(levels(lines, 'mcp-gate tool-added-destructive')).toEqual(['notice']);
    expect(levels(lines, 'mcp-gate case TG-001 broken')).toEqual(['error']);
  });

  it('the policy Hold is a warning at each file it names, never only a notice', () => {
    const report = reportWithBrokenCases(0);
    report.diff.changes = [];
    report.candidate.caseResults = [];
    report.audit.findings = [];
    report.decision = {
      verdict: 'Hold',
      reasons: [
        { code: 'gate-policy-changed', action: 'hold', count: 1, message: 'policy changed: gate.config.yaml (changed)', tools: [] },
      ],
      exceptionsApplied: [],
    };
    report.policy = {
      base: 'abc',
      files: [
        { file: '.github/workflows/gate.yml', change: 'changed' },
        { file: 'gate.config.yaml', change: 'changed' },
      ],
    };
    const lines = annotations(report);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^::warning file=\.github\/workflows\/gate\.yml,title=mcp-gate gate-policy-changed%3A \.github\/workflows\/gate\.yml \(changed\)::/,
    );
    expect(lines[1]).toMatch(/^::warning file=gate\.config\.yaml,/);
  });

  it('a run-level reason with nothing to place still gets its own annotation, at its level', () => {
    const report = reportWithBrokenCases(0);
    report.diff.changes = [];
    report.candidate.caseResults = [];
    report.audit.findings = [];
    report.decision = {
      verdict: 'Rollback',
      reasons: [{ code: 'candidate-unavailable', action: 'rollback', count: 1, message: 'The candidate did not start.', tools: [] }],
      exceptionsApplied: [],
    };
    expect(annotations(report)).toEqual(['::error title=mcp-gate candidate-unavailable::The candidate did not start.']);
  });
});
