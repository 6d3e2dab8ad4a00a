// Runs a CommonJS bundle's main(args) through its V8 code cache, with the gate's own loader
// (src/launch.ts). BENCH_RECORD_CACHE=1 records the cache at exit instead of reading it.
// Usage: node bench/run-bundle.mjs BUNDLE.cjs ...args
import { resolve } from 'node:path';
import { loadBundle } from '../dist/launch.js';

const [bundle, ...args] = process.argv.slice(2);
const { exports } = loadBundle(resolve(bundle), { recordCache: process.env.BENCH_RECORD_CACHE === '1' });
await exports.main(args);
