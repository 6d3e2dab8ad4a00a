import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

/** `mcp-gate diff FILE FILE` names each side by its file, and the text output honours FORCE_COLOR and NO_COLOR. */
describe('side names and colour in the human formats', () => {
  let files: string;
  let elsewhere: string;
  beforeAll(async () => {
    files = mkdtempSync(join(tmpdir(), 'mcp-gate-sides-'));
    elsewhere = mkdtempSync(join(tmpdir(), 'mcp-gate-cwd-'));
    for (const profile of ['baseline', 'candidate']) {
      const snap = await runCli(['snapshot', '--profile', profile, '-o', join(files, `${profile}.json`), '--quiet']);
      expect(snap.code, snap.stderr).toBe(0);
    }
    mkdirSync(join(files, 'old'));
    mkdirSync(join(files, 'new'));
    copyFileSync(join(files, 'baseline.json'), join(files, 'old/contract.json'));
    copyFileSync(join(files, 'candidate.json'), join(files, 'new/contract.json'));
  }, 60_000);

  it.each(['text', 'markdown'])('%s: files outside the working folder are named by file name, never by absolute path', async (format) => {
    const diff = await runCli(
      ['diff', join(files, 'baseline.json'), join(files, 'candidate.json'), '--format', format, '--fail-on', 'never'],
      {
        cwd: elsewhere,
      },
    );
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).not.toContain(files);
    expect(diff.stdout).toContain('baseline.json');
    expect(diff.stdout).toContain('candidate.json');
  });

  it('two files of one name are told apart as before and after', async () => {
    const diff = await runCli(['diff', join(files, 'old/contract.json'), join(files, 'new/contract.json'), '--fail-on', 'never'], {
      cwd: elsewhere,
    });
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).not.toContain(files);
    expect(diff.stdout).toContain('contract.json (before)');
    expect(diff.stdout).toContain('contract.json (after)');
  });

  it('FORCE_COLOR colours the text in a pipe; NO_COLOR, FORCE_COLOR=0 and a plain pipe do not', async () => {
    const show = (env: Record<string, string | undefined>) =>
      runCli(['show', 'docs/examples/support-ops-rollback.report.json'], { env: { NO_COLOR: undefined, FORCE_COLOR: undefined, ...env } });
    const forced = await show({ FORCE_COLOR: '1' });
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain('\u001b[1mDecision:\u001b[22m');
    expect(forced.stdout).toContain('\u001b[31m');
    for (const env of [{ NO_COLOR: '1' }, { FORCE_COLOR: '0' }, {}]) {
      const plain = await show(env);
      expect(plain.code, plain.stderr).toBe(0);
      expect(plain.stdout, JSON.stringify(env)).not.toContain('\u001b[');
      expect(plain.stdout).toContain('Decision: Rollback');
    }
  });
});
