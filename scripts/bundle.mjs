#!/usr/bin/env node
// Part of `npm run build`, after tsc: bundles the gate (src/entry.ts: the CLI and the GitHub
// Action) with its dependencies into one CommonJS file, dist/entry/mcp-gate.cjs, which the
// launchers in bin/ run. The last build step records a V8 code cache beside it
// (scripts/record-code-cache.mjs, src/launch.ts).
//
// Why: loading ~400 small ES and CommonJS modules (the SDK, zod, ajv, ours) one file at a time,
// then compiling them, cost the gate more CPU than the rest of a small run, on machines where two
// servers are booting at the same moment (bench/README.md). Node 20 caches compiled code only for
// scripts, not for ES modules, so the bundle is CommonJS. What only some commands need (the
// pipeline, the SDK, the HTTP transports, the reporters, the action) is still initialised only
// when first imported.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/entry`;
rmSync(outdir, { recursive: true, force: true });

await build({
  absWorkingDir: root,
  entryPoints: { 'mcp-gate': 'dist/entry.js' },
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
  // The launcher runs the bundle as a vm.Script, where import() has no loader once the code comes
  // from the cache (Node 20): the one a dependency makes (node:crypto) becomes require().
  supported: { 'dynamic-import': false },
  // The sources find package files from their own URL (src/package-root.ts); in a CommonJS bundle
  // that is the bundle's file.
  define: { 'import.meta.url': '__mcpGateBundleUrl' },
  banner: { js: "const __mcpGateBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning', // errors reject the promise, which fails the build
});
