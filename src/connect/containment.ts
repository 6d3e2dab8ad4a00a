import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { NAMESPACE_SETUP, setupArgs } from './namespace-setup.js';
import { SUBREAPER } from './subreaper.js';

/**
 * What keeps a server's descendants from outliving the run, even those that leave its process
 * group and clear their environment (`setsid env -i sh -c 'sleep 1000 &'`), whom neither the group
 * kill nor the run mark (process-group.ts) can find.
 *
 * - `pid-namespace`: each server is PID 1's child in a PID namespace of its own (`unshare --pid
 *   --fork --kill-child`). When its init ends, or unshare is killed, the kernel kills everything in
 *   the namespace. Reached without privilege through a user namespace, as root directly, or through
 *   passwordless sudo (GitHub's runners: Ubuntu 24.04 refuses unprivileged user namespaces). The
 *   namespace is also a mount namespace with a /proc of its own, where the built git baselines are
 *   read-only and the server has no capabilities (namespace-setup.ts); where every route refuses
 *   the mounts, the first that makes the PID namespace alone.
 * - `subreaper`: a small helper (python3, prctl PR_SET_CHILD_SUBREAPER) that every orphan of the
 *   server falls back to; when the server exits, or the helper is told to end, it kills them all.
 *   Holds unless the helper itself is SIGKILLed first (a second interrupt of the gate).
 * - `none`: only the process group and the run mark. The report says so; it does not claim more.
 */
export type ContainmentMechanism = 'pid-namespace' | 'subreaper' | 'none';

/** The ways tried, strongest first. `MCPGATE_CONTAINMENT` names one to use (or `none`), for tests and for debugging. */
export const ROUTES = ['unshare-root', 'unshare-user', 'sudo-unshare', 'subreaper'] as const;
export type ContainmentRoute = (typeof ROUTES)[number];

export interface Containment {
  mechanism: ContainmentMechanism;
  /** The route that held, or null for `none`. */
  route: ContainmentRoute | null;
  /** What was tried and refused, each with the first line of why. */
  unavailable: string[];
  /**
   * `own`: each server sees only its own processes under /proc (a fresh mount in its PID
   * namespace), so not another server's environment, memory or root folder. `shared`: every
   * process of the gate's user is in sight. Absent in reports of older builds.
   */
  proc?: 'own' | 'shared';
  /**
   * How a git baseline's built tree is kept from the servers. `read-only`: every server runs with the
   * cache of built trees mounted read-only, without the capabilities to undo it. `copied`: no mount
   * namespace; each baseline runs from a copy of its own, checked against the build's digest as it is
   * made, which a server of the same user can still find and write. Absent in reports of older builds.
   */
  baselineTrees?: 'read-only' | 'copied';
}

/**
 * The init inside the namespace: PID 1 ignores signals it has no handler for, so it forwards them.
 * A background job's stdin is /dev/null unless redirected, and dash ignores `<&0`: hence fd 3.
 */
const NAMESPACE_INIT =
  'trap \'kill -TERM "$c" 2>/dev/null\' TERM; trap \'kill -HUP "$c" 2>/dev/null\' HUP; ' +
  'exec 3<&0; "$@" <&3 3<&- & c=$!; while :; do wait "$c"; s=$?; kill -0 "$c" 2>/dev/null || exit "$s"; done';
const UNSHARE = ['--pid', '--fork', '--kill-child'];
const MOUNTS = ['--mount', '--mount-proc'];

const uid = () => process.getuid?.() ?? -1;

/**
 * The argv prefix a route puts before `sh -c INIT`. For a namespace route, `setup` is the arguments
 * of the mount namespace's setup (namespace-setup.ts); null for a PID namespace alone, where the
 * machine refuses the mounts (a container that masks parts of /proc refuses a fresh one).
 */
function prefixOf(route: ContainmentRoute, env: NodeJS.ProcessEnv, setup: string[] | null): string[] {
  const gid = process.getgid?.() ?? 0;
  const inside = setup ? [...MOUNTS, '--', '/bin/sh', '-c', NAMESPACE_SETUP, 'mcp-gate-setup', ...setup] : null;
  switch (route) {
    case 'unshare-root':
      return ['unshare', ...UNSHARE, ...(inside ? [...inside, '--'] : ['--'])];
    case 'unshare-user':
      return ['unshare', '--user', '--map-root-user', ...UNSHARE, ...(inside ? [...inside, '--'] : ['--'])];
    case 'sudo-unshare': {
      // As root only to make the namespace; the server runs as the gate's own user. PATH is given again
      // after sudo (its secure_path would replace it); the rest of the environment goes through --preserve-env.
      const path = env.PATH ? ['/usr/bin/env', `PATH=${env.PATH}`] : [];
      const as = inside ? [...inside, `user=${uid()}:${gid}`, '--'] : ['--setuid', String(uid()), '--setgid', String(gid), '--'];
      return ['sudo', '-n', '--preserve-env', 'unshare', ...UNSHARE, ...as, ...path];
    }
    case 'subreaper':
      return ['python3', '-c', SUBREAPER];
  }
}

function wrapped(route: ContainmentRoute, command: string, args: string[], env: NodeJS.ProcessEnv, setup: string[] | null): string[] {
  if (route === 'subreaper') return [...prefixOf(route, env, setup), command, ...args];
  return [...prefixOf(route, env, setup), '/bin/sh', '-c', NAMESPACE_INIT, 'mcp-gate-init', command, ...args];
}

/** Tries a route on `true`, in the gate's environment: the same command line a server gets, so what passes here holds there. */
function probe(route: ContainmentRoute, gateEnv: NodeJS.ProcessEnv, mounts: boolean): string | null {
  if (route === 'unshare-root' && uid() !== 0) return 'the gate is not root';
  const [command, ...args] = wrapped(route, 'true', [], gateEnv, mounts ? setupArgs(gateEnv, null) : null);
  const result = spawnSync(command!, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 5_000, env: gateEnv });
  if (result.error) return (result.error as NodeJS.ErrnoException).code === 'ENOENT' ? `${command} not found` : result.error.message;
  if (result.status === 0) return null;
  const why = result.stderr.toString('utf8').trim().split('\n')[0]?.slice(0, 200);
  return why || `exit ${result.status ?? result.signal}`;
}

let detected: Containment | null = null;

/**
 * Detected once per gate process, at the first server it starts: a few milliseconds. `gateEnv` is
 * the gate's own environment, as the entry point read it (src/cli.ts): `MCPGATE_CONTAINMENT`, and
 * the PATH the probes run with.
 */
export function containment(gateEnv: NodeJS.ProcessEnv): Containment {
  if (detected) return detected;
  const unavailable: string[] = [];
  if (process.platform !== 'linux') {
    unavailable.push(`${process.platform}: no PID namespaces or subreapers; process groups only`);
    return (detected = { mechanism: 'none', route: null, unavailable, ...UNGUARDED });
  }
  const asked = gateEnv.MCPGATE_CONTAINMENT?.trim();
  const routes = !asked || asked === 'auto' ? ROUTES : ROUTES.filter((r) => r === asked);
  if (asked && asked !== 'auto' && !routes.length) unavailable.push(`MCPGATE_CONTAINMENT=${asked}`);
  // Each namespace route with its mount namespace first; then, where the machine refuses the
  // mounts, a PID namespace alone (servers still end with the run); then the subreaper.
  const refused = new Map<ContainmentRoute, string>();
  for (const route of routes.filter((r) => r !== 'subreaper')) {
    const refusal = probe(route, gateEnv, true);
    if (!refusal) return (detected = { mechanism: 'pid-namespace', route, unavailable, proc: 'own', baselineTrees: 'read-only' });
    refused.set(route, refusal);
    unavailable.push(`${route}: ${refusal}`);
  }
  for (const route of routes) {
    if (route !== 'subreaper' && refused.get(route) === 'the gate is not root') continue;
    const refusal = probe(route, gateEnv, false);
    if (!refusal)
      return (detected = { mechanism: route === 'subreaper' ? 'subreaper' : 'pid-namespace', route, unavailable, ...UNGUARDED });
    unavailable.push(route === 'subreaper' ? `${route}: ${refusal}` : `${route} without a mount namespace: ${refusal}`);
  }
  return (detected = { mechanism: 'none', route: null, unavailable, ...UNGUARDED });
}

/** What a route without a mount namespace of its own leaves: every process of the user in sight, and trees only copied. */
const UNGUARDED = { proc: 'shared', baselineTrees: 'copied' } as const;

/** What was detected, or null when this gate started no server (snapshots, remote servers). */
export const containmentUsed = (): Containment | null => detected;

/** An executable at `command` as spawn would find it, through the server's PATH. */
function findable(command: string, env: NodeJS.ProcessEnv, cwd: string): boolean {
  const candidates =
    command.includes('/') || isAbsolute(command)
      ? [resolve(cwd, command)]
      : (env.PATH ?? '').split(delimiter).map((dir) => resolve(cwd, join(dir || '.', command)));
  return candidates.some((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * The command line that starts `command` contained, in the server's environment `env`; `gateEnv`
 * (the gate's own) decides the containment. A command that cannot be found is started as it is, so
 * that its spawn error (ENOENT) reads as it always did. `writable`: a baseline's build, which may
 * write its own tree in the cache that every other process sees read-only.
 */
export function contain(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  gateEnv: NodeJS.ProcessEnv,
  writable: string | null = null,
): { command: string; args: string[] } {
  const { route, baselineTrees } = containment(gateEnv);
  if (!route || !findable(command, env, cwd)) return { command, args };
  const setup = baselineTrees === 'read-only' ? setupArgs(gateEnv, writable) : null;
  const [head, ...rest] = wrapped(route, command, args, env, setup);
  return { command: head!, args: rest };
}
