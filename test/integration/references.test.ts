import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import type { Report } from '../../src/report/types.js';

/**
 * `${VAR}` everywhere a profile holds text (docs/config.md, "Variables"): command, args, cwd and
 * env of a stdio profile, written in the gate config or read from an `.mcp.json` through `from:`,
 * expanded when the server starts; `validate` names every reference it cannot resolve, at its line;
 * and only a value that looks secret is redacted, so a folder stays readable in an error.
 */
const SERVERS = join(ROOT, 'test/fixtures/servers');

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-refs-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('${VAR} in a stdio profile', { timeout: 60_000 }, () => {
  const config = [
    'version: 1',
    'profiles:',
    '  written:',
    '    command: "${NODE_BIN}"',
    '    args: ["${env:FIXTURES}/lock-server.mjs", "--tag=${TAG}"]',
    '    cwd: "${WORK}"',
    '  client: { from: ".mcp.json#lock" }',
    'baseline: written',
    'candidate: client',
    '',
  ].join('\n');
  const client = JSON.stringify({
    mcpServers: { lock: { command: 'node', args: ['${env:FIXTURES}/lock-server.mjs', '--tag=${TAG}'], env: { LOCK_IN: 'TMPDIR' } } },
  });

  it('expands command, args and cwd, in the gate config and through from:, when the server starts', async () => {
    const dir = project({ 'gate.config.yaml': config, '.mcp.json': client, 'work/.keep': '' });
    const env = { NODE_BIN: process.execPath, FIXTURES: SERVERS, TAG: dir, WORK: join(dir, 'work') };
    const result = await runCli(['run', '--format', 'json'], { cwd: dir, env });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    expect([report.baseline.server.name, report.candidate.server.name]).toEqual(['lock-fixture', 'lock-fixture']);
    // The progress line shows the profile as written: the reference, not its value.
    expect(result.stderr).toContain('${NODE_BIN} ${env:FIXTURES}/lock-server.mjs --tag=${TAG}');
  });

  it('validate names every reference it cannot resolve, with its file, line and field', async () => {
    const dir = project({ 'gate.config.yaml': config, '.mcp.json': client });
    const result = await runCli(['validate'], { cwd: dir, env: { NODE_BIN: process.execPath } });
    expect(result.code, result.stderr).toBe(0);
    const notes = result.stderr.split('\n').filter((line) => line.startsWith('mcp-gate: note:'));
    expect(notes.map((n) => n.replace(/: (the|args|env)\b.*$/, ''))).toEqual([
      'mcp-gate: note: gate.config.yaml:5: profiles.written.args[0]',
      'mcp-gate: note: gate.config.yaml:5: profiles.written.args[1]',
      'mcp-gate: note: gate.config.yaml:6: profiles.written.cwd',
      'mcp-gate: note: .mcp.json:1: mcpServers.lock.args[0]',
      'mcp-gate: note: .mcp.json:1: mcpServers.lock.args[1]',
    ]);
    expect(notes[0]).toContain('args[0] of profile "written" refers to ${FIXTURES}, which is not set in the environment');
    expect(notes[2]).toContain('the cwd of profile "written" refers to ${WORK}');
    // The run itself stops on them: a config problem, exit 3, whichever side it is on.
    const run = await runCli(['run'], { cwd: dir, env: { NODE_BIN: process.execPath } });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('gate.config.yaml:5: profiles.written.args[0]');
  });
});

describe('redaction of what a profile hands its server', { timeout: 60_000 }, () => {
  it('shows a folder from ${VAR} in a crash, and hides a value under a secret name, a declared one and a token-shaped one', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'mcp-gate-plain-folder-'));
    const token = 'k9XfQ2mZ7pL4vR8tW1yB6nC3';
    const declared = 'declared-but-plain-value';
    // A crash that prints all it was given: a folder, a credential and two values the config calls secret.
    const crash = `console.error('Error: cannot start in ' + process.env.DATA_DIR + ' with ' + process.env.API_TOKEN + ' ' + process.env.REGION + ' ' + process.env.SHAPE); process.exit(1)`;
    const dir = project({
      'gate.config.yaml': [
        'version: 1',
        'profiles:',
        `  ok: { command: node, args: [${SERVERS}/lock-server.mjs, --tag=refs-ok] }`,
        '  crash:',
        `    command: node`,
        `    args: [-e, ${JSON.stringify(crash)}, --, --tag=refs-crash]`,
        '    env: { DATA_DIR: "${DATA_DIR}", API_TOKEN: "${GATE_API}", REGION: "${REGION}", SHAPE: "${SHAPE}" }',
        '    secrets: [REGION]',
        'baseline: ok',
        'candidate: crash',
        '',
      ].join('\n'),
    });
    const env = { DATA_DIR: folder, GATE_API: 'plain-api-credential', REGION: declared, SHAPE: token };
    const result = await runCli(['run'], { cwd: dir, env });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain(`Error: cannot start in ${folder} with *** *** ***`);
    for (const secret of [env.GATE_API, declared, token]) expect(`${result.stdout}${result.stderr}`).not.toContain(secret);
  });
});
