#!/usr/bin/env node
// Part of `npm run build`, after tsc: compiles every validator in src/validators.ts to code
// (ajv's standalone output) in dist/generated, so the gate loads code instead of compiling schemas.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { compileValidator, VALIDATORS } from '../dist/validators.js';

const standaloneCode = createRequire(import.meta.url)('ajv/dist/standalone').default;
const out = new URL('../dist/generated/', import.meta.url);
mkdirSync(out, { recursive: true });
for (const [name, spec] of Object.entries(VALIDATORS)) {
  const { ajv, validate } = compileValidator(spec, true);
  writeFileSync(new URL(`${name}.cjs`, out), standaloneCode(ajv, validate));
}
