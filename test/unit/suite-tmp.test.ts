import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { basename, dirname } from 'node:path';
import { expect, it } from 'vitest';

// test/temp-dir-setup.ts: a run's temporary folders, the tests' and those of the processes they
// start, go under one folder that the run removes when it ends, so a run leaves nothing in /tmp.
it("a run's temporary folders are under its own folder, for the tests and the processes they start", () => {
  const child = execFileSync(process.execPath, ['-e', 'process.stdout.write(require("node:os").tmpdir())'], { encoding: 'utf8' });
  expect(basename(tmpdir())).toMatch(/^mcp-gate-suite-/);
  expect(child).toBe(tmpdir());
  expect(dirname(tmpdir())).not.toMatch(/mcp-gate-suite-/);
});
