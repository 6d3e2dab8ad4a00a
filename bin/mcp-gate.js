#!/usr/bin/env node
// Thin launcher: `npm run build` bundles the CLI into dist/entry/cli.cjs and records its V8 code
// cache (scripts/bundle.mjs, src/launch.ts).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = fileURLToPath(new URL('../dist/entry/cli.cjs', import.meta.url));
if (!existsSync(bundle)) {
  process.stderr.write('mcp-gate: dist/ is missing. Run `npm run build` first.\n');
  process.exitCode = 3;
} else {
  const { loadBundle } = await import('../dist/launch.js');
  loadBundle(bundle).exports.runCli(process.argv.slice(2));
}
