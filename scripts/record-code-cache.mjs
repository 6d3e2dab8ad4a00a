#!/usr/bin/env node
// The last step of `npm run build`: records the V8 code cache of the packed CLI
// (dist/packed/mcp-gate.cjs.v8cache, see src/launch.ts) from one real run of the CLI on the bundled
// example, so the cache holds the code of the whole run path, not only what loading compiles.
// It pays for itself: without it the example measured 1.19x the floor, with it 1.06x (bench/README.md).
// The run happens in a child process; its report goes to a temporary folder and is removed.
// Without a cache the CLI works the same, only slower: a failed recording is a warning, not a
// failed build.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

function verdictOf(json) {
  try {
    return JSON.parse(json).decision?.verdict;
  } catch {
    return undefined; // a crash, not a report
  }
}

const root = fileURLToPath(new URL('..', import.meta.url));
const RANDOM_SEED = 20260728;
const packed = join(root, 'dist/packed/mcp-gate.cjs');
const cache = `${packed}.v8cache`;

if (process.argv[2] === '--child') {
  const { loadPacked } = await import('../dist/launch.cjs');
  await loadPacked(packed, { recordCache: true }).exports.main(process.argv.slice(3));
} else {
  rmSync(cache, { force: true });
  const reports = mkdtempSync(join(tmpdir(), 'mcp-gate-code-cache-'));
  const args = ['--child', 'run', '--config', join(root, 'gate.config.yaml'), '--report-dir', reports, '--format', 'json', '--quiet'];
  // What V8 writes into the cache follows its random number generator (its strings' hash seed):
  // with a fixed seed, two builds record the same bytes (a reproducible dist/: docs/github-action.md,
  // "Pin the action by commit"). V8 leaves --random-seed out of the flags a cache must match, so
  // every run accepts it as before.
  const child = spawnSync(process.execPath, [`--random-seed=${RANDOM_SEED}`, fileURLToPath(import.meta.url), ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
  });
  rmSync(reports, { recursive: true, force: true });
  // The example's candidate breaks its contract: a decided run exits 1 and prints a Rollback report.
  if (child.status === 1 && verdictOf(child.stdout) === 'Rollback' && existsSync(cache)) {
    process.stderr.write(`code cache recorded from a run of the example: ${(statSync(cache).size / 1024).toFixed(0)} KiB\n`);
  } else {
    rmSync(cache, { force: true });
    const why = child.error ? child.error.message : `the example run exited ${child.status ?? child.signal} without a Rollback report`;
    process.stderr.write(
      `warning: no code cache recorded (${why}); mcp-gate works without it, only slower to start.\n${child.stderr ?? ''}`,
    );
  }
  // The build is complete: the test setup (test/global-setup.ts) rebuilds only when a source is newer.
  writeFileSync(join(root, 'dist/.build-complete'), `${new Date().toISOString()}\n`);
}
