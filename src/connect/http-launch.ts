import type { LaunchSpec } from './environment.js';
import { describe } from '../base/error-text.js';
import { endGroup, spawnGroup, type SpawnedGroup } from './process-group.js';
import { networkFailure } from './errors.js';
import { StreamTail } from './stderr-tail.js';

export type Exit = { code: number | null; signal: NodeJS.Signals | null };

/** Why a started server never answered its url. */
export type NotReady = { kind: 'exited'; exit: Exit } | { kind: 'timeout'; lastError: string | null };

const POLL_INTERVAL_MS = 100;
const ATTEMPT_TIMEOUT_MS = 2_000;

/**
 * An HTTP server the gate starts itself, as the leader of its own process group (so `npx` and
 * shell wrappers end with it). Its stdout is drained (an HTTP server's stdout is only logs) and its
 * stderr tail kept for error messages and the report.
 */
export class LaunchedServer {
  readonly stderr: StreamTail;
  exit: Exit | null = null;
  private group: SpawnedGroup | null = null;

  constructor(
    /** The expanded launch (environment.ts): command, args, cwd, the server's environment and the gate's. */
    private readonly spec: LaunchSpec,
    private readonly options: { stderrTailBytes: number; killGraceMs: number },
  ) {
    this.stderr = new StreamTail(options.stderrTailBytes);
  }

  /** Spawns the server; rejects with the spawn error (e.g. ENOENT). */
  async start(): Promise<void> {
    const { command, args, cwd, env, gateEnv } = this.spec;
    const group = spawnGroup(command, args, { cwd, env, gateEnv });
    this.group = group;
    group.child.stdout!.resume();
    group.child.stderr!.on('data', (chunk: Buffer) => this.stderr.push(chunk));
    group.child.stdin!.on('error', () => undefined);
    void group.exited.then((exit) => (this.exit = exit));
    await group.spawned;
  }

  /** Polls `url` until any HTTP response comes back; null when ready, otherwise why not. */
  async waitUntilAnswering(url: URL, timeoutMs: number): Promise<NotReady | null> {
    const exited = this.group!.exited.then((exit) => ({ kind: 'exited' as const, exit }));
    return waitForUrl(url, timeoutMs, exited);
  }

  /** Ends the whole process group: SIGTERM, then SIGKILL after the grace period. */
  async stop(): Promise<void> {
    const pid = this.group?.child.pid;
    if (pid) await endGroup(pid, this.options.killGraceMs, this.group?.exited);
  }
}

/**
 * Any HTTP response means the server is listening, whatever its status (401, 404 and 405 all
 * count). A refused or reset connection means not yet. OPTIONS asks for nothing: a GET could open
 * an event stream or create a session.
 */
async function waitForUrl(url: URL, timeoutMs: number, gaveUp: Promise<NotReady>): Promise<NotReady | null> {
  const deadline = Date.now() + timeoutMs;
  let lastError: string | null = null;
  const state: { stopped: NotReady | null } = { stopped: null };
  void gaveUp.then((reason) => (state.stopped = reason));
  while (Date.now() < deadline) {
    if (state.stopped) return state.stopped;
    try {
      const response = await fetch(url, {
        method: 'OPTIONS',
        signal: AbortSignal.timeout(Math.min(ATTEMPT_TIMEOUT_MS, Math.max(1, deadline - Date.now()))),
      });
      await response.body?.cancel().catch(() => undefined);
      return null;
    } catch (error) {
      lastError = connectionError(error);
    }
    const wait = new Promise<void>((resolve) => setTimeout(resolve, Math.min(POLL_INTERVAL_MS, Math.max(0, deadline - Date.now()))));
    await Promise.race([wait, gaveUp]);
  }
  return state.stopped ?? { kind: 'timeout', lastError };
}

function connectionError(error: unknown): string {
  if ((error as Error).name === 'TimeoutError') return `no answer within ${ATTEMPT_TIMEOUT_MS} ms`;
  return networkFailure(error) ?? describe(error);
}
