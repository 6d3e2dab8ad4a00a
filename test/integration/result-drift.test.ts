import { readFileSync, writeFileSync, mkdtempSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/types.js';
import { ROOT, runCli } from '../helpers/cli.js';

/** results-server.mjs v1 and v2 (real McpServer processes over stdio), with the dataset edited by `edit`. */
async function gate(candidate: 'v1' | 'v2', edit: (text: string) => string = (t) => t): Promise<Report> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-drift-'));
  cpSync(join(ROOT, 'test/fixtures/servers/results.config.yaml'), join(dir, 'results.config.yaml'));
  writeFileSync(join(dir, 'results.cases.yaml'), edit(readFileSync(join(ROOT, 'test/fixtures/servers/results.cases.yaml'), 'utf8')));
  // The fixture imports the SDK: run it from where node_modules is found.
  writeFileSync(
    join(dir, 'results.config.yaml'),
    readFileSync(join(dir, 'results.config.yaml'), 'utf8').replace(
      /results-server\.mjs/g,
      join(ROOT, 'test/fixtures/servers/results-server.mjs'),
    ),
  );
  const result = await runCli([
    'run',
    '-c',
    join(dir, 'results.config.yaml'),
    '--candidate',
    candidate,
    '--report-dir',
    join(dir, 'reports'),
    '--format',
    'json',
    '--quiet',
  ]);
  return JSON.parse(result.stdout) as Report;
}

const drift = (report: Report) =>
  report.audit.findings.filter((f) => f.path !== undefined).map((f) => [f.code, f.caseId, f.path, f.regression]);

describe("what the candidate returns, against the baseline's result for the same probe", () => {
  it('a field removed, a type changed, a list emptied, the data moved, an error returned: each with its JSON pointer, each held', async () => {
    const report = await gate('v2');
    expect(drift(report)).toEqual([
      ['result-field-removed', 'RS-list', '/structuredContent/count', true],
      ['result-type-changed', 'RS-list', '/structuredContent/orders/0/total', true],
      ['result-list-emptied', 'RS-open', '/structuredContent/orders', true],
      ['result-content-moved', 'RS-summary', '/structuredContent', true],
      ['result-error-flipped', 'RS-get', '/isError', true],
    ]);
    const held = report.decision.reasons.filter((r) => r.code.startsWith('result-')).map((r) => [r.code, r.action]);
    expect(held).toEqual([
      ['result-field-removed', 'hold'],
      ['result-type-changed', 'hold'],
      ['result-list-emptied', 'hold'],
      ['result-error-flipped', 'hold'],
      ['result-content-moved', 'hold'],
    ]);
  });

  it('the same release against itself: values differ (a timestamp), nothing is reported', async () => {
    const report = await gate('v1');
    expect(drift(report)).toEqual([]);
    expect(report.decision.verdict).toBe('Promote');
  });

  it('a pointer the dataset marks volatile is left out; without the mark, the same field is a type change', async () => {
    const report = await gate('v2', (t) => t.replace('        volatile: [/orders/*/updatedAt]\n', ''));
    expect(drift(report).filter(([, caseId]) => caseId === 'RS-list')).toEqual([
      ['result-field-removed', 'RS-list', '/structuredContent/count', true],
      ['result-type-changed', 'RS-list', '/structuredContent/orders/0/total', true],
      ['result-type-changed', 'RS-list', '/structuredContent/orders/0/updatedAt', true],
    ]);
  });
});
