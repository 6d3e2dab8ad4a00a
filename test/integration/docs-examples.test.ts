import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/report/markdown.js';
import type { Report } from '../../src/report/types.js';
import { ROOT, runCli, scratchProject } from '../helpers/cli.js';
import { readReportFile, stable } from '../helpers/report.js';

/**
 * docs/examples holds the example's Rollback report and its markdown, as a PR comment shows it.
 * They are kept current here: a fresh run must give the same report (times aside) and the same
 * markdown. After an intended change, regenerate them with UPDATE_DOCS=1 npx vitest run <this file>.
 */
const REPORT = join(ROOT, 'docs/examples/support-ops-rollback.report.json');
const MARKDOWN = join(ROOT, 'docs/examples/support-ops-rollback.md');
const update = process.env.UPDATE_DOCS === '1';

let fresh: Report;
let saved: string;

beforeAll(async () => {
  const dir = scratchProject();
  const result = await runCli(['run', '--format', 'json', '--quiet'], { cwd: dir });
  expect(result.code).toBe(1);
  fresh = JSON.parse(result.stdout) as Report;
  saved = join(dir, 'reports', (await import('node:fs')).readdirSync(join(dir, 'reports'))[0]!);
  // The scratch project tags its servers' args; the committed example is run from the repository.
  fresh = JSON.parse(JSON.stringify(fresh).replaceAll(dir, '.')) as Report;
  if (update) writeFileSync(REPORT, `${JSON.stringify(fresh, null, 2)}\n`);
});

describe('the documented example stays current', () => {
  it('the committed report equals a fresh run once times are removed', () => {
    expect(stable(readReportFile(REPORT))).toEqual(stable(fresh));
  });

  it('the committed markdown is what the committed report renders to', () => {
    const markdown = renderMarkdown(readReportFile(REPORT), { approveLabel: 'mcp-gate-approved' });
    if (update) writeFileSync(MARKDOWN, markdown);
    expect(readFileSync(MARKDOWN, 'utf8')).toBe(markdown);
  });

  it('show renders the saved report with the same verdict and reasons as the run that wrote it', async () => {
    const shown = await runCli(['show', saved, '--format', 'json']);
    expect(shown.code).toBe(0);
    const report = JSON.parse(shown.stdout) as Report;
    expect(report.decision).toEqual(fresh.decision);
    const text = await runCli(['show', saved]);
    expect(text.stdout).toContain('Decision: Rollback');
    for (const reason of fresh.decision.reasons) expect(text.stdout).toContain(`[${reason.action}] ${reason.code}: ${reason.message}`);
  });
});
