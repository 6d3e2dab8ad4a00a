import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseTotals } from '../../src/cases/replay.js';
import type { CaseResult } from '../../src/cases/types.js';
import { passRateText } from '../../src/report/case-tally.js';
import { renderJunit } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderText } from '../../src/report/text.js';
import type { Report } from '../../src/report/types.js';
import { ROOT } from '../helpers/cli.js';
import { readReportFile } from '../helpers/report.js';

const rollback = readReportFile(join(ROOT, 'docs/examples/support-ops-rollback.report.json'));

const skip = (result: CaseResult, reason: string): CaseResult => ({
  ...result,
  status: 'skipped',
  passed: false,
  failures: [],
  probes: result.probes.map((p) => ({
    ...p,
    status: 'skipped',
    reason,
    isError: null,
    durationMs: null,
    resultBytes: null,
    textBytes: null,
  })),
  regression: undefined,
});
const pass = (result: CaseResult): CaseResult => ({ ...result, status: 'passed', passed: true, failures: [], regression: undefined });

/** A first success as `init` leaves it: the baseline a snapshot (its cases skipped), every candidate case passing. */
function firstSuccess(): Report {
  const report = structuredClone(rollback);
  report.baseline.caseResults = report.baseline.caseResults.map((r) => skip(r, 'the baseline is a snapshot: nothing to call'));
  report.baseline.cases = caseTotals(report.baseline.caseResults);
  report.candidate.caseResults = report.candidate.caseResults.map(pass);
  report.candidate.cases = caseTotals(report.candidate.caseResults);
  report.decision = { verdict: 'Promote', reasons: [], exceptionsApplied: [] };
  report.diff.changes = [];
  return report;
}

describe('skipped cases are not failures', () => {
  it('the pass rate counts the cases that ran; skipped ones are named apart', () => {
    expect(passRateText({ total: 3, passed: 0, failed: 0, skipped: 3, passRate: 0 })).toBe('none run (3 skipped)');
    expect(passRateText({ total: 3, passed: 2, failed: 0, skipped: 1, passRate: 2 / 3 })).toBe('100% (2/2, 1 skipped)');
    expect(passRateText({ total: 3, passed: 1, failed: 2, skipped: 0, passRate: 1 / 3 })).toBe('33% (1/3)');
    expect(passRateText({ total: 0, passed: 0, failed: 0, skipped: 0, passRate: null })).toBe('n/a (no cases)');
  });

  it('text: no "Case failures" heading and no 0% for a snapshot baseline; the skips are listed as skipped', () => {
    const text = renderText(firstSuccess());
    expect(text).not.toContain('Case failures');
    expect(text).not.toMatch(/0% \(0\//);
    expect(text).toMatch(/pass rate\s+none run \(3 skipped\)\s+100% \(3\/3\)/);
    expect(text).toContain('Cases skipped (not run, not failed)');
    expect(text).toContain('  baseline TG-001: the baseline is a snapshot: nothing to call');
    // A real failure still has its heading, and is not listed as skipped.
    const failing = renderText(rollback);
    expect(failing).toContain('Case failures');
    expect(failing).not.toContain('Cases skipped');
  });

  it('markdown: the pass rate over the cases that ran, and the skip reason under its own column name', () => {
    const markdown = renderMarkdown(firstSuccess());
    expect(markdown).toContain('baseline none run (3 skipped), candidate 100% (3/3)');
    expect(markdown).not.toMatch(/0% \(0\//);
    expect(markdown).toContain('candidate: why it failed or was skipped');
  });

  it('junit: skipped candidate cases are <skipped>, never failures', () => {
    const report = firstSuccess();
    report.candidate.caseResults = report.candidate.caseResults.map((r) => skip(r, 'not read-only; allowSideEffects is off'));
    report.candidate.cases = caseTotals(report.candidate.caseResults);
    const xml = renderJunit(report);
    expect(xml).toMatch(/<testsuites name="mcp-gate" tests="\d+" failures="0" errors="0" skipped="3"/);
    expect(xml).toContain('<skipped message="not read-only; allowSideEffects is off"/>');
  });
});
