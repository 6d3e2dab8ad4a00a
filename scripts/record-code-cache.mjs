#!/usr/bin/env node
// The last step of `npm run build`: records the V8 code caches of the CLI's two bundles
// (dist/entry/cli.cjs.v8cache and mcp-gate.cjs.v8cache, see src/launch.ts) from one real run of the
// CLI on the bundled example, so each cache holds the code of the whole run path, not only what
// loading compiles.
// The run happens in a child process; its report goes to a temporary folder and is removed.
// Without a cache the CLI works the same, only slower: a failed recording is a warning, not a
// failed build.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
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
const bundles = ['cli.cjs', 'mcp-gate.cjs'].map((name) => join(root, 'dist/entry', name));
const caches = bundles.map((bundle) => `${bundle}.v8cache`);

if (process.argv[2] === '--child') {
  const { loadBundle } = await import('../dist/launch.js');
  const [front, gate] = bundles;
  loadBundle(front, { recordCache: true }).exports.runCli(process.argv.slice(3), () => loadBundle(gate, { recordCache: true }).exports);
} else {
  for (const cache of caches) rmSync(cache, { force: true });
  const reports = mkdtempSync(join(tmpdir(), 'mcp-gate-code-cache-'));
  const args = ['--child', 'run', '--config', join(root, 'gate.config.yaml'), '--report-dir', reports, '--format', 'json', '--quiet'];
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), ...args], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  rmSync(reports, { recursive: true, force: true });
  // The example's candidate breaks its contract: a decided run exits 1 and prints a Rollback report.
  if (child.status === 1 && verdictOf(child.stdout) === 'Rollback' && caches.every((cache) => existsSync(cache))) {
    const kib = caches.map((cache) => (statSync(cache).size / 1024).toFixed(0));
    process.stderr.write(`code caches recorded from a run of the example: cli.cjs ${kib[0]} KiB, mcp-gate.cjs ${kib[1]} KiB\n`);
  } else {
    for (const cache of caches) rmSync(cache, { force: true });
    const why = child.error ? child.error.message : `the example run exited ${child.status ?? child.signal} without a Rollback report`;
    process.stderr.write(`warning: no code cache recorded (${why}); mcp-gate works without it, only slower to start.\n${child.stderr ?? ''}`);
  }
}
