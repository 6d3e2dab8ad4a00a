// Shared by the launchers (bin/mcp-gate.js, bin/mcp-gate-action.js): `npm run build` packs mcp-gate
// into dist/packed/mcp-gate.cjs (scripts/pack.mjs) and records a V8 code cache beside it
// (scripts/record-code-cache.mjs, src/launch.ts). The launchers are CommonJS (bin/package.json),
// and so is the launcher they load (dist/launch.cjs): an ES module as the entry point costs every
// run Node's ES module loader, 10 to 18 ms before the gate's first line (bench/README.md).
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const PACKED = join(__dirname, '../dist/packed/mcp-gate.cjs');

/**
 * Runs `start` with the packed gate's exports. Without a build, or when the packed file cannot be
 * loaded, says so and exits 3 (could not decide): never 1, which would read as a Rollback.
 */
async function launch(start) {
  if (!existsSync(PACKED)) {
    process.stderr.write('mcp-gate: dist/ is missing. Run `npm run build` first.\n');
    process.exitCode = 3;
    return;
  }
  let gate;
  try {
    const { loadPacked } = require('../dist/launch.cjs');
    gate = loadPacked(PACKED).exports;
  } catch (error) {
    process.stderr.write(`mcp-gate: could not start from dist/ (run \`npm run build\`): ${error?.stack ?? error}\n`);
    process.exitCode = 3;
    return;
  }
  await start(gate);
}

module.exports = { launch };
