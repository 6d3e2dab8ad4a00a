import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import type { Report } from '../../src/report/types.js';

// The write-ups fixture (test/fixtures/servers/writeups-server.mjs, docs/writeups-lessons.md): one
// SDK server in three releases. before has every failure the three write-ups describe, after every
// fix they recommend, half some of them. What it proves: a team that follows the write-ups sees its
// release read as a fix, never as a Rollback.
const CONFIG = join(ROOT, 'test/fixtures/servers/writeups.config.yaml');

async function gate(baseline: string, candidate: string): Promise<{ code: number; report: Report; text: string; file: string }> {
  const env = { MCPGATE_BASELINE: baseline, MCPGATE_CANDIDATE: candidate };
  const json = await runCli(['run', '-c', CONFIG, '--format', 'json', '--quiet'], { env });
  const report = JSON.parse(json.stdout) as Report;
  const file = join(mkdtempSync(join(tmpdir(), 'mcp-gate-writeups-')), 'report.json');
  writeFileSync(file, json.stdout);
  const text = await runCli(['show', file, '--format', 'markdown']);
  return { code: json.code ?? -1, report, text: text.stdout, file };
}

const fixed = (r: Report) => r.audit.findings.filter((f) => f.side === 'baseline' && f.direction === 'fixed').map((f) => f.code);
const newOnes = (r: Report) => r.audit.findings.filter((f) => f.side === 'candidate' && f.direction === 'new').map((f) => f.code);

describe('the write-ups fixture: fixes read as fixes', { timeout: 60_000 }, () => {
  it('before -> after: at most Hold, and every fix is listed as fixed', async () => {
    const { code, report, text } = await gate('before', 'after');
    expect(report.decision.verdict).toBe('Hold');
    expect(code).toBe(2);
    expect(report.decision.reasons.filter((r) => r.action === 'rollback')).toEqual([]);
    expect(new Set(fixed(report))).toEqual(
      new Set([
        'pagination-hint-hidden',
        'error-not-flagged',
        'result-too-large',
        'result-pretty-json',
        'structured-content-without-text',
        'structured-content-invalid',
        'annotations-missing',
        'open-world-hint-missing',
        'parameter-description-missing',
        'description-weak',
        'tool-reference-missing',
        // get_bug's null keys, in the one object that also holds its console and network lists.
        'result-null-fields',
        'instructions-missing',
        'list-limit-unbounded',
        'result-upstream-envelope',
        // Each id argument names the tool it comes from in after.
        'id-source-missing',
        // search_bugs' hits carry a bounded excerpt, no longer the whole description.
        'search-excerpt-raw',
        // list_posts and search_posts, which said the same and never when to use the other.
        'confusable-descriptions',
      ]),
    );
    // Their removal is that fix, not a field gone; and the loosened output schemas are the repair.
    const bugFields = report.audit.findings.filter((f) => f.code === 'result-field-removed' && f.caseId === 'WU-bug');
    expect(bugFields).toEqual([]);
    expect(report.decision.reasons.find((r) => r.code === 'output-property-removed')?.message).toMatch(
      /; held: part of a fix for structured-content-invalid\.$/,
    );
    // The fixes are not drift: no error flipped, no size regression, no hidden page signal on the candidate.
    expect(newOnes(report)).not.toContain('result-error-flipped');
    expect(newOnes(report)).not.toContain('result-size-regression');
    expect(newOnes(report)).not.toContain('pagination-hint-hidden');
    expect(text).toContain('Fixed in this release: ');
    expect(text).toMatch(/2 hidden next-page signals/);
    expect(text).toMatch(/2 errors not flagged/);
  });

  it('every format shows what the release fixed', async () => {
    const { file } = await gate('before', 'after');
    const show = async (format: string) => (await runCli(['show', file, '--format', format])).stdout;
    expect(await show('text')).toContain('Fixed in this release: ');
    expect(await show('junit')).toContain('fixed: 2 errors not flagged (error-not-flagged)');
    const sarif = JSON.parse(await show('sarif')) as { runs: { results: { kind?: string; ruleId: string }[] }[] };
    expect(sarif.runs[0]!.results.filter((r) => r.kind === 'pass').map((r) => r.ruleId)).toContain('pagination-hint-hidden');
    expect(await show('html')).toContain('Fixed in this release: ');
  });

  it('after -> before: Rollback, naming what comes back', async () => {
    const { code, report } = await gate('after', 'before');
    expect([report.decision.verdict, code]).toEqual(['Rollback', 1]);
    expect(report.decision.reasons.map((r) => r.code)).toEqual(
      expect.arrayContaining(['output-schema-removed', 'error-not-flagged', 'pagination-hint-hidden', 'structured-content-invalid']),
    );
  });

  it('after -> after: Promote, with no change and no audit finding beyond the definition cost', async () => {
    const { code, report } = await gate('after', 'after');
    expect([report.decision.verdict, code]).toEqual(['Promote', 0]);
    expect(report.diff.changes).toEqual([]);
    expect(report.audit.findings.filter((f) => f.code !== 'tool-definition-cost')).toEqual([]);
  });

  it('before -> half: held, with what half fixed listed and what it still lacks reported', async () => {
    const { report } = await gate('before', 'half');
    expect(report.decision.verdict).toBe('Hold');
    expect(fixed(report)).toContain('error-not-flagged');
    expect(fixed(report)).toContain('pagination-hint-hidden');
    // Thin records while the descriptions still promise "full details" (lesson 24). list_bugs changes
    // shape as well (the REST envelope goes, result-content-moved): its records are read through it.
    const thinned = report.audit.findings.filter((f) => f.code === 'result-thinned-description-unchanged').map((f) => f.tool);
    expect(thinned).toEqual(['list_bugs', 'list_changelogs', 'list_posts']);
    // Half flags its errors but keeps their bodies in structuredContent, which fails the output
    // schemas it now advertises: the SDK 1.x client throws on both (lessons 13 and 14).
    const refused = report.audit.findings.filter((f) => f.code === 'client-rejects-result').map((f) => [f.tool, f.caseId, f.direction]);
    expect(refused).toEqual([
      ['list_post_upvoters', 'WU-upvoters-forbidden', 'new'],
      ['get_bug', 'WU-bug-missing', 'new'],
    ]);
  });
});
