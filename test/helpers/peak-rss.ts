import { spawn } from 'node:child_process';

/** GNU time: `-v` prints the peak RSS of the command it runs, on stderr. */
export const TIME = '/usr/bin/time';

export interface Measured {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Peak resident set size of the command, in KiB; NaN when time printed none. */
  peakKiB: number;
}

/**
 * Runs `node <args>` under /usr/bin/time -v and reads its peak RSS. A run still going after
 * `hangMs` is killed and rejected: a hang guard, never a measurement.
 */
export function nodeMeasured(args: string[], options: { env: NodeJS.ProcessEnv; cwd?: string; hangMs: number }): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const child = spawn(TIME, ['-v', process.execPath, ...args], { env: options.env, ...(options.cwd && { cwd: options.cwd }) });
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the gate did not finish\n${stderr.slice(-2000)}`));
    }, options.hangMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      const peak = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr, peakKiB: peak ? Number(peak[1]) : NaN });
    });
  });
}
