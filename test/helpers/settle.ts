import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * How long this machine, right now, takes to kill a process and see it reaped: a figure measured in
 * the same run, so a wait derived from it grows when the machine is loaded instead of failing.
 */
export async function reapLatencyMs(): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  await once(child, 'spawn');
  const started = performance.now();
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
  return performance.now() - started;
}

/**
 * Polls `done` (each turn of the event loop, then every few milliseconds) until it holds, for at
 * most `factor` times the measured reap latency: a killed process needs a moment to leave the
 * process table, and a loaded machine takes longer. Returns whether it held.
 */
export async function settles(done: () => boolean, factor = 200): Promise<boolean> {
  if (done()) return true;
  const budget = Math.max(1_000, factor * (await reapLatencyMs()));
  const started = performance.now();
  while (performance.now() - started < budget) {
    await nextTurn();
    if (done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return done();
}
