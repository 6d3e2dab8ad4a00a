import { execFileSync } from 'node:child_process';

/** Command lines of live processes whose command line contains `marker`. */
export function processesMatching(marker: string): string[] {
  const out = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((line) => line.includes(marker) && !line.includes('ps -eo'))
    .filter((line) => !/^\s*\d+\s+Z/.test(line)); // zombies are already dead
}
