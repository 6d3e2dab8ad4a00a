// Shared by the launchers (bin/mcp-gate.js, bin/mcp-gate-action.js): `npm run build` bundles
// mcp-gate into dist/entry (scripts/bundle.mjs) and records a V8 code cache beside each bundle
// (scripts/record-code-cache.mjs, src/launch.ts).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = (name) => fileURLToPath(new URL(`../dist/entry/${name}`, import.meta.url));

/**
 * Runs `start` with a loader of the bundles' exports. Without a build, or when a bundle cannot be
 * loaded, says so and exits 3 (could not decide): never 1, which would read as a Rollback.
 */
export async function launch(start) {
  if (!existsSync(entry('mcp-gate.cjs')) || !existsSync(entry('cli.cjs'))) {
    process.stderr.write('mcp-gate: dist/ is missing. Run `npm run build` first.\n');
    process.exitCode = 3;
    return;
  }
  try {
    const { loadBundle } = await import('../dist/launch.js');
    await start((name) => loadBundle(entry(name)).exports);
  } catch (error) {
    process.stderr.write(`mcp-gate: could not start from dist/ (run \`npm run build\`): ${error?.stack ?? error}\n`);
    process.exitCode = 3;
  }
}
