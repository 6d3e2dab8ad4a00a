#!/usr/bin/env node
// Part of `npm run build`, after tsc: compiles every validator in src/base/validators.ts to code
// (ajv's standalone output) in dist/generated, so the gate loads code instead of compiling schemas.
//
// ajv's standalone code still require()s a few runtime helpers (ajv/dist/runtime/equal, ucs2length,
// uri...). A release carries dist/ but no node_modules (release.yml), so each file is bundled with
// those helpers by esbuild: what the gate loads from dist/generated needs no package at run time.
import { build } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { compileValidator, VALIDATORS } from '../dist/base/validators.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const standaloneCode = createRequire(import.meta.url)('ajv/dist/standalone').default;
const out = `${root}dist/generated/`;
mkdirSync(out, { recursive: true });
for (const [name, spec] of Object.entries(VALIDATORS)) {
  const { ajv, validate } = compileValidator(spec, true);
  await build({
    stdin: { contents: standaloneCode(ajv, validate), resolveDir: root, loader: 'js', sourcefile: `${name}.cjs` },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minifyWhitespace: true,
    minifySyntax: true,
    outfile: `${out}${name}.cjs`,
    logLevel: 'warning',
  });
}
