import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import type { Report } from '../../src/report/types.js';

/**
 * A planted secret: profiles pass it to the `leak` servers as API_TOKEN="${LEAK_TEST_TOKEN}", and
 * those servers echo it on stderr, in a tool description, in serverInfo.version and in an error
 * result. It must not come out of the gate anywhere: stdout in every format, stderr, the report.
 */
const SECRET = 'sk-live-3f9a1c77e2b94d0aa5c1';
const CONFIG = join(ROOT, 'test/fixtures/servers/hostile.config.yaml');
// The `ok` server gets a tag of its own, so hostile.test.ts never counts it as its leftover.
const env = { LEAK_TEST_TOKEN: SECRET, MCPGATE_PROFILES__OK__ARGS: '[hostile-server.mjs, ok, --tag=secrets-ok]' };

describe('secrets handed to servers never leave the gate', { timeout: 60_000 }, () => {
  it('is redacted from stdout (text, json, markdown), stderr and the saved report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-secrets-'));
    for (const format of ['text', 'json', 'markdown']) {
      const result = await runCli(['run', '-c', CONFIG, '--baseline', 'ok', '--candidate', 'leak', '--format', format, '--report-dir', dir], { env, timeoutMs: 20_000 });
      expect(result.code, result.stderr).toBe(1); // the probe returns an error: case-broken
      expect(result.stdout).not.toContain(SECRET);
      expect(result.stderr).not.toContain(SECRET);
      if (format === 'json') {
        const report = JSON.parse(result.stdout) as Report;
        // The leaks were there to be caught: each one is present, redacted.
        expect(report.candidate.stderr.tail).toContain('API_TOKEN=***');
        expect(report.candidate.server.version).toBe('0.0.1+***');
        expect(report.candidate.tools.find((t) => t.name === 'alpha')!.description).toBe('Looks things up (key ***).');
        expect(JSON.stringify(report.candidate.caseResults)).toContain('token *** was refused');
      }
    }
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files).toHaveLength(3);
    for (const file of files) expect(readFileSync(join(dir, file), 'utf8')).not.toContain(SECRET);
  });

  it('is redacted from the exit-3 message of a baseline that fails and prints it', async () => {
    const result = await runCli(['run', '-c', CONFIG, '--baseline', 'leak-exit', '--candidate', 'ok'], { env, timeoutMs: 20_000 });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('API_TOKEN=***');
    expect(result.stderr).not.toContain(SECRET);
  });

  it('is redacted from a written snapshot', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-secrets-'));
    const out = join(dir, 'leak.contract.json');
    const result = await runCli(['snapshot', '-c', CONFIG, '--profile', 'leak', '-o', out], { env, timeoutMs: 20_000 });
    expect(result.code, result.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('***');
    expect(text).not.toContain(SECRET);
  });
});
