import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';

/**
 * Runs the packed CLI (dist/packed/mcp-gate.cjs, one CommonJS file made by scripts/pack.mjs) with
 * the V8 code cache that `npm run build` recorded beside it. Node 20 has no compile cache for ES
 * modules, and compiling the gate's megabyte of JavaScript on every run cost the gate about a
 * quarter of its own CPU on the example (bench/README.md). The cache is only a shortcut: when it is
 * missing, was recorded by another Node or V8 flags, or belongs to another build of the packed
 * file, the file compiles as usual.
 *
 * Cache file: the SHA-256 of the packed file's bytes (32 bytes), then V8's cached data.
 */

const DIGEST_BYTES = 32;

export const cacheFileOf = (packed: string): string => `${packed}.v8cache`;

/** Node's own CommonJS wrapper, written out, so the cache belongs to exactly this text. */
const wrap = (source: string): string => `(function (exports, require, module, __filename, __dirname) {${source}\n})`;

const digestOf = (bytes: Buffer): Buffer => createHash('sha256').update(bytes).digest();

/**
 * The packed file's text. esbuild escapes what is not ASCII, and a build fails when something is
 * left (scripts/pack.mjs): ASCII read as Latin-1 is the same text, made without decoding UTF-8, as a
 * one-byte string, which V8 holds in half the memory and scans faster. Decoding 1.7 MB of UTF-8 and
 * hashing the text again took 13 ms of every run before it started its servers.
 */
const textOf = (bytes: Buffer): string => (isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8'));

/**
 * The name V8 gives the packed file's code, the same wherever it is: V8 keeps the name a cache was
 * recorded under (and names stack frames with it), so the folder the build ran in would be baked
 * into the cache that ships in dist/. Stack traces name the file where it is now (stackOf, in
 * src/base/error-text.ts); `__filename` and `require` are the real path.
 */
const PACKED_NAME = 'mcp-gate/dist/packed/mcp-gate.cjs';

function compile(source: string, cached: Buffer | undefined): Script {
  return new Script(wrap(source), { filename: PACKED_NAME, cachedData: cached });
}

/**
 * What became of the recorded cache: used; refused by V8 (another Node, other V8 flags); stale
 * (recorded for another build of the packed file); absent; or not read because this run records one.
 */
export type CacheUse = 'used' | 'refused' | 'stale' | 'absent' | 'recording';

/** The packed file's recorded cache when it belongs to this source. */
function cachedDataFor(packed: string, bytes: Buffer): { data?: Buffer; use: CacheUse } {
  let file: Buffer;
  try {
    file = readFileSync(cacheFileOf(packed));
  } catch {
    return { use: 'absent' };
  }
  // V8 itself checks only the source's length: a rebuilt file of the same length would run stale code.
  if (file.length <= DIGEST_BYTES || !file.subarray(0, DIGEST_BYTES).equals(digestOf(bytes))) return { use: 'stale' };
  return { data: file.subarray(DIGEST_BYTES), use: 'used' };
}

/**
 * How much bytecode a function runs, per tick, before Node 20's V8 (11.3) considers optimising it
 * with TurboFan: 15 times V8's own figure (`V8_INTERRUPT_BUDGET`, 66 KB). A gate run is short and
 * cold, and at the default that V8 spends more CPU compiling than the optimised code gives back: at
 * 1,000 tools it compiled 94 functions for about 1.1 s of its background thread's CPU (the yaml
 * package's lexer and parser, 25 to 90 ms each, most of it), in a run whose own CPU was about 1.3 s
 * (`--trace-opt`). Raised, only code that stays hot is optimised.
 *
 * Only there: the V8s of Node 22 and 24 have no such flag (setting an unknown one prints V8's error
 * on stderr) and tier up by invocation counts, and raising those measured no gain on Node 24 and
 * about 10% at 1,000 tools on Node 22. bench/README.md has the figures. The flag tunes when code
 * is compiled, never what it computes.
 */
export const INTERRUPT_BUDGET = 1_000_000;
const V8_INTERRUPT_BUDGET = 67_584;

/**
 * V8 checks every code cache against its flags, Node's own built-in modules' too: while the budget
 * is raised, a module Node loads for the first time, and every module a worker thread starts with,
 * compiles without its cache (a worker then costs about 60 ms more CPU). The watchdog
 * (src/connect/watchdog.ts) calls this hook, when the launcher set it, before it starts its worker
 * 2 s into a run: by then the run is past its cold start, and the rest of it tiers as V8 would.
 */
export const RESTORE_TIERING = Symbol.for('mcp-gate.restoreTiering');

/**
 * What the launcher did about V8's tiering: raised the budget (Node 20); left it as the command
 * line set it; left it while recording the code cache, which V8 ties to the flags in force when it
 * is made (a cache recorded under the raised budget would be refused by every process that loads
 * it); or left V8's own tiering alone (any V8 but Node 20's).
 */
export type Tiering = 'raised' | 'as-given' | 'recording' | 'default';

function tune(recording: boolean, v8 = process.versions.v8): Tiering {
  if (!v8.startsWith('11.3.')) return 'default';
  if (recording) return 'recording';
  if (process.execArgv.some((arg) => /^--?interrupt[-_]budget(=|$)/.test(arg))) return 'as-given';
  setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
  // Back to V8's own value, V8's flags (and so every cache's check) are as they were.
  (process as unknown as Record<symbol, () => void>)[RESTORE_TIERING] = () =>
    setFlagsFromString(`--interrupt-budget=${V8_INTERRUPT_BUDGET}`);
  return 'raised';
}

function evaluate(packed: string, script: Script): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  const factory = script.runInThisContext() as (...args: unknown[]) => void;
  factory.call(module.exports, module.exports, createRequire(packed), module, packed, dirname(packed));
  return module.exports;
}

/**
 * Loads a packed CommonJS file as `require` would, through its code cache when it has a usable one.
 * `recordCache` is for the build (scripts/record-code-cache.mjs): compile afresh and, when the
 * process exits, write what V8 compiled by then. After a whole run that is every function on the
 * gate's path, not only the outline V8 compiles up front, which saves about half as much again.
 */
export function loadPacked(
  packed: string,
  options: { recordCache?: boolean } = {},
): { exports: Record<string, unknown>; cache: CacheUse; tiering: Tiering } {
  const bytes = readFileSync(packed);
  const cached: { data?: Buffer; use: CacheUse } = options.recordCache ? { use: 'recording' } : cachedDataFor(packed, bytes);
  const script = compile(textOf(bytes), cached.data);
  if (options.recordCache) process.once('exit', () => writeCache(packed, bytes, script));
  const cache = cached.data && script.cachedDataRejected ? 'refused' : cached.use;
  const exports = evaluate(packed, script);
  // After the packed file is compiled from its cache and has set itself up, with the built-in
  // modules it loads at the top: each of those is checked against V8's flags as they were.
  return { exports, cache, tiering: tune(!!options.recordCache) };
}

function writeCache(packed: string, bytes: Buffer, script: Script): void {
  const file = cacheFileOf(packed);
  // Per process: two builds at once (tests and the bench) must not write into one temporary file.
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, Buffer.concat([digestOf(bytes), script.createCachedData()]));
    renameSync(temp, file);
  } catch (error) {
    process.stderr.write(`mcp-gate: could not write the code cache ${file}: ${(error as Error).message}\n`);
    process.exitCode = 3;
  }
}
