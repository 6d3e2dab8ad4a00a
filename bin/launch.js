// Shared by the launchers (bin/mcp-gate.js, bin/mcp-gate-action.js): `npm run build` bundles
// mcp-gate into dist/entry (scripts/bundle.mjs) and records a V8 code cache beside each bundle
// (scripts/record-code-cache.mjs, src/launch.ts). Returns a loader of those bundles' exports, or
// null, having said so, when there is no build.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = (name) => fileURLToPath(new URL(`../dist/entry/${name}`, import.meta.url));

export async function bundles() {
  if (!existsSync(entry('mcp-gate.cjs')) || !existsSync(entry('cli.cjs'))) {
    process.stderr.write('mcp-gate: dist/ is missing. Run `npm run build` first.\n');
    process.exitCode = 3;
    return null;
  }
  const { loadBundle } = await import('../dist/launch.js');
  return (name) => loadBundle(entry(name)).exports;
}
