#!/usr/bin/env node
// Part of `npm run build`, after tsc: bundles the two entry points with their dependencies into
// dist/entry.
//
// Why: loading ~400 small ES and CommonJS modules (the SDK, zod, ajv, ours) one file at a time
// costs the gate more CPU than the rest of a small run, on machines where two servers are booting
// at the same moment (bench/README.md).
//
// - The CLI (what bin/mcp-gate.js runs) is one CommonJS file, dist/entry/cli.cjs. The last build
//   step records a V8 code cache beside it (scripts/record-code-cache.mjs, src/launch.ts):
//   compiling the bundle anew on every run was the largest part of what was left. Node 20 can cache code only for scripts, not ES modules, so the
//   CLI bundle is CommonJS; what only some commands need is still initialised when first imported.
// - The GitHub Action (what action.yml runs) is an ES module bundle with code splitting.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/entry`;
rmSync(outdir, { recursive: true, force: true });

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  // Whitespace and syntax only: identifiers keep their names, so stack traces and error class
  // names still read as in the source.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: 'linked',
  logLevel: 'warning', // errors reject the promise, which fails the build
};

await build({
  ...common,
  entryPoints: { cli: 'dist/cli.js' },
  outdir,
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // The sources find package files from their own URL (src/package-root.ts); in a CommonJS bundle
  // that is the bundle's file.
  define: { 'import.meta.url': '__mcpGateBundleUrl' },
  banner: { js: "const __mcpGateBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
});

await build({
  ...common,
  entryPoints: { action: 'dist/action/main.js' },
  outdir,
  splitting: true,
  format: 'esm',
  // CommonJS dependencies (ajv) call require() for Node's built-ins; an ES module has none.
  banner: { js: "import { createRequire as __mcpGateRequire } from 'node:module'; const require = __mcpGateRequire(import.meta.url);" },
});
