// Runs a packed CommonJS file's main(args) through its V8 code cache, with the gate's own loader
// (src/launch.ts). BENCH_RECORD_CACHE=1 records the cache at exit instead of reading it.
// Usage: node bench/run-packed.cjs PACKED.cjs ...args
// CommonJS, as the gate's launchers are (bin/launch.js).
'use strict';
const { resolve } = require('node:path');
const { loadPacked } = require('../dist/launch.cjs');

const [packed, ...args] = process.argv.slice(2);
const { exports: packedExports } = loadPacked(resolve(packed), { recordCache: process.env.BENCH_RECORD_CACHE === '1' });
packedExports.main(args);
