import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import type { Containment } from '../../src/connect/containment.js';
import type { Report } from '../../src/report/types.js';
import { settles } from '../helpers/settle.js';
import { sudoStandIn } from '../helpers/sudo.js';

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
const daemons: string[] = [];

/** The daemon, found by its command line (`sleep` for the time it wrote), alive and not a zombie; null when it is gone. */
function daemonPid(seconds: string): number | null {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8') !== `/bin/sleep\u0000${seconds}\u0000`) continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (stat[stat.lastIndexOf(')') + 2] !== 'Z') return Number(name);
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

/** Whether the daemon is still there after a moment (derived from this machine's own reap time): a killed process may take a while to go. */
async function survives(seconds: string): Promise<boolean> {
  return !(await settles(() => daemonPid(seconds) === null));
}

async function gateWithDaemon(env: Record<string, string>): Promise<{ report: Report; containment: Containment; daemon: string }> {
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
  const daemon = readFileSync(pidfile, 'utf8').trim();
  daemons.push(daemon);
  const report = JSON.parse(result.stdout) as Report;
  return { report, containment: report.environment!.containment!, daemon };
}

afterEach(() => {
  for (const seconds of daemons.splice(0)) {
    const pid = daemonPid(seconds);
    if (pid) process.kill(pid, 'SIGKILL'); // only when a test already failed (or the uncontained one)
  }
});

/** What a route with a mount namespace of its own keeps from each server, and what one without it leaves. */
const OWN = { proc: 'own', baselineTrees: 'read-only' } as const;
const SHARED = { proc: 'shared', baselineTrees: 'copied' } as const;

describe.runIf(process.platform === 'linux')('a setsid env -i daemon ends with the run', { timeout: TEST_TIMEOUT_MS }, () => {
  it.for([
    ['unshare-root', 'pid-namespace', {}, OWN],
    ['unshare-user', 'pid-namespace', {}, OWN],
    ['sudo-unshare', 'pid-namespace', { PATH: sudoStandIn() }, OWN],
    ['subreaper', 'subreaper', {}, SHARED],
  ] as const)('through %s: the report names it, and the daemon is gone', async ([route, mechanism, env, guarded], context) => {
    const { containment, daemon } = await gateWithDaemon({ MCPGATE_CONTAINMENT: route, ...env });
    if (containment.mechanism === 'none') {
      expect(containment.unavailable[0]).toMatch(new RegExp(`^${route}: `));
      context.skip(`${route} is not available here: ${containment.unavailable.join('; ')}`);
    }
    // A machine that refuses the mounts but not the PID namespace gets that alone, and says why.
    const refused = containment.unavailable.length ? { unavailable: [expect.stringMatching(new RegExp(`^${route}: `))], ...SHARED } : {};
    expect(containment).toEqual({ mechanism, route, unavailable: [], ...guarded, ...refused });
    expect(await survives(daemon), `the daemon (sleep ${daemon}) outlived the gate`).toBe(false);
  });

  it('where the mount namespace is refused (here: setpriv fails), a PID namespace alone still ends the daemon, and the report says what is left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-nosetpriv-'));
    writeFileSync(join(dir, 'setpriv'), '#!/bin/sh\necho "setpriv: refused here" >&2\nexit 1\n', { mode: 0o755 });
    const { containment, daemon } = await gateWithDaemon({ MCPGATE_CONTAINMENT: 'unshare-user', PATH: `${dir}:${process.env.PATH ?? ''}` });
    if (containment.mechanism === 'none') return;
    expect(containment).toEqual({
      mechanism: 'pid-namespace',
      route: 'unshare-user',
      unavailable: ['unshare-user: setpriv: refused here'],
      ...SHARED,
    });
    expect(await survives(daemon)).toBe(false);
  });

  it('chooses the strongest route by itself and says which', async () => {
    const { containment, daemon } = await gateWithDaemon({});
    expect(containment.mechanism).not.toBe('none');
    expect(await survives(daemon)).toBe(false);
  });

  it('with containment off, says none, and the daemon survives: what the routes above guard against', async () => {
    const { containment, daemon } = await gateWithDaemon({ MCPGATE_CONTAINMENT: 'none' });
    expect(containment).toEqual({ mechanism: 'none', route: null, unavailable: ['MCPGATE_CONTAINMENT=none'], ...SHARED });
    expect(await survives(daemon)).toBe(true);
  });
});

/**
 * The baseline is given a secret (a profile `env`); the candidate (test/fixtures/servers/tree-attacker.mjs)
 * reads /proc/PID/environ of every process in sight, as a same-user process may, and says in its
 * tool's description how many carry the secret's name. With a /proc of its own it sees none; through
 * the subreaper, which gives no /proc of its own, it finds the baseline: what the routes guard against.
 */
describe.runIf(process.platform === 'linux')("the baseline's secrets, read through /proc", { timeout: TEST_TIMEOUT_MS }, () => {
  const SERVERS = join(ROOT, 'test/fixtures/servers');
  const pair = () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-environ-'));
    writeFileSync(
      join(dir, 'gate.config.yaml'),
      [
        'version: 1',
        'profiles:',
        `  keeper: { command: node, args: [${SERVERS}/hostile-server.mjs, ok, --tag=environ-keeper], env: { API_TOKEN: "\${ENVIRON_TEST_TOKEN}" } }`,
        `  reader: { command: node, args: [${SERVERS}/tree-attacker.mjs], env: { SECRET_NAME: API_TOKEN } }`,
        'baseline: keeper',
        'candidate: reader',
        'timeouts: { startupMs: 10000, requestMs: 5000, runMs: 20000, killGraceMs: 300 }',
        '',
      ].join('\n'),
    );
    return dir;
  };

  it.for([
    ['unshare-root', {}, 0],
    ['unshare-user', {}, 0],
    ['sudo-unshare', { PATH: sudoStandIn() }, 0],
    ['subreaper', {}, 1],
  ] as const)(
    "through %s: the candidate's /proc shows the baseline's environment only without a /proc of its own",
    async ([route, env, expected], context) => {
      const dir = pair();
      const result = await runCli(['run', '--format', 'json', '--quiet'], {
        cwd: dir,
        timeoutMs: 20_000,
        env: { ENVIRON_TEST_TOKEN: 'environ-secret-value', MCPGATE_CONTAINMENT: route, ...env },
      });
      const report = JSON.parse(result.stdout) as Report;
      const held = report.environment?.containment;
      if (held?.route !== route || (route !== 'subreaper' && held.proc === 'shared')) context.skip(`${route} is not available here`);
      const seen = JSON.parse(report.candidate.tools.find((t) => t.name === 'attacks')!.description!) as { environ: number };
      expect(seen.environ > 0 ? 1 : 0).toBe(expected);
      expect(report.environment?.containment?.proc).toBe(expected ? 'shared' : 'own');
    },
  );
});
