import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import type { Report } from '../../src/report/types.js';

/**
 * A baseline that cannot start (docs/baselines.md, "A baseline that cannot start"): a broken
 * release would block the gating of its own fix. The fixture crashes on every start with CRASH=1,
 * as a release missing a dependency does.
 */
const SERVER = join(ROOT, 'test/fixtures/servers/lock-server.mjs');

function project(fallback: string | null): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-fallback-'));
  const server = `command: node, args: [${SERVER}, --tag=${dir}]`;
  writeFileSync(
    join(dir, 'gate.config.yaml'),
    [
      'version: 1',
      'profiles:',
      `  baseline: { ${server}, env: { CRASH: "\${CRASH}" }${fallback ? `, fallback: ${fallback}` : ''} }`,
      `  candidate: { ${server} }`,
      'baseline: baseline',
      'candidate: candidate',
      'timeouts: { startupMs: 10000, requestMs: 10000, runMs: 60000, killGraceMs: 500 }',
      '',
    ].join('\n'),
  );
  return dir;
}

const gate = (dir: string, crash: boolean) =>
  runCli(['run', '--format', 'json'], { cwd: dir, env: { CRASH: crash ? '1' : '0' }, timeoutMs: 60_000 });
const reports = (dir: string) =>
  readdirSync(join(dir, 'reports'))
    .filter((n) => n.endsWith('.json'))
    .sort();

describe('a baseline that cannot start', { timeout: 90_000 }, () => {
  it('fallback none (the default): exit 3, as before', async () => {
    const dir = project(null);
    const result = await gate(dir, true);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('cannot decide: baseline profile "baseline" is unavailable');
    expect(result.stderr).toContain("Cannot find package 'pkce-challenge'");
    // What a person can do about it is said (the twentieth held-out set's FU18: a release whose
    // baseline no longer starts from a fresh install).
    expect(result.stderr).toContain('the profile sets no fallback: `fallback: last-report` lets the contract');
  });

  it('fallback empty: Hold (baseline-fallback), the candidate compared with an empty server, said in every format', async () => {
    const dir = project('empty');
    const result = await gate(dir, true);
    expect(result.code, result.stderr).toBe(2);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.baseline.fallback).toMatchObject({ kind: 'empty', report: null, reason: { phase: 'initialize' } });
    expect(report.baseline.available).toBe(false);
    expect(report.baseline.toolCount).toBe(0);
    expect(report.decision.reasons.map((r) => [r.code, r.action])).toEqual([['baseline-fallback', 'hold']]);
    expect(report.diff.changes.map((c) => c.code)).toEqual(['tool-added']);
    expect(result.stderr).toContain('fallback empty: an empty server stands in (baseline-fallback)');
    const saved = join(dir, 'reports', reports(dir)[0]!);
    for (const format of ['text', 'markdown', 'json', 'junit', 'sarif', 'html']) {
      const shown = await runCli(['show', saved, '--format', format], { cwd: dir });
      expect(shown.code, `${format}: ${shown.stderr}`).toBe(0);
      expect(shown.stdout, format).toContain('baseline-fallback');
      if (format !== 'json') expect(shown.stdout, format).toMatch(/Baseline fallback used|baseline-fallback/);
    }
    const text = await runCli(['show', saved, '--format', 'text'], { cwd: dir });
    expect(text.stdout).toContain('Baseline fallback used (empty): the candidate was compared with an empty server');
  });

  it("fallback last-report: the same profile's contract from the newest saved report where it started", async () => {
    const dir = project('last-report');
    const none = await gate(dir, true);
    expect(none.code).toBe(3);
    expect(none.stderr).toContain('its fallback, last-report, found no saved report in reports where baseline profile "baseline" started');
    const good = await gate(dir, false);
    expect(good.code, good.stderr).toBe(0);
    const [first] = reports(dir);
    const broken = await gate(dir, true);
    expect(broken.code, broken.stderr).toBe(2);
    const report = JSON.parse(broken.stdout) as Report;
    expect(report.baseline.fallback).toMatchObject({ kind: 'last-report', report: `reports/${first}` });
    expect(report.baseline.tools.map((t) => t.name)).toEqual(['Lock.Holder']);
    expect(report.diff.changes).toEqual([]);
    expect(report.decision.reasons.map((r) => r.code)).toEqual(['baseline-fallback']);
    expect(report.decision.reasons[0]!.message).toContain(`its contract in the saved report reports/${first}`);
    // A report that ran on a fallback is never the next one's fallback.
    const again = await gate(dir, true);
    expect((JSON.parse(again.stdout) as Report).baseline.fallback!.report).toBe(`reports/${first}`);
  });
});
