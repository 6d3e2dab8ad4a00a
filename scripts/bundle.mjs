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
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/entry`;
rmSync(outdir, { recursive: true, force: true });

const options = {
  absWorkingDir: root,
  outdir,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // Whitespace and syntax only: identifiers keep their names, so stack traces and error class
  // names still read as in the source.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: 'linked',
  // The launcher runs a bundle as a vm.Script, where import() has no loader once the code comes
  // from the cache (Node 20): the one a dependency makes (node:crypto) becomes require().
  supported: { 'dynamic-import': false },
  // The sources find package files from their own URL (src/package-root.ts); in a CommonJS bundle
  // that is the bundle's file.
  define: { 'import.meta.url': '__mcpGateBundleUrl' },
  // "use strict" first: the sources were ES modules, always strict, and esbuild's own directive
  // would come after the banner, where it does nothing.
  banner: { js: "'use strict';\nconst __mcpGateBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning', // errors reject the promise, which fails the build
};

await build({ ...options, entryPoints: { cli: 'dist/cli.js' } });
await build({ ...options, entryPoints: { 'mcp-gate': 'dist/entry.js' } });
