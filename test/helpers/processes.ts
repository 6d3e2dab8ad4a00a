import { execFileSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

/** The working directory of a process, or null when it cannot be read (gone, or not Linux). */
function cwdOf(pid: string): string | null {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return null;
  }
}

/**
 * Command lines of live processes whose command line contains `marker`, started by this
 * checkout's tests: servers run with a cwd inside the checkout or in a scratch project under the
 * temp directory. The same fixture tags from another checkout's test run on the same machine are
 * not counted.
 */
export function processesMatching(marker: string): string[] {
  const out = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((line) => line.includes(marker) && !line.includes('ps -eo'))
    .filter((line) => !/^\s*\d+\s+Z/.test(line)) // zombies are already dead
    .filter((line) => {
      const cwd = cwdOf(line.trim().split(/\s+/)[0]!);
      return cwd === null || [ROOT, tmpdir()].some((dir) => cwd === dir || cwd.startsWith(`${dir}/`));
    });
}
