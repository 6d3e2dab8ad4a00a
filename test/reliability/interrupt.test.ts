import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT } from '../helpers/cli.js';
import { processesMatching } from '../helpers/processes.js';

/**
 * SIGINT or SIGTERM to the gate itself, mid-run (a CI job cancelled, Ctrl-C): it ends every server
 * group it started, escalating to SIGKILL for a server that ignores SIGTERM, leaves no half-written
 * report, and exits with the conventional code. Servers get tags of their own (through env
 * overrides of their args), so no other test's processes are counted.
 */
const CONFIG = join(ROOT, 'test/fixtures/servers/hostile.config.yaml');

async function interrupted(signal: 'SIGINT' | 'SIGTERM' | 'SIGHUP', tag: string, twice = false) {
  const reports = mkdtempSync(join(tmpdir(), 'mcp-gate-interrupt-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NO_COLOR: '1',
    // The baseline ignores SIGTERM; the candidate never answers its tools/call.
    MCPGATE_PROFILES__IGNORE_TERM__ARGS: `[hostile-server.mjs, ignore-term, --tag=${tag}]`,
    MCPGATE_PROFILES__CALL_HANG__ARGS: `[hostile-server.mjs, call-hang, --tag=${tag}]`,
    MCPGATE_TIMEOUTS__REQUEST_MS: '60000',
  };
  const child = spawn(
    process.execPath,
    [CLI, 'run', '-c', CONFIG, '--baseline', 'ignore-term', '--candidate', 'call-hang', '--report-dir', reports],
    { cwd: ROOT, env },
  );
  let stderr = '';
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  const replaying = new Promise<void>((resolve) => {
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      if (stderr.includes('replaying')) resolve();
    });
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  await replaying;
  // Both servers are up, mid-run (each may run under a containment wrapper: unshare and its init carry the tag too).
  const up = processesMatching(`--tag=${tag}`).join('\n');
  expect([up.includes('ignore-term'), up.includes('call-hang')]).toEqual([true, true]);
  // The second signal goes once the gate has said it is handling the first, not after a fixed pause.
  const ending = new Promise<void>((resolve) => {
    child.stderr.on('data', () => stderr.includes(`mcp-gate: ${signal}: ending server processes`) && resolve());
  });
  child.kill(signal);
  if (twice) void ending.then(() => child.kill(signal));
  const code = await exited;
  return { code, stderr, stdout, reports };
}

describe('a signal to the gate ends every server and leaves nothing behind', { timeout: 30_000 }, () => {
  for (const [signal, exitCode] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ] as const) {
    it(`${signal}: exit ${exitCode}, no process left (SIGKILL for the one that ignores SIGTERM), no report file`, async () => {
      const tag = `interrupt-${signal}-${process.pid}`;
      const result = await interrupted(signal, tag);
      expect(result.code).toBe(exitCode);
      expect(result.stderr).toContain(`mcp-gate: ${signal}: ending server processes`);
      expect(result.stdout).toBe('');
      expect(processesMatching(`--tag=${tag}`)).toEqual([]);
      expect(readdirSync(result.reports)).toEqual([]); // nothing half-written
      expect(result.stderr).not.toMatch(/decision:/);
    });
  }

  it('a second SIGINT kills every server at once, even the one that ignores SIGTERM, and prints no decision', async () => {
    const tag = `interrupt-twice-${process.pid}`;
    const result = await interrupted('SIGINT', tag, true);
    expect(result.code).toBe(130);
    expect(result.stderr).toContain('mcp-gate: SIGINT again: killing server processes now');
    expect(result.stderr).not.toMatch(/decision:/);
    expect(result.stdout).toBe('');
    expect(processesMatching(`--tag=${tag}`)).toEqual([]);
  });
});
