import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

// The launcher (src/launch.ts, built to dist/launch.js) runs the CLI bundle through a V8 code
// cache. Each step is its own Node process, as in real use: a cache is recorded when a process exits.
const LAUNCH = pathToFileURL(join(ROOT, 'dist/launch.js')).href;

interface Loaded {
  answer: number | null;
  cache: string;
  file: string | null;
  runCli: string;
}

function load(bundle: string, recordCache = false): Loaded {
  const script = `
    const { loadBundle } = await import(${JSON.stringify(LAUNCH)});
    const { exports, cache } = loadBundle(${JSON.stringify(bundle)}, { recordCache: ${recordCache} });
    process.stdout.write(JSON.stringify({ answer: exports.answer?.() ?? null, cache, file: exports.file ?? null, runCli: typeof exports.runCli }));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as Loaded;
}

const bundleSource = (answer: number) => `"use strict";
const path = require('node:path');
function answer() { return ${answer}; }
module.exports = { answer, file: path.basename(__filename) };
`;

describe('the code-cached bundle launcher', () => {
  it('records a cache, uses it, and never runs a cache recorded for other source', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-launch-'));
    const bundle = join(dir, 'cli.cjs');
    writeFileSync(bundle, bundleSource(41));

    expect(load(bundle)).toEqual({ answer: 41, cache: 'absent', file: 'cli.cjs', runCli: 'undefined' });

    expect(load(bundle, true).cache).toBe('recording');
    const cacheFile = `${bundle}.v8cache`;
    expect(existsSync(cacheFile)).toBe(true);
    const digest = createHash('sha256').update(readFileSync(bundle, 'utf8')).digest();
    expect(readFileSync(cacheFile).subarray(0, 32).equals(digest)).toBe(true);

    expect(load(bundle)).toEqual({ answer: 41, cache: 'used', file: 'cli.cjs', runCli: 'undefined' });

    // A rebuilt bundle of the same length: V8 alone would accept the old cache and run its code.
    writeFileSync(bundle, bundleSource(42));
    expect(load(bundle)).toEqual({ answer: 42, cache: 'stale', file: 'cli.cjs', runCli: 'undefined' });

    writeFileSync(cacheFile, 'not a cache');
    expect(load(bundle)).toEqual({ answer: 42, cache: 'stale', file: 'cli.cjs', runCli: 'undefined' });
  });

  it('falls back to compiling when V8 refuses the cached data', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-launch-'));
    const bundle = join(dir, 'cli.cjs');
    const source = bundleSource(7);
    writeFileSync(bundle, source);
    // The right digest, then bytes V8 cannot read as its cached data.
    writeFileSync(`${bundle}.v8cache`, Buffer.concat([createHash('sha256').update(source).digest(), Buffer.alloc(256, 1)]));
    expect(load(bundle)).toEqual({ answer: 7, cache: 'refused', file: 'cli.cjs', runCli: 'undefined' });
  });

  it('the build recorded caches that this Node accepts for both bundles', () => {
    const front = join(ROOT, 'dist/entry/cli.cjs');
    const gate = join(ROOT, 'dist/entry/mcp-gate.cjs');
    expect(load(front)).toMatchObject({ cache: 'used', runCli: 'function' });
    expect(load(gate)).toMatchObject({ cache: 'used', runCli: 'undefined' });
    // Code from the cache has no loader for import() on Node 20: the build turns each into require().
    for (const bundle of [front, gate]) expect(readFileSync(bundle, 'utf8')).not.toMatch(/[^\w$.]import\(/);
    // The sources were ES modules, always strict: the bundles must be too (the directive comes first).
    for (const bundle of [front, gate]) expect(readFileSync(bundle, 'utf8').startsWith("'use strict';")).toBe(true);
    // The front stays small: --version and usage errors must not load the SDK, ajv or the YAML readers.
    expect(readFileSync(front, 'utf8')).not.toMatch(/modelcontextprotocol|ajv|js-yaml/);
  });

  it('a bundle that cannot load is exit 3 (could not decide), never 1 (Rollback)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-launch-'));
    for (const folder of ['bin', 'dist/entry']) mkdirSync(join(dir, folder), { recursive: true });
    for (const file of ['bin/launch.js', 'bin/mcp-gate.js', 'bin/mcp-gate-action.js', 'dist/launch.js']) copyFileSync(join(ROOT, file), join(dir, file));
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
    writeFileSync(join(dir, 'dist/entry/cli.cjs'), 'this is not JavaScript(');
    writeFileSync(join(dir, 'dist/entry/mcp-gate.cjs'), 'this is not JavaScript either(');
    for (const launcher of ['bin/mcp-gate.js', 'bin/mcp-gate-action.js']) {
      const run = spawnSync(process.execPath, [join(dir, launcher), '--version'], { encoding: 'utf8' });
      expect({ launcher, status: run.status, said: run.stderr.includes('could not start from dist/') }).toEqual({ launcher, status: 3, said: true });
    }
  });
});
