import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, scratchProject, type CliResult } from '../helpers/cli.js';
import { EXAMPLE_SERVER, addProfiles, freePort } from '../helpers/http.js';
import { processesMatching } from '../helpers/processes.js';
import type { Report } from '../../src/report/types.js';

/**
 * A credential planted in an environment variable and sent as a header must never be printed: not
 * in any output format, not in the saved report, not on stderr, not even when a careless server
 * echoes it back in an error body, its own stderr, or a url.
 */
const SECRET = `s3cr3t-${randomBytes(12).toString('hex')}`;
const ENV = { GATE_TEST_TOKEN: SECRET };

/** A server that answers 401 to everything, echoing the Authorization header and the url it got. */
const careless = (port: number) => `
  require('node:http').createServer((q, r) => {
    console.error('careless: ' + q.method + ' ' + q.url + ' authorization=' + q.headers.authorization);
    r.writeHead(401, { 'content-type': 'text/plain' });
    r.end('bad credentials: ' + q.headers.authorization + ' for ' + q.url);
  }).listen(${port}, '127.0.0.1');`;

describe('header secrets are redacted everywhere', () => {
  let dir: string;
  const outputs: { name: string; result: CliResult }[] = [];
  const run = async (name: string, args: string[]) => {
    const result = await runCli(args, { cwd: dir, env: ENV, timeoutMs: 45_000 });
    outputs.push({ name, result });
    return result;
  };

  beforeAll(async () => {
    dir = scratchProject();
    const [authPort, carelessPort] = [await freePort(), await freePort()];
    addProfiles(dir, [
      '  candidate-auth:',
      '    transport: http',
      `    url: http://127.0.0.1:${authPort}/mcp`,
      '    headers: { Authorization: "Bearer ${GATE_TEST_TOKEN}", X-Api-Key: "${GATE_TEST_TOKEN}" }',
      '    command: node',
      `    args: [${EXAMPLE_SERVER}, candidate, --http, "${authPort}", --tag=${dir}]`,
      '    env: { SUPPORT_OPS_TOKEN: "${GATE_TEST_TOKEN}" }',
      '    allowSideEffects: true',
      '  careless:',
      '    transport: http',
      `    url: "http://127.0.0.1:${carelessPort}/mcp?api_key=\${GATE_TEST_TOKEN}"`,
      '    headers: { Authorization: "Bearer ${GATE_TEST_TOKEN}" }',
      '    command: node',
      `    args: [-e, ${JSON.stringify(careless(carelessPort))}, --, --tag=${dir}]`,
    ]);
    for (const format of ['text', 'json', 'markdown'])
      await run(`auth ${format}`, ['run', '--candidate', 'candidate-auth', '--format', format]);
    for (const format of ['text', 'json']) await run(`careless ${format}`, ['run', '--candidate', 'careless', '--format', format]);
    for (const file of readdirSync(join(dir, 'reports'))) {
      for (const format of ['text', 'markdown']) await run(`show ${file} ${format}`, ['show', join('reports', file), '--format', format]);
    }
  }, 180_000);

  it('the header reached the server: it requires the token, and the gate judged the real candidate', () => {
    const json = outputs.find((o) => o.name === 'auth json')!.result;
    const report = JSON.parse(json.stdout) as Report;
    expect(report.candidate.available).toBe(true);
    expect(report.decision.reasons.map((r) => r.code)).toEqual([
      'required-argument-removed',
      'tool-added-destructive',
      'case-broken',
      'version-bump-too-small',
    ]);
  });

  it('the careless server echoed it back, and the gate masked the echo', () => {
    const report = JSON.parse(outputs.find((o) => o.name === 'careless json')!.result.stdout) as Report;
    expect(report.decision.reasons.map((r) => r.code)).toEqual(['candidate-unavailable']);
    expect(report.candidate.error!.message).toContain('bad credentials: *** for /mcp?api_key=***');
    expect(report.candidate.stderr.tail).toContain('authorization=***');
  });

  it('progress names the header, never its value', () => {
    const text = outputs.find((o) => o.name === 'auth text')!.result;
    expect(text.stderr).toContain('headers Authorization: Bearer ***, X-Api-Key: ***');
    // A url is shown as written: the reference, not its value.
    expect(outputs.find((o) => o.name === 'careless text')!.result.stderr).toContain('/mcp?api_key=${GATE_TEST_TOKEN}');
  });

  it('no stdout, stderr or saved report contains the secret', () => {
    const files = readdirSync(join(dir, 'reports'));
    expect(files).toHaveLength(5);
    expect(outputs.length).toBe(5 + files.length * 2);
    for (const { name, result } of outputs) {
      expect(result.stdout, `${name} stdout`).not.toContain(SECRET);
      expect(result.stderr, `${name} stderr`).not.toContain(SECRET);
      expect(result.stdout.length + result.stderr.length, `${name} printed something`).toBeGreaterThan(0);
    }
    for (const file of files) expect(readFileSync(join(dir, 'reports', file), 'utf8'), file).not.toContain(SECRET);
  });

  it('leaves no server process behind', () => {
    expect(processesMatching(`--tag=${dir}`)).toEqual([]);
  });
});

describe('an unset variable in a header', () => {
  it('stops the run with exit 3, naming the profile, the header and the variable', async () => {
    const dir = scratchProject();
    addProfiles(dir, [
      '  remote:',
      '    transport: http',
      '    url: http://127.0.0.1:9/mcp',
      '    headers: { Authorization: "Bearer ${GATE_TEST_UNSET_TOKEN}" }',
    ]);
    const result = await runCli(['run', '--candidate', 'remote'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /gate\.config\.yaml:\d+: profiles\.remote\.headers\.Authorization: header "Authorization" of profile "remote" refers to \$\{GATE_TEST_UNSET_TOKEN\}, which is not set/,
    );
    expect(result.stdout).toBe('');
  });
});
