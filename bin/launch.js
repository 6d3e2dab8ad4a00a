// Shared by the launchers (bin/mcp-gate.js, bin/mcp-gate-action.js): `npm run build` bundles the
// gate into dist/entry/mcp-gate.cjs and records its V8 code cache (scripts/bundle.mjs,
// scripts/record-code-cache.mjs, src/launch.ts). Returns the bundle's exports, or null without a build.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export async function loadGate() {
  const bundle = fileURLToPath(new URL('../dist/entry/mcp-gate.cjs', import.meta.url));
  if (!existsSync(bundle)) {
    process.stderr.write('mcp-gate: dist/ is missing. Run `npm run build` first.\n');
    process.exitCode = 3;
    return null;
  }
  const { loadBundle } = await import('../dist/launch.js');
  return loadBundle(bundle).exports;
}
