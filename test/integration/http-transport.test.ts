import { readdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, scratchProject, type CliResult } from '../helpers/cli.js';
import { addProfiles, freePort, httpProject } from '../helpers/http.js';
import { processesMatching } from '../helpers/processes.js';
import { stable } from '../helpers/report.js';
import type { Report } from '../../src/report/types.js';

/**
 * The Support Ops example over streamable HTTP and the legacy SSE transport, started by the profile
 * itself (command + url): each run must reach the verdict and reasons of the stdio run, and end
 * every server it started.
 */
const gate = async (dir: string, args: string[], env: Record<string, string> = {}): Promise<{ result: CliResult; report: Report }> => {
  const result = await runCli(['run', '--format', 'json', '--quiet', ...args], { cwd: dir, env, timeoutMs: 45_000 });
  let report: Report;
  try {
    report = JSON.parse(result.stdout) as Report;
  } catch {
    throw new Error(`no JSON report (exit ${result.code}):\n${result.stdout.slice(0, 500)}\n${result.stderr.slice(0, 2000)}`);
  }
  return { result, report };
};

/** What must not depend on the transport: contracts, changes, case results, audit and decision. */
const essence = (report: Report) => {
  const r = stable(report) as Report;
  const side = (s: Report['baseline']) => ({
    server: s.server,
    contractHash: s.contractHash,
    tools: s.tools,
    cases: s.cases,
    caseResults: s.caseResults,
  });
  return { baseline: side(r.baseline), candidate: side(r.candidate), diff: r.diff, audit: r.audit, decision: r.decision };
};

const reasons = (report: Report) => report.decision.reasons.map((r) => [r.code, r.action, r.count]);
const ROLLBACK_REASONS = [
  ['required-argument-removed', 'rollback', 1],
  ['tool-added-destructive', 'rollback', 1],
  ['case-broken', 'rollback', 3],
  // A breaking change under 1.4.0 -> 1.5.0, a minor bump: version-bump-too-small.
  ['version-bump-too-small', 'hold', 1],
];

describe('the example over HTTP and SSE, started by its profile', () => {
  let dir: string;
  const runs: Record<string, { result: CliResult; report: Report }> = {};

  beforeAll(async () => {
    dir = await httpProject();
    runs.stdio = await gate(dir, []);
    runs.toHttp = await gate(dir, ['--candidate', 'candidate-http']);
    runs.fromHttp = await gate(dir, ['--baseline', 'baseline-http']);
    runs.sseToHttp = await gate(dir, ['--baseline', 'baseline-sse', '--candidate', 'candidate-http']);
  }, 180_000);

  it('baseline over stdio, candidate over streamable HTTP: Rollback for the same three reasons as stdio', () => {
    const { result, report } = runs.toHttp!;
    expect(result.code).toBe(1);
    expect([report.baseline.transport, report.candidate.transport]).toEqual(['stdio', 'http']);
    expect(reasons(report)).toEqual(ROLLBACK_REASONS);
    expect(reasons(runs.stdio!.report)).toEqual(ROLLBACK_REASONS);
  });

  it('baseline over streamable HTTP, candidate over stdio: the same', () => {
    const { result, report } = runs.fromHttp!;
    expect(result.code).toBe(1);
    expect([report.baseline.transport, report.candidate.transport]).toEqual(['http', 'stdio']);
    expect(reasons(report)).toEqual(ROLLBACK_REASONS);
  });

  it('baseline over legacy SSE, candidate over streamable HTTP: the same', () => {
    const { result, report } = runs.sseToHttp!;
    expect(result.code).toBe(1);
    expect([report.baseline.transport, report.candidate.transport]).toEqual(['sse', 'http']);
    expect(reasons(report)).toEqual(ROLLBACK_REASONS);
  });

  it('the transport changes nothing else: same contracts (hashes), changes, case results, audit and decision', () => {
    const reference = essence(runs.stdio!.report);
    for (const name of ['toHttp', 'fromHttp', 'sseToHttp']) expect(essence(runs[name]!.report), name).toEqual(reference);
    expect(runs.toHttp!.report.candidate.server).toMatchObject({ name: 'support-ops', version: '1.5.0', protocolVersion: '2025-11-25' });
    expect(runs.sseToHttp!.report.baseline.server).toMatchObject({ version: '1.4.0', protocolVersion: '2025-11-25' });
    expect(runs.toHttp!.report.candidate.caseResults.every((c) => c.probes.every((p) => p.status === 'called'))).toBe(true);
  });

  it("keeps the started server's stderr in the report", () => {
    expect(runs.toHttp!.report.candidate.stderr.tail).toMatch(/support-ops 1\.5\.0 \(candidate\) ready on http:\/\/127\.0\.0\.1:\d+\/mcp/);
  });

  it('leaves no server process behind', () => {
    expect(processesMatching(`--tag=${dir}`)).toEqual([]);
  });

  it('validate accepts http and sse profiles, with and without a command', async () => {
    addProfiles(dir, ['  remote:', '    transport: http', '    url: https://mcp.example.com/mcp', '    headers: { X-Tenant: acme }']);
    const result = await runCli(['validate'], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('valid. 10 profiles');
  });
});

describe('profiles that start their HTTP server: failures', () => {
  /** A scratch project whose `broken` profile starts `script` (node -e) and waits for `url`. */
  const project = async (script: string, readyTimeoutMs = 10_000) => {
    const dir = scratchProject();
    const port = await freePort();
    addProfiles(dir, [
      '  broken:',
      '    transport: http',
      `    url: http://127.0.0.1:${port}/mcp`,
      '    command: node',
      `    args: [-e, ${JSON.stringify(script)}, --, --tag=${dir}]`,
      `    readyTimeoutMs: ${readyTimeoutMs}`,
    ]);
    return { dir, port };
  };

  it('a server that exits before its url answers: Rollback (candidate-unavailable), with its stderr', async () => {
    const { dir, port } = await project("console.error('fatal: cannot bind, config missing'); process.exit(4)");
    const { result, report } = await gate(dir, ['--candidate', 'broken']);
    expect(result.code).toBe(1);
    expect(reasons(report)).toEqual([['candidate-unavailable', 'rollback', 1]]);
    expect(report.candidate.error).toMatchObject({ phase: 'ready' });
    expect(report.candidate.error!.message).toContain(`profile "broken"`);
    expect(report.candidate.error!.message).toContain(`exited with code 4 before http://127.0.0.1:${port}/mcp answered`);
    expect(report.candidate.stderr.tail).toContain('fatal: cannot bind, config missing');
  });

  it('a server that never listens: times out at readyTimeoutMs naming the profile and url, and is ended', async () => {
    const { dir, port } = await project("console.error('warming up forever'); setInterval(() => {}, 1000)", 1500);
    const { result, report } = await gate(dir, ['--candidate', 'broken']);
    expect(result.code).toBe(1);
    expect(report.candidate.error).toMatchObject({ phase: 'ready' });
    expect(report.candidate.error!.message).toContain(
      `profile "broken": http://127.0.0.1:${port}/mcp did not answer within readyTimeoutMs (1500 ms)`,
    );
    expect(report.candidate.error!.message).toContain('ECONNREFUSED');
    expect(report.candidate.stderr.tail).toContain('warming up forever');
    expect(processesMatching(`--tag=${dir}`)).toEqual([]);
  });

  it('the same failure on the baseline: exit 3, with the stderr tail, never a verdict', async () => {
    const { dir } = await project("console.error('fatal: license expired'); process.exit(2)");
    const result = await runCli(['run', '--baseline', 'broken'], { cwd: dir, timeoutMs: 45_000 });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('cannot decide: baseline profile "broken" is unavailable (ready)');
    expect(result.stderr).toContain('fatal: license expired');
    expect(result.stdout).toBe('');
    expect(readdirSync(dir)).not.toContain('reports');
  });

  it('a url nobody answers at, without a command: Rollback naming the url and the refusal', async () => {
    const dir = scratchProject();
    const port = await freePort();
    addProfiles(dir, ['  gone:', '    transport: http', `    url: http://127.0.0.1:${port}/mcp`]);
    const { result, report } = await gate(dir, ['--candidate', 'gone']);
    expect(result.code).toBe(1);
    expect(report.candidate.error).toMatchObject({ phase: 'initialize' });
    expect(report.candidate.error!.message).toBe(`could not reach http://127.0.0.1:${port}/mcp: ECONNREFUSED`);
  });

  it('an http profile without url is a config error naming the profile', async () => {
    const dir = scratchProject();
    addProfiles(dir, ['  remote:', '    transport: http', '    command: node']);
    const result = await runCli(['validate'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /gate\.config\.yaml:\d+: profiles\.remote\.url: is required but missing: an http profile needs the server's endpoint/,
    );
  });
});
