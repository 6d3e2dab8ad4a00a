#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm run build`.
import('../dist/cli.js').catch((error) => {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/cli.js')) {
    process.stderr.write('mcp-gate: dist/ is missing. Run `npm run build` first.\n');
    process.exitCode = 3;
    return;
  }
  throw error;
});
