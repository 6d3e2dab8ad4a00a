#!/usr/bin/env node
// Part of `npm run build`, after tsc: bundles the two entry points (the CLI and the GitHub Action)
// with their dependencies into dist/entry, which is what bin/mcp-gate.js and action.yml run.
//
// Why: loading ~400 small ES and CommonJS modules (the SDK, zod, ajv, ours) one file at a time
// costs the gate more CPU than the rest of a small run, on machines where two servers are booting
// at the same moment (bench/README.md). Code splitting keeps what only some commands need (the
// pipeline, the SDK, the HTTP transports, the reporters) in chunks loaded when first imported.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/entry`;
rmSync(outdir, { recursive: true, force: true });

await build({
  absWorkingDir: root,
  entryPoints: { cli: 'dist/cli.js', action: 'dist/action/main.js' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Whitespace and syntax only: identifiers keep their names, so stack traces and error class
  // names still read as in the source.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: 'linked',
  // CommonJS dependencies (ajv) call require() for Node's built-ins; an ES module has none.
  banner: { js: "import { createRequire as __mcpGateRequire } from 'node:module'; const require = __mcpGateRequire(import.meta.url);" },
  logLevel: 'warning', // errors reject the promise, which fails the build
});
