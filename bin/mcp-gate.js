#!/usr/bin/env node
// Thin launcher: `npm run build` compiles the CLI and bundles it into dist/entry (scripts/bundle.mjs).
import('../dist/entry/cli.js').catch((error) => {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/entry/cli.js')) {
    process.stderr.write('mcp-gate: dist/ is missing. Run `npm run build` first.\n');
    process.exitCode = 3;
    return;
  }
  throw error;
});
