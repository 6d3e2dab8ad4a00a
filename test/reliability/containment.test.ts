import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import type { Containment } from '../../src/connect/containment.js';
import type { Report } from '../../src/report/types.js';
import { settles } from '../helpers/settle.js';

/**
 * A candidate leaves a daemon that is in a session of its own and has cleared its environment
 * (`setsid env -i`): the process group kill and the run mark both miss it. Each containment route
 * this machine allows must end it with the run, and the report must name the route that held. A
 * route this machine refuses is skipped, and the report is asked to say so. With containment off,
 * the daemon survives: the test can see what it guards against.
 * Listed in test/reliability/README.md.
 */
const CONFIG = join(ROOT, 'test/fixtures/servers/hostile.config.yaml');
const TEST_TIMEOUT_MS = 25_000;
const daemons: number[] = [];

/** Alive and not a zombie (the state follows the command's closing parenthesis in /proc/PID/stat). */
function alive(pid: number): boolean {
  if (!existsSync(`/proc/${pid}`)) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return false;
  }
}

/** Whether `pid` is still there after a moment (derived from this machine's own reap time): a killed process may take a while to go. */
async function survives(pid: number): Promise<boolean> {
  return !(await settles(() => !alive(pid)));
}

async function gateWithDaemon(env: Record<string, string>): Promise<{ report: Report; containment: Containment; daemon: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-contain-'));
  const pidfile = join(dir, 'daemon.pid');
  const result = await runCli(['run', '-c', CONFIG, '--baseline', 'ok', '--candidate', 'daemon', '--format', 'json', '--quiet'], {
    timeoutMs: 20_000,
    env: {
      MCPGATE_PROFILES__DAEMON__COMMAND: 'node',
      MCPGATE_PROFILES__DAEMON__ARGS: `[hostile-server.mjs, daemon, "--pidfile=${pidfile}", --tag=daemon-hostile]`,
      // Its own tag on the baseline: test/reliability/hostile.test.ts, running beside it, looks for processes tagged ok-hostile.
      MCPGATE_PROFILES__OK__ARGS: '[hostile-server.mjs, ok, --tag=containment-ok]',
      ...env,
    },
  });
  expect(result.code, result.stderr).toBe(0);
  const daemon = Number(readFileSync(pidfile, 'utf8'));
  daemons.push(daemon);
  const report = JSON.parse(result.stdout) as Report;
  return { report, containment: report.environment!.containment!, daemon };
}

afterEach(() => {
  for (const pid of daemons.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL'); // only when a test already failed (or the uncontained one)
    } catch {
      // gone, as it should be
    }
  }
});

/** A stand-in for passwordless sudo (this machine runs as root and has none): drops sudo's own options and runs the rest. */
function sudoStandIn(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-sudo-'));
  const sudo = join(dir, 'sudo');
  writeFileSync(sudo, '#!/bin/sh\nwhile [ "$1" = -n ] || [ "$1" = --preserve-env ]; do shift; done\nexec "$@"\n');
  chmodSync(sudo, 0o755);
  return `${dir}:${process.env.PATH ?? ''}`;
}

describe.runIf(process.platform === 'linux')('a setsid env -i daemon ends with the run', { timeout: TEST_TIMEOUT_MS }, () => {
  it.for([
    ['unshare-root', 'pid-namespace', {}],
    ['unshare-user', 'pid-namespace', {}],
    ['sudo-unshare', 'pid-namespace', { PATH: sudoStandIn() }],
    ['subreaper', 'subreaper', {}],
  ] as const)('through %s: the report names it, and the daemon is gone', async ([route, mechanism, env], context) => {
    const { containment, daemon } = await gateWithDaemon({ MCPGATE_CONTAINMENT: route, ...env });
    if (containment.mechanism === 'none') {
      expect(containment.unavailable).toEqual([expect.stringMatching(new RegExp(`^${route}: `))]);
      context.skip(`${route} is not available here: ${containment.unavailable[0]}`);
    }
    expect(containment).toEqual({ mechanism, route, unavailable: [] });
    expect(await survives(daemon), `the daemon (pid ${daemon}) outlived the gate`).toBe(false);
  });

  it('chooses the strongest route by itself and says which', async () => {
    const { containment, daemon } = await gateWithDaemon({});
    expect(containment.mechanism).not.toBe('none');
    expect(await survives(daemon)).toBe(false);
  });

  it('with containment off, says none, and the daemon survives: what the routes above guard against', async () => {
    const { containment, daemon } = await gateWithDaemon({ MCPGATE_CONTAINMENT: 'none' });
    expect(containment).toEqual({ mechanism: 'none', route: null, unavailable: ['MCPGATE_CONTAINMENT=none'] });
    expect(await survives(daemon)).toBe(true);
    expect(readFileSync(`/proc/${daemon}/cmdline`, 'utf8')).toBe('/bin/sleep\u00001000\u0000');
  });
});
