import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

/**
 * Runs a bundle of mcp-gate (dist/entry/cli.cjs, the CLI's front, or dist/entry/mcp-gate.cjs, the
 * gate; each one CommonJS file) with the V8 code cache that `npm run build` recorded beside it.
 * Node 20 has no compile cache for ES modules, and compiling the gate's megabyte of JavaScript on
 * every run cost the gate about a third of its own CPU on the example (bench/README.md). The cache
 * is only a shortcut: when it is missing, was recorded by another Node or V8 flags, or belongs to
 * another build of the bundle, the bundle compiles as usual.
 *
 * Cache file: the SHA-256 of the bundle's source (32 bytes), then V8's cached data.
 */

const DIGEST_BYTES = 32;

export const cacheFileOf = (bundle: string): string => `${bundle}.v8cache`;

/** Node's own CommonJS wrapper, written out, so the cache belongs to exactly this text. */
const wrap = (source: string): string => `(function (exports, require, module, __filename, __dirname) {${source}\n})`;

const digestOf = (source: string): Buffer => createHash('sha256').update(source).digest();

function compile(bundle: string, source: string, cached: Buffer | undefined): Script {
  return new Script(wrap(source), { filename: bundle, cachedData: cached });
}

/**
 * What became of the recorded cache: used; refused by V8 (another Node, other V8 flags); stale
 * (recorded for another build of the bundle); absent; or not read because this run records one.
 */
export type CacheUse = 'used' | 'refused' | 'stale' | 'absent' | 'recording';

/** The bundle's recorded cache when it belongs to this source. */
function cachedDataFor(bundle: string, source: string): { data?: Buffer; use: CacheUse } {
  let file: Buffer;
  try {
    file = readFileSync(cacheFileOf(bundle));
  } catch {
    return { use: 'absent' };
  }
  // V8 itself checks only the source's length: a rebuilt bundle of the same length would run stale code.
  if (file.length <= DIGEST_BYTES || !file.subarray(0, DIGEST_BYTES).equals(digestOf(source))) return { use: 'stale' };
  return { data: file.subarray(DIGEST_BYTES), use: 'used' };
}

function evaluate(bundle: string, script: Script): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  const factory = script.runInThisContext() as (...args: unknown[]) => void;
  factory.call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  return module.exports;
}

/**
 * Loads a CommonJS bundle as `require` would, through its code cache when it has a usable one.
 * `recordCache` is for the build (scripts/record-code-cache.mjs): compile afresh and, when the
 * process exits, write what V8 compiled by then. After a whole run that is every function on the
 * gate's path, not only the outline V8 compiles up front, which saves about half as much again.
 */
export function loadBundle(bundle: string, options: { recordCache?: boolean } = {}): { exports: Record<string, unknown>; cache: CacheUse } {
  const source = readFileSync(bundle, 'utf8');
  const cached: { data?: Buffer; use: CacheUse } = options.recordCache ? { use: 'recording' } : cachedDataFor(bundle, source);
  const script = compile(bundle, source, cached.data);
  if (options.recordCache) process.once('exit', () => writeCache(bundle, source, script));
  const cache = cached.data && script.cachedDataRejected ? 'refused' : cached.use;
  return { exports: evaluate(bundle, script), cache };
}

function writeCache(bundle: string, source: string, script: Script): void {
  const file = cacheFileOf(bundle);
  // Per process: two builds at once (tests and the bench) must not write into one temporary file.
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, Buffer.concat([digestOf(source), script.createCachedData()]));
    renameSync(temp, file);
  } catch (error) {
    process.stderr.write(`mcp-gate: could not write the code cache ${file}: ${(error as Error).message}\n`);
    process.exitCode = 3;
  }
}
