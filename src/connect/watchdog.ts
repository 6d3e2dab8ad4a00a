import { Worker } from 'node:worker_threads';

/**
 * A guard outside the main thread. The run's deadline (`timeouts.runMs`) and the signal handlers
 * live on the main thread's event loop, so a main thread stuck in a long computation would keep
 * neither. This worker thread waits for its own deadline (past the run's, so the normal path always
 * wins); if it fires, the main thread is stuck: it says so on stderr (a direct write, not through
 * the blocked loop), kills every process carrying the run's mark (Linux; see connect/process-group.ts)
 * and then the gate itself (exit 137). No verdict, and nothing left running.
 */
const CODE = `
const { workerData } = require('node:worker_threads');
const { readdirSync, readFileSync, writeSync } = require('node:fs');
setTimeout(() => {
  writeSync(2, 'mcp-gate: ' + workerData.reason + '\\n');
  let pids = [];
  try { pids = readdirSync('/proc').filter((p) => /^\\d+$/.test(p) && Number(p) !== process.pid); } catch {}
  for (const pid of pids) {
    try {
      if (readFileSync('/proc/' + pid + '/environ', 'latin1').split('\\0').includes(workerData.mark)) process.kill(Number(pid), 'SIGKILL');
    } catch {}
  }
  process.kill(process.pid, 'SIGKILL');
}, workerData.afterMs);
`;

/**
 * The launcher's way back to V8's own tiering, when it raised the budget (src/launch.ts, Node 20):
 * with it raised, V8 would refuse Node's code cache for every module the worker starts with. Read
 * when needed: the launcher sets it after the packed file has set itself up.
 */
const restoreTiering = (): void =>
  (process as unknown as Record<symbol, (() => void) | undefined>)[Symbol.for('mcp-gate.restoreTiering')]?.();

/** Starts the guard; the returned function stands it down (the run ended in time). */
export function startWatchdog(afterMs: number, mark: string, reason: string): () => void {
  restoreTiering();
  // CommonJS whatever the gate was started with (execArgv such as --input-type would be inherited).
  const worker = new Worker(CODE, { eval: true, execArgv: [], workerData: { afterMs, mark, reason } });
  worker.on('error', () => undefined); // a guard that cannot start must not take the run down with it
  worker.unref();
  return () => void worker.terminate();
}
