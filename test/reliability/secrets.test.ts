import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
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
      const result = await runCli(
        ['run', '-c', CONFIG, '--baseline', 'ok', '--candidate', 'leak', '--format', format, '--report-dir', dir],
        { env, timeoutMs: 20_000 },
      );
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

  it("a ${VAR} anywhere in a profile (a started HTTP server's args) is registered as a secret", async () => {
    const { loadConfig } = await import('../../src/config/load.js');
    const { redact } = await import('../../src/base/secrets.js');
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-secrets-'));
    const other = 'arg-secret-7d1e0c55b2a94f63';
    writeFileSync(
      join(dir, 'gate.config.yaml'),
      'version: 1\nprofiles:\n  a: { command: node, args: [s.js] }\n  b:\n    transport: http\n    url: http://127.0.0.1:9/mcp\n    command: node\n    args: [s.js, "--key=${ARG_SECRET}"]\nbaseline: a\ncandidate: b\n',
    );
    expect(redact(`server said --key=${other}`)).toContain(other);
    loadConfig('gate.config.yaml', { ARG_SECRET: other }, {}, dir);
    expect(redact(`server said --key=${other}`)).toBe('server said --key=***');
  });

  it('token-shaped strings the gate never handed out (GitHub, Slack, AWS) are redacted by their shape', async () => {
    const tokens = [
      'ghp_' + 'a1B2'.repeat(9),
      'ghs_' + 'Z9y8'.repeat(9),
      'github_pat_' + '11ABCDEFG0'.repeat(6),
      'xoxb-' + '1234567890-abcdefghij',
      'AKIA' + 'IOSFODNN7EXAMPLE',
    ];
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-secrets-'));
    for (const format of ['text', 'markdown', 'json']) {
      // No LEAK_TEST_TOKEN: nothing is registered, so only the shapes can catch them.
      const result = await runCli(
        ['run', '-c', CONFIG, '--baseline', 'ok', '--candidate', 'token-shapes', '--format', format, '--report-dir', dir],
        { env: { MCPGATE_PROFILES__OK__ARGS: env.MCPGATE_PROFILES__OK__ARGS }, timeoutMs: 20_000 },
      );
      for (const token of tokens) expect(result.stdout + result.stderr, `${format}: ${token}`).not.toContain(token);
      if (format === 'json')
        expect((JSON.parse(result.stdout) as Report).candidate.tools.find((t) => t.name === 'alpha')!.description).toBe(
          'Found ***, ***, ***, ***, ***.',
        );
    }
    for (const file of readdirSync(dir)) for (const token of tokens) expect(readFileSync(join(dir, file), 'utf8')).not.toContain(token);
  });

  it('a secret cut by the stderr tail leaves no fragment: the partial first line goes', async () => {
    const { StreamTail } = await import('../../src/connect/stderr-tail.js');
    const tail = new StreamTail(40);
    tail.push(Buffer.from(`key=${SECRET}\nsecond line\nthird line\n`));
    expect(tail.text()).toBe('second line\nthird line\n');
    expect(tail.text()).not.toContain(SECRET.slice(-8));
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
