import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/types.js';
import { ROOT, runCli } from '../helpers/cli.js';

/**
 * An error written as data, then flagged (audit/result-checks.ts, errorsFlaggedSince), on
 * test/fixtures/servers/flag-server.mjs: v1 answers "No project found in this folder" without
 * isError, and the recorded case expects no error. A release that flags the very same text fixes
 * the baseline's answer; one that flags another text changed what the call does.
 */
const CONFIG = join(ROOT, 'test/fixtures/servers/flag.config.yaml');

async function gate(candidate: string) {
  const result = await runCli(['run', '-c', CONFIG, '--candidate', candidate, '--format', 'json', '--quiet'], { timeoutMs: 60_000 });
  const report = JSON.parse(result.stdout) as Report;
  const findings = report.audit.findings.map((f) => [f.side, f.code, f.direction]);
  return { report, codes: report.decision.reasons.map((r) => r.code), findings };
}

describe('an error now flagged', () => {
  it('the same text, now isError: the baseline wrote an error as data, and the flag fixes it', async () => {
    const { report, codes, findings } = await gate('v2-flags');
    expect(codes).not.toContain('case-broken');
    expect(codes).not.toContain('result-error-flipped');
    expect(findings).toContainEqual(['baseline', 'error-not-flagged', 'fixed']);
    expect(report.decision.verdict).toBe('Promote');
  });

  it('another text, now isError: the call that answered fails, and its case is broken', async () => {
    const { report, codes, findings } = await gate('v2-other');
    expect(report.decision.verdict).toBe('Rollback');
    expect(codes).toEqual(expect.arrayContaining(['case-broken', 'result-error-flipped']));
    expect(findings.filter(([, code]) => code === 'error-not-flagged')).toEqual([]);
  });
});
