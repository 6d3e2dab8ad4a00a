#!/usr/bin/env node
// Part of `npm run build`, after tsc: bundles mcp-gate with its dependencies into two CommonJS
// files in dist/entry, which the launchers in bin/ run:
// - cli.cjs, the CLI's front (src/cli.ts): arguments, --version, --help, usage errors. Small, so
//   those cost little more than Node's own start;
// - mcp-gate.cjs, the gate (src/entry.ts): every command, and the GitHub Action.
// The last build step records a V8 code cache beside each (scripts/record-code-cache.mjs,
// src/launch.ts).
//
// Why: loading ~400 small ES and CommonJS modules (the SDK, zod, ajv, ours) one file at a time,
// then compiling them, cost the gate more CPU than the rest of a small run, on machines where two
// servers are booting at the same moment (bench/README.md). Node 20 caches compiled code only for
// scripts, not for ES modules, so the bundles are CommonJS. What only some commands need (the
// pipeline, the SDK, the HTTP transports, the reporters, the action) is still initialised only
// when first imported.
import { build } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { CLIENT_BUILD, CLIENT_BUNDLE } from '../dist/report/html/script.js';
import { fileURLToPath } from 'node:url';
import { BUNDLE_OPTIONS } from './bundle-options.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/entry`;
rmSync(outdir, { recursive: true, force: true });

const options = { ...BUNDLE_OPTIONS, absWorkingDir: root, outdir, outExtension: { '.js': '.cjs' } };

await build({ ...options, entryPoints: { cli: 'dist/cli.js' } });
await build({ ...options, entryPoints: { 'mcp-gate': 'dist/entry.js' } });

// The HTML report's page script (src/report/html/client), one browser script that the report embeds.
const page = await build(CLIENT_BUILD);
mkdirSync(`${root}dist/generated`, { recursive: true });
writeFileSync(`${root}${CLIENT_BUNDLE}`, page.outputFiles[0].text);
