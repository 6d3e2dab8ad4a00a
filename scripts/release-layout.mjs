#!/usr/bin/env node
// Turns a built checkout into what a release commit holds (release.yml runs it before committing
// dist/; test/integration/release-layout.test.ts runs that step of release.yml on a copy of the tree):
//   - dist/ is there, built, and carries every package the gate loads (scripts/pack.mjs bundles
//     them; scripts/compile-schemas.mjs bundles the validators' ajv helpers);
//   - package.json declares no dependency and no `prepare` script, so `uses:
//     mcp-gate/mcp-gate@<commit>` installs nothing, and `npm install git+https://...#<commit>`
//     clones and is done: no devDependencies fetched, no build, no install script for npm 11's
//     allowScripts to refuse;
//   - dist/.build-complete, the stamp of when this clone last built (for the test setup), is left
//     out: it would make every release differ from a build of the same source.
// Usage: node scripts/release-layout.mjs [DIR]   (DIR defaults to the repository root)
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The files a release needs beyond the tracked ones; the release refuses to exist without them. */
const BUILT = [
  'dist/packed/mcp-gate.cjs',
  'dist/packed/refa.cjs',
  'dist/launch.cjs',
  'dist/generated/config.cjs',
  'dist/generated/html-client.js',
];

/** package.json as a release commit carries it. */
export function releaseManifest(manifest) {
  const runtime = Object.keys(manifest.dependencies ?? {});
  if (runtime.length) {
    throw new Error(
      `package.json: dependencies must be empty, since dist/packed holds everything the gate loads; found ${runtime.join(', ')}`,
    );
  }
  const { prepare: _prepare, ...scripts } = manifest.scripts ?? {};
  const { devDependencies: _dev, dependencies: _deps, ...rest } = manifest;
  return { ...rest, scripts };
}

export function makeReleaseLayout(dir) {
  const missing = BUILT.filter((file) => !existsSync(join(dir, file)));
  if (missing.length) throw new Error(`${dir}: not built (missing ${missing.join(', ')}); run \`npm run build\` first`);
  const file = join(dir, 'package.json');
  const manifest = releaseManifest(JSON.parse(readFileSync(file, 'utf8')));
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  rmSync(join(dir, 'dist/.build-complete'), { force: true });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    makeReleaseLayout(resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url))));
  } catch (error) {
    process.stderr.write(`release-layout: ${error.message}\n`);
    process.exitCode = 1;
  }
}
