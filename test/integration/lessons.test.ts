import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/types.js';
import { runCli } from '../helpers/cli.js';

/** lessons-server.mjs, one release against another (real McpServer processes over stdio). */
async function gate(baseline: 'v1' | 'v2', candidate: 'v1' | 'v2', format = 'json'): Promise<Report & { text: string }> {
  const result = await runCli([
    'run',
    '-c',
    'test/fixtures/servers/lessons.config.yaml',
    '--baseline',
    baseline,
    '--candidate',
    candidate,
    '--report-dir',
    mkdtempSync(join(tmpdir(), 'mcp-gate-lessons-')),
    '--format',
    format,
    '--quiet',
  ]);
  return format === 'json'
    ? (JSON.parse(result.stdout) as Report & { text: string })
    : ({ text: result.stdout } as Report & { text: string });
}

const of = (report: Report, code: string) =>
  report.audit.findings.filter((f) => f.code === code).map((f) => [f.side, f.caseId, f.tool, f.direction ?? null]);
const reason = (report: Report, code: string) => report.decision.reasons.find((r) => r.code === code)?.action ?? null;

describe("the write-ups' lessons a second call or a second release shows", () => {
  it('v1 -> v2: an empty next page, a thinned result under a description that still promises it, a refused result with its path and keyword', async () => {
    const report = await gate('v1', 'v2');
    // The gate asks for the page the result claims: page 3 of list_notes, cursor tags-2 of list_tags.
    expect(of(report, 'pagination-next-page-empty')).toEqual([
      ['candidate', 'LS-notes-last-page', 'list_notes', 'new'],
      ['candidate', 'LS-tags', 'list_tags', 'new'],
    ]);
    expect(report.audit.findings.find((f) => f.code === 'pagination-next-page-empty')?.message).toContain('"page":3');
    expect(reason(report, 'pagination-next-page-empty')).toBe('hold');
    // get_note thinned under "full details"; get_task thinned too, but its description says so.
    expect(of(report, 'result-thinned-description-unchanged')).toEqual([['candidate', 'LS-note', 'get_note', 'new']]);
    expect(of(report, 'result-field-removed').map((f) => f[2])).toEqual(['get_note', 'get_note', 'get_task']);
    expect(reason(report, 'result-thinned-description-unchanged')).toBe('hold');
    // The SDK answered "Output validation error": read as structured-content-invalid, with the path and keyword.
    const invalid = report.audit.findings.filter((f) => f.code === 'structured-content-invalid');
    expect(invalid.map((f) => [f.side, f.tool, f.path, f.keyword])).toEqual([
      ['candidate', 'get_stats', '/structuredContent/count', 'type'],
    ]);
    expect(invalid[0]!.message).toContain('/structuredContent/owner fails "required"');
    expect(invalid[0]!.message).toContain('/structuredContent/count fails "type" ("integer")');
    // A resource is sized as a tool result is: over the budget, and grown.
    expect(of(report, 'result-too-large')).toEqual([['candidate', 'LS-export', 'notes://export', 'new']]);
    expect(of(report, 'result-size-regression')).toEqual([['candidate', 'LS-export', 'notes://export', 'new']]);
    // get_stats now answers an error, so its case breaks: a Rollback of its own.
    expect(report.decision.verdict).toBe('Rollback');
  });

  it('v2 -> v1: each is fixed, and the same release against itself has none of them', async () => {
    const fixed = await gate('v2', 'v1');
    expect(of(fixed, 'pagination-next-page-empty')).toEqual([
      ['baseline', 'LS-notes-last-page', 'list_notes', 'fixed'],
      ['baseline', 'LS-tags', 'list_tags', 'fixed'],
    ]);
    expect(of(fixed, 'structured-content-invalid')).toEqual([['baseline', 'LS-stats', 'get_stats', 'fixed']]);
    expect(of(fixed, 'result-thinned-description-unchanged')).toEqual([]);
    expect((await gate('v2', 'v1', 'markdown')).text).toMatch(
      /Fixed in this release: .*2 claimed next pages that came back empty.*1 result its own output schema refused/,
    );
    const same = await gate('v1', 'v1');
    expect(same.audit.findings.filter((f) => f.code !== 'tool-definition-cost').map((f) => f.code)).toEqual([]);
    expect(same.decision.verdict).toBe('Promote');
  });
});

describe('the lessons the gate missed before (docs/writeups-lessons.md)', () => {
  it('v1 -> v2: no instructions, an unbounded limit, excerpts without the query, orders in the text, an unlisted tool in any form', async () => {
    const report = await gate('v1', 'v2');
    const codes = (code: string) => of(report, code);
    expect(codes('instructions-missing')).toEqual([['candidate', undefined, null, 'new']]);
    expect(codes('list-limit-unbounded')).toEqual([['candidate', undefined, 'search_notes', 'new']]);
    expect(codes('search-excerpt-misses-query')).toEqual([['candidate', 'LS-search', 'search_notes', 'new']]);
    expect(codes('result-text-suspicious')).toEqual([['candidate', 'LS-owner', 'get_owner', 'new']]);
    expect(codes('tool-reference-missing')).toEqual([['candidate', undefined, 'analyze_weighted_subtraction', 'new']]);
    expect(
      ['instructions-missing', 'list-limit-unbounded', 'search-excerpt-misses-query', 'result-text-suspicious'].map((c) => [
        c,
        report.audit.findings.find((f) => f.code === c)?.severity,
        reason(report, c),
      ]),
    ).toEqual([
      ['instructions-missing', 'dangerous', null],
      ['list-limit-unbounded', 'dangerous', null],
      ['search-excerpt-misses-query', 'dangerous', null],
      ['result-text-suspicious', 'breaking', 'rollback'],
    ]);
    expect(report.audit.findings.find((f) => f.code === 'result-text-suspicious')?.message).toBe(
      'LS-owner get_owner: the text the model reads now contains an instruction to ignore previous instructions ("ignore prior instructions"), while structuredContent is unchanged: a result is data, and text in it that gives the model orders is read as orders.',
    );
    expect(report.audit.findings.find((f) => f.code === 'search-excerpt-misses-query')?.message).toBe(
      'LS-search search_notes: 10 of 10 hits show none of the words of "export late" in their "excerpt": the model gets hits that do not show why they matched. Centre each excerpt on the match.',
    );
  });

  it('v2 -> v1: each is listed as fixed', async () => {
    const report = await gate('v2', 'v1');
    const fixed = report.audit.findings.filter((f) => f.side === 'baseline' && f.direction === 'fixed').map((f) => f.code);
    expect(fixed).toEqual(
      expect.arrayContaining(['instructions-missing', 'list-limit-unbounded', 'search-excerpt-misses-query', 'tool-reference-missing']),
    );
    // Orders in the text are judged on the release that adds them; going back to plain text is no finding.
    expect(of(report, 'result-text-suspicious')).toEqual([]);
  });

  it('a case that needs a tool the server names but does not list runs, fails on both sides, and ends in a verdict, not exit 3', async () => {
    const run = await runCli([
      'run',
      '-c',
      'test/fixtures/servers/lessons.config.yaml',
      '--dataset',
      'test/fixtures/servers/lessons-coverage.cases.yaml',
      '--report-dir',
      mkdtempSync(join(tmpdir(), 'mcp-gate-lessons-')),
      '--format',
      'json',
      '--quiet',
    ]);
    expect(run.code).not.toBe(3);
    const report = JSON.parse(run.stdout) as Report;
    expect(of(report, 'tool-reference-missing')).toEqual([['candidate', undefined, 'analyze_weighted_subtraction', 'new']]);
    const weighted = report.candidate.caseResults.find((c) => c.id === 'LS-weighted')!;
    expect([weighted.status, weighted.failures.map((f) => f.code)]).toEqual(['failed', ['required-tool-missing']]);
    expect(weighted.failures[0]!.message).toContain('analyze_weighted_subtraction');
  });
});
