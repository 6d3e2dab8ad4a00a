// Runs a packed CommonJS file's main(args) through its V8 code cache, with the gate's own loader
// (src/launch.ts). BENCH_RECORD_CACHE=1 records the cache at exit instead of reading it.
// Usage: node bench/run-packed.mjs PACKED.cjs ...args
import { resolve } from 'node:path';
import { loadPacked } from '../dist/launch.js';

const [packed, ...args] = process.argv.slice(2);
const { exports } = loadPacked(resolve(packed), { recordCache: process.env.BENCH_RECORD_CACHE === '1' });
await exports.main(args);
