import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { annotations, MAX_ANNOTATIONS, type Locator } from '../../src/action/annotations.js';
import type { Report } from '../../src/report/types.js';
import { ROOT } from '../helpers/cli.js';

/** The committed example report (docs/examples), with `broken` more failed cases. */
function reportWithBrokenCases(broken: number): Report {
  const report = JSON.parse(readFileSync(join(ROOT, 'docs/examples/support-ops-rollback.report.json'), 'utf8')) as Report;
  const failed = report.candidate.caseResults.find((c) => c.status === 'failed')!;
  for (let i = 0; i < broken; i++) report.candidate.caseResults.push({ ...failed, id: `EXTRA-${i}` });
  return report;
}

describe('workflow annotations', () => {
  it('places only the annotations it shows: finding a line can mean reading a dataset', () => {
    const asked: string[] = [];
    const locate: Locator = {
      caseLine: (dataset, id) => {
        asked.push(id);
        return { file: dataset, line: 10 + asked.length };
      },
      toolLine: () => null,
    };
    const report = reportWithBrokenCases(500);
    const lines = annotations(report, locate);
    expect(lines).toHaveLength(MAX_ANNOTATIONS + 1);
    expect(lines.at(-1)).toMatch(/^::notice title=mcp-gate::\d+ more annotations left out/);
    // Errors lead: the diff changes behind a rollback reason, then broken cases, up to the cap.
    // Every case shown was placed, and no case past the cap was looked up.
    const rollback = new Set(report.decision.reasons.filter((r) => r.action === 'rollback').map((r) => r.code));
    const breaking = report.diff.changes.filter((c) => rollback.has(c.code)).length;
    const placed = lines.filter((l) => /^::error file=datasets\/support-ops\.cases\.yaml,line=\d+,title=mcp-gate case /.test(l));
    expect(placed).toHaveLength(MAX_ANNOTATIONS - breaking);
    expect(asked).toHaveLength(MAX_ANNOTATIONS - breaking);
  });
});

describe('annotation levels follow the verdict', () => {
  const none: Locator = { caseLine: () => null, toolLine: () => null };
  const levels = (lines: string[], title: string) =>
    lines.filter((l) => l.includes(`title=${title}`)).map((l) => l.slice(2, l.indexOf(' ')));

  it('error for what rolls back, warning for what holds, notice for what the policy ignores', () => {
    const report = reportWithBrokenCases(0);
    // The same breaking change, judged hold by a rule: a warning, not an error; a code with no reason: a notice.
    report.decision.reasons = report.decision.reasons.map((r) =>
      r.code === 'required-argument-removed' ? { ...r, action: 'hold' as const } : r,
    );
    report.decision.reasons = report.decision.reasons.filter((r) => r.code !== 'tool-added-destructive');
    const lines = annotations(report, none);
    expect(levels(lines, 'mcp-gate required-argument-removed')).toEqual(['warning']);
    expect(levels(lines, 'mcp-gate tool-added-destructive')).toEqual(['notice']);
    expect(levels(lines, 'mcp-gate case TG-001 broken')).toEqual(['error']);
  });

  it('the policy Hold is a warning at each file it names, never only a notice', () => {
    const report = reportWithBrokenCases(0);
    report.diff.changes = [];
    report.candidate.caseResults = [];
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
    const lines = annotations(report, none);
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
    report.decision = {
      verdict: 'Rollback',
      reasons: [{ code: 'candidate-unavailable', action: 'rollback', count: 1, message: 'The candidate did not start.', tools: [] }],
      exceptionsApplied: [],
    };
    expect(annotations(report, none)).toEqual(['::error title=mcp-gate candidate-unavailable::The candidate did not start.']);
  });
});
