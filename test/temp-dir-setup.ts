import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Every temporary folder a run makes goes under one folder of its own, removed when the run ends:
 * the tests, the CLI and servers they start, and the gate's own scratch folders all read `TMPDIR`
 * (Node's `os.tmpdir()`), which the workers inherit from here. A run used to leave its folders
 * behind (a copy of the release layout alone is 139 MB). `MCPGATE_KEEP_TMP=1` keeps the folder
 * for a look after a failure, and says where it is.
 */
export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-suite-'));
  // As /tmp is: tests that run a step as another user (test/helpers/sudo.ts) reach their folders.
  chmodSync(dir, 0o1777);
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    if (process.env.MCPGATE_KEEP_TMP === '1') {
      process.stderr.write(`test teardown: kept the run's temporary folders in ${dir} (MCPGATE_KEEP_TMP=1)\n`);
      return;
    }
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch (error) {
      process.stderr.write(`test teardown: could not remove ${dir}: ${(error as Error).message}\n`);
    }
  };
}
