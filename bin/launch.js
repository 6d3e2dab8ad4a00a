// Shared by the launchers (bin/mcp-gate.js, bin/mcp-gate-action.js): `npm run build` packs mcp-gate
// into dist/packed/mcp-gate.cjs (scripts/pack.mjs) and records a V8 code cache beside it
// (scripts/record-code-cache.mjs, src/launch.ts).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const PACKED = fileURLToPath(new URL('../dist/packed/mcp-gate.cjs', import.meta.url));

/**
 * Runs `start` with the packed gate's exports. Without a build, or when the packed file cannot be
 * loaded, says so and exits 3 (could not decide): never 1, which would read as a Rollback.
 */
export async function launch(start) {
  if (!existsSync(PACKED)) {
    process.stderr.write('mcp-gate: dist/ is missing. Run `npm run build` first.\n');
    process.exitCode = 3;
    return;
  }
  let gate;
  try {
    const { loadPacked } = await import('../dist/launch.js');
    gate = loadPacked(PACKED).exports;
  } catch (error) {
    process.stderr.write(`mcp-gate: could not start from dist/ (run \`npm run build\`): ${error?.stack ?? error}\n`);
    process.exitCode = 3;
    return;
  }
  await start(gate);
}
