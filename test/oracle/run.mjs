#!/usr/bin/env node
// `npm run oracle`: bundles test/oracle/main.ts (with the one function of the gate it measures,
// diffContracts) into node_modules/.cache/mcp-gate-oracle/oracle.mjs with esbuild, which the build
// already uses, and runs it on Node 20 with no TypeScript loader. Flags: see test/oracle/main.ts.
import { build } from 'esbuild';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const outfile = join(root, 'node_modules', '.cache', 'mcp-gate-oracle', 'oracle.mjs');
await build({
  absWorkingDir: root,
  entryPoints: ['test/oracle/main.ts'],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'inline',
  logLevel: 'warning',
  // The bundle lives elsewhere; the oracle reads the recorded schemas beside its sources.
  define: { 'import.meta.dirname': JSON.stringify(join(root, 'test', 'oracle')) },
});
const { main } = await import(pathToFileURL(outfile).href);
process.exitCode = await main(process.argv.slice(2));
