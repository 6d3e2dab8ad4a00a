import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { processesMatching } from '../helpers/processes.js';
import { settles } from '../helpers/settle.js';

/**
 * The watchdog (src/connect/watchdog.ts) with a main thread that never comes back: a process starts it,
 * starts a server-like child that carries the run's mark in its environment, then spins forever.
 * The worker thread must say why on stderr, kill the marked child and the process itself.
 */
describe('a stuck main thread still ends the run', { timeout: 20_000 }, () => {
  it('the watchdog fires past its deadline: message on stderr, the marked child killed, the gate killed (SIGKILL)', async () => {
    const tag = `--tag=watchdog-${process.pid}`;
    const script = `
      import { spawn } from 'node:child_process';
      import { startWatchdog } from ${JSON.stringify(join(ROOT, 'dist/connect/watchdog.js'))};
      import { RUN_MARK } from ${JSON.stringify(join(ROOT, 'dist/connect/process-group.js'))};
      const [key, value] = [RUN_MARK.slice(0, RUN_MARK.indexOf('=')), RUN_MARK.slice(RUN_MARK.indexOf('=') + 1)];
      spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '--', ${JSON.stringify(tag)}], { detached: true, stdio: 'ignore', env: { ...process.env, [key]: value } }).unref();
      startWatchdog(500, RUN_MARK, 'test: stuck');
      setTimeout(() => { for (;;); }, 100); // the main thread never returns
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, s) => resolve(s)));
    expect(signal, stderr.slice(0, 2000)).toBe('SIGKILL');
    expect(stderr).toContain('mcp-gate: test: stuck');
    // No bound on how soon: the child loops forever, so only the watchdog could have ended it.
    await settles(() => processesMatching(tag).length === 0);
    expect(processesMatching(tag)).toEqual([]);
  });
});
