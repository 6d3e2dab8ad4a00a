import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { freePort } from '../helpers/http.js';
import { processesMatching } from '../helpers/processes.js';
import type { Report } from '../../src/report/types.js';

// A real published server (server-everything from npm) over streamable HTTP and SSE, started by the
// profile on a free port (PORT), gated against the same release over stdio.
const CONFIG = join(ROOT, 'test/fixtures/published/http.config.yaml');
const gate = async (args: string[]) => {
  const result = await runCli(['-c', CONFIG, '--format', 'json', '--quiet', ...args], {
    env: { EVERYTHING_PORT: String(await freePort()) },
    timeoutMs: 60_000,
  });
  let report: Report;
  try {
    report = JSON.parse(result.stdout) as Report;
  } catch {
    throw new Error(`no JSON report (exit ${result.code}):\n${result.stderr.slice(0, 2000)}`);
  }
  return { code: result.code, report };
};
const essence = (report: Report) => ({
  tools: report.candidate.tools,
  changes: report.diff.changes.map((c) => [c.code, c.severity, c.tool]),
  cases: report.candidate.caseResults.map((c) => [c.id, c.status]),
  verdict: report.decision.verdict,
});

describe('server-everything 2026.1.14 over HTTP and SSE against itself over stdio', () => {
  afterAll(() => {
    expect(processesMatching('--tag=everything-published-http')).toEqual([]);
  });

  it('streamable HTTP: the same 12 tools, no change, cases pass on both sides: Promote', async () => {
    const { code, report } = await gate(['run']);
    expect(report.candidate.transport).toBe('http');
    expect(report.candidate.server).toMatchObject({ name: 'mcp-servers/everything', version: '2.0.0', protocolVersion: '2025-11-25' });
    expect([report.baseline.toolCount, report.candidate.toolCount]).toEqual([12, 12]);
    expect(report.candidate.contractHash).toBe(report.baseline.contractHash);
    expect(report.diff.changes).toEqual([]);
    expect(report.candidate.cases).toMatchObject({ total: 2, passed: 2 });
    expect(report.decision).toMatchObject({ verdict: 'Promote', reasons: [] });
    expect(code).toBe(0);
  });

  it('legacy SSE: the same contract and verdict', async () => {
    const { code, report } = await gate(['run', '--candidate', 'everything-2026.1.14-sse']);
    expect(report.candidate.transport).toBe('sse');
    expect(report.candidate.contractHash).toBe(report.baseline.contractHash);
    expect(report.candidate.cases).toMatchObject({ total: 2, passed: 2 });
    expect(report.decision.verdict).toBe('Promote');
    expect(code).toBe(0);
  });

  it('real drift reads the same over HTTP as over stdio: 2025.12.18 (stdio) -> 2026.1.14', async () => {
    const overHttp = await gate(['run', '--baseline', 'everything-2025.12.18-stdio']);
    const overStdio = await gate(['run', '--baseline', 'everything-2025.12.18-stdio', '--candidate', 'everything-2026.1.14-stdio']);
    expect(overHttp.code).toBe(1);
    expect(overHttp.report.decision.reasons.map((r) => r.code)).toContain('tool-removed');
    expect(essence(overHttp.report)).toEqual(essence(overStdio.report));
  });
});
