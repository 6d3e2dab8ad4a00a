import { isAscii } from 'node:buffer';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { VALIDATORS } from '../../src/base/validators.js';
import { ROOT } from '../helpers/cli.js';

// The launcher (src/launch.ts, built to dist/launch.cjs, which bin/launch.js requires) runs the
// packed CLI through a V8 code cache. Each step is its own Node process, as in real use: a cache is
// recorded when a process exits.
const LAUNCH = pathToFileURL(join(ROOT, 'dist/launch.cjs')).href;

interface Loaded {
  answer: number | null;
  cache: string;
  tiering?: string;
  file: string | null;
  main: string;
}

function load(bundle: string, recordCache = false, nodeFlags: string[] = []): Loaded {
  const script = `
    const { loadPacked } = await import(${JSON.stringify(LAUNCH)});
    const { exports, cache, tiering } = loadPacked(${JSON.stringify(bundle)}, { recordCache: ${recordCache} });
    process.stdout.write(JSON.stringify({ answer: exports.answer?.() ?? null, cache, tiering, file: exports.file ?? null, main: typeof exports.main }));`;
  const out = execFileSync(process.execPath, [...nodeFlags, '--input-type=module', '-e', script], { encoding: 'utf8' });
  const { tiering, ...loaded } = JSON.parse(out) as Loaded;
  return nodeFlags.length || recordCache ? { ...loaded, tiering } : loaded;
}

const bundleSource = (answer: number) => `"use strict";
const path = require('node:path');
function answer() { return ${answer}; }
module.exports = { answer, file: path.basename(__filename) };
`;

describe('the code-cached launcher of the packed CLI', () => {
  it('records a cache, uses it, and never runs a cache recorded for other source', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-launch-'));
    const bundle = join(dir, 'cli.cjs');
    writeFileSync(bundle, bundleSource(41));

    expect(load(bundle)).toEqual({ answer: 41, cache: 'absent', file: 'cli.cjs', main: 'undefined' });

    expect(load(bundle, true).cache).toBe('recording');
    const cacheFile = `${bundle}.v8cache`;
    expect(existsSync(cacheFile)).toBe(true);
    const digest = createHash('sha256').update(readFileSync(bundle, 'utf8')).digest();
    expect(readFileSync(cacheFile).subarray(0, 32).equals(digest)).toBe(true);

    expect(load(bundle)).toEqual({ answer: 41, cache: 'used', file: 'cli.cjs', main: 'undefined' });

    // A rebuilt bundle of the same length: V8 alone would accept the old cache and run its code.
    writeFileSync(bundle, bundleSource(42));
    expect(load(bundle)).toEqual({ answer: 42, cache: 'stale', file: 'cli.cjs', main: 'undefined' });

    writeFileSync(cacheFile, 'not a cache');
    expect(load(bundle)).toEqual({ answer: 42, cache: 'stale', file: 'cli.cjs', main: 'undefined' });
  });

  it("raises Node 20's tiering budget, except while recording a cache or when the command line set it", () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-launch-'));
    const bundle = join(dir, 'cli.cjs');
    writeFileSync(bundle, bundleSource(5));
    const node20 = process.versions.v8.startsWith('11.3.');
    expect(load(bundle, true).tiering).toBe(node20 ? 'recording' : 'default');
    // A cache recorded under a raised budget would carry other flags, and be refused here.
    expect(load(bundle, false, ['--no-warnings'])).toMatchObject({ cache: 'used', tiering: node20 ? 'raised' : 'default' });
    if (node20) {
      expect(load(bundle, false, ['--interrupt-budget=5000']).tiering).toBe('as-given');
      expect(load(bundle, false, ['-interrupt_budget=5000']).tiering).toBe('as-given');
    }
  });

  it('while the budget is raised V8 refuses caches made before; the restore hook makes them good again', () => {
    if (!process.versions.v8.startsWith('11.3.')) return; // only Node 20's V8 gets the raised budget
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-launch-'));
    const bundle = join(dir, 'cli.cjs');
    writeFileSync(bundle, bundleSource(3));
    // What a worker thread, or a built-in module Node loads late, goes through: caches made under
    // V8's own flags (here in another process, since V8 answers a source it compiled from memory).
    const sources = ['function raised() { return 1; }', 'function restored() { return 2; }'];
    const make = `
      const { Script } = await import('node:vm');
      const sources = ${JSON.stringify(sources)};
      process.stdout.write(JSON.stringify(sources.map((s) => new Script(s).createCachedData().toString('base64'))));`;
    const caches = execFileSync(process.execPath, ['--input-type=module', '-e', make], { encoding: 'utf8' });
    const check = `
      const { Script } = await import('node:vm');
      const sources = ${JSON.stringify(sources)};
      const caches = ${caches}.map((c) => Buffer.from(c, 'base64'));
      const { loadPacked, RESTORE_TIERING } = await import(${JSON.stringify(LAUNCH)});
      const { tiering } = loadPacked(${JSON.stringify(bundle)});
      const raised = new Script(sources[0], { cachedData: caches[0] }).cachedDataRejected;
      process[RESTORE_TIERING]();
      const restored = new Script(sources[1], { cachedData: caches[1] }).cachedDataRejected;
      process.stdout.write(JSON.stringify({ tiering, raised, restored }));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', check], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ tiering: 'raised', raised: true, restored: false });
  });

  it('reads a file that is not ASCII as UTF-8, with or without its cache', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-launch-'));
    const bundle = join(dir, 'cli.cjs');
    // Read as Latin-1, as an ASCII file is, the arrow would be three other characters.
    writeFileSync(bundle, `module.exports = { answer: () => 'a → b'.length, file: /→/.source };\n`);
    expect(load(bundle)).toMatchObject({ answer: 5, cache: 'absent', file: '→' });
    load(bundle, true);
    expect(load(bundle)).toMatchObject({ answer: 5, cache: 'used', file: '→' });
  });

  it('falls back to compiling when V8 refuses the cached data', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-launch-'));
    const bundle = join(dir, 'cli.cjs');
    const source = bundleSource(7);
    writeFileSync(bundle, source);
    // The right digest, then bytes V8 cannot read as its cached data.
    writeFileSync(`${bundle}.v8cache`, Buffer.concat([createHash('sha256').update(source).digest(), Buffer.alloc(256, 1)]));
    expect(load(bundle)).toEqual({ answer: 7, cache: 'refused', file: 'cli.cjs', main: 'undefined' });
  });

  it('the build recorded a cache that this Node accepts for the packed CLI', () => {
    const packed = join(ROOT, 'dist/packed/mcp-gate.cjs');
    expect(load(packed)).toMatchObject({ cache: 'used', main: 'function' });
    const source = readFileSync(packed, 'utf8');
    // Code from the cache has no loader for import() on Node 20: the build turns each into require().
    expect(source).not.toMatch(/[^\w$.]import\(/);
    // The sources were ES modules, always strict: so must the packed file be (the directive comes first).
    expect(source.startsWith("'use strict';")).toBe(true);
    // ASCII, so the launcher reads it without decoding UTF-8 (the build fails otherwise).
    expect(isAscii(readFileSync(packed))).toBe(true);
    // The validators built to dist/generated are in it, so they load from its code cache.
    const built = /BUILT_VALIDATORS=\{([^}]*)\}/.exec(source)?.[1] ?? '';
    expect(
      built
        .split(',')
        .map((entry) => entry.split(':')[0]!.replaceAll('"', ''))
        .sort(),
    ).toEqual(Object.keys(VALIDATORS).sort());
  });

  it('a packed CLI that cannot load is exit 3 (could not decide), never 1 (Rollback)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-launch-'));
    for (const folder of ['bin', 'dist/packed']) mkdirSync(join(dir, folder), { recursive: true });
    for (const file of ['bin/package.json', 'bin/launch.js', 'bin/mcp-gate.js', 'bin/mcp-gate-action.js', 'dist/launch.cjs'])
      copyFileSync(join(ROOT, file), join(dir, file));
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
    writeFileSync(join(dir, 'dist/packed/mcp-gate.cjs'), 'this is not JavaScript(');
    for (const launcher of ['bin/mcp-gate.js', 'bin/mcp-gate-action.js']) {
      const run = spawnSync(process.execPath, [join(dir, launcher), '--version'], { encoding: 'utf8' });
      expect({ launcher, status: run.status, said: run.stderr.includes('could not start from dist/') }).toEqual({
        launcher,
        status: 3,
        said: true,
      });
    }
  });
});
