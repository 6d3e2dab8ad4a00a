import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { contain } from './containment.js';

/**
 * Every server the gate starts runs as the leader of its own process group, so ending the
 * group also ends what it spawned (`npx`, shell wrappers). Live groups are tracked here so that
 * an interrupted gate can still end them all.
 */
const live = new Set<number>();

/**
 * A mark unique to this gate process, in the environment of every server it starts and so, unless
 * a process clears its environment, of everything those start. A descendant that left the process
 * group (`setsid`, a detached child, a double fork) still carries it, and on Linux is found by it
 * under /proc when the gate ends, as CI systems find the processes of a build. Elsewhere only the
 * process groups are ended.
 */
export const RUN_MARK = `MCPGATE_RUN=${randomUUID()}`;

/** SIGKILL to every process (but this one) whose environment carries RUN_MARK. Linux only; elsewhere nothing. */
function killMarked(): number {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid);
  } catch {
    return 0;
  }
  let killed = 0;
  for (const pid of pids) {
    let environ: string;
    try {
      environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
    } catch {
      continue; // gone, or not ours to read
    }
    if (!environ.split('\0').includes(RUN_MARK)) continue;
    try {
      process.kill(Number(pid), 'SIGKILL');
      killed++;
    } catch {
      // already gone
    }
  }
  return killed;
}

export interface SpawnedGroup {
  child: ChildProcess;
  /** Resolves when the process has spawned, rejects with the spawn error (e.g. ENOENT). */
  spawned: Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts a server as a group leader, inside the strongest containment this machine allows
 * (containment.ts): `env` is the server's environment, `gateEnv` the gate's own, which decides how.
 * `writable` is for a baseline's build only: its own tree, in the cache every server sees read-only.
 */
export function spawnGroup(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; gateEnv: NodeJS.ProcessEnv; writable?: string },
): SpawnedGroup {
  const env = { ...options.env, [RUN_MARK.split('=')[0]!]: RUN_MARK.slice(RUN_MARK.indexOf('=') + 1) };
  const contained = contain(command, args, env, options.cwd, options.gateEnv, options.writable ?? null);
  const child = spawn(contained.command, contained.args, {
    cwd: options.cwd,
    env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', () => {
      if (child.pid) live.add(child.pid);
      resolve();
    });
    child.once('error', reject);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('close', (code, signal) => resolve({ code, signal }));
    child.once('error', () => resolve({ code: null, signal: null }));
  });
  spawned.catch(() => undefined);
  return { child, spawned, exited };
}

function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is already gone
  }
}

const groupAlive = (pid: number): boolean => signalGroup(pid, 0);

/**
 * SIGTERM to the whole group; SIGKILL to whatever is left after `graceMs`. `leaderExited` (the
 * child's exit) lets the common case, a server that dies at once, end without a polling delay.
 */
export async function endGroup(pid: number, graceMs: number, leaderExited?: Promise<unknown>): Promise<void> {
  if (!signalGroup(pid, 'SIGTERM')) {
    live.delete(pid);
    return;
  }
  const deadline = Date.now() + graceMs;
  if (leaderExited) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([leaderExited, new Promise((r) => (timer = setTimeout(r, graceMs)))]);
    clearTimeout(timer);
  }
  while (Date.now() < deadline && groupAlive(pid)) await new Promise((r) => setTimeout(r, 25));
  if (groupAlive(pid)) signalGroup(pid, 'SIGKILL');
  live.delete(pid);
}

/** Last resort, for process exit: no waiting is possible there, so kill outright. */
export function killAllGroupsNow(): void {
  for (const pid of live) signalGroup(pid, 'SIGKILL');
  live.clear();
  killMarked();
}

export async function endAllGroups(graceMs: number): Promise<void> {
  await Promise.all([...live].map((pid) => endGroup(pid, graceMs)));
  killMarked();
}
