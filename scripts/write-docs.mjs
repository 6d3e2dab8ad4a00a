#!/usr/bin/env node
// `npm run docs`: writes the parts of docs/ that the code table says (the code tables of
// docs/codes.md, the list of checks in docs/audit.md) between their markers, from
// src/findings/code-tables.ts built to dist/. The prose around them is written by hand.
// test/unit/readme-codes.test.ts fails while a committed page differs, so run this after adding
// or changing a code.
import { readFileSync, writeFileSync } from 'node:fs';
import { GENERATED, withGenerated } from '../dist/findings/code-tables.js';

for (const page of Object.keys(GENERATED)) {
  const file = new URL(`../${page}`, import.meta.url);
  writeFileSync(file, withGenerated(page, readFileSync(file, 'utf8')));
  process.stderr.write(`wrote the generated parts of ${page}\n`);
}
