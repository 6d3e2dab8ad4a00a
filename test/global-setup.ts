import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
/** What the build reads: a change to any of these makes dist/ stale. */
const INPUTS = [
  'src',
  'scripts',
  'schemas',
  'examples/support-ops/src',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
];
const STAMP = join(ROOT, 'dist/.build-complete');

function newestIn(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestIn(join(path, name))));
}

/**
 * Integration tests run the built CLI and the built example server as real processes, so the build
 * must be current. It is rebuilt when a source is newer than the last complete build (a fresh clone
 * has none; `npm ci` builds through `prepare`, so CI builds once).
 */
export default function setup(): void {
  const built = statSync(STAMP, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const stale = INPUTS.filter((input) => newestIn(join(ROOT, input)) > built);
  if (!stale.length) return;
  process.stderr.write(`test setup: building (${built ? `newer than the last build: ${stale.join(', ')}` : 'no complete build yet'})\n`);
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit', cwd: ROOT });
}
