import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';

/**
 * The README's "Gate your server in five minutes", step by step, in a fresh project with a published
 * server (@modelcontextprotocol/server-memory, installed at pinned versions as devDependencies of
 * this repo). `npm install` of a version is stood in for by pointing node_modules at it.
 */
const PACKAGE = 'node_modules/@modelcontextprotocol/server-memory';

describe('the five-minute walkthrough (README)', () => {
  let dir: string;
  const install = (version: '2026-07-04' | '2026-01-26') => {
    rmSync(join(dir, PACKAGE), { force: true });
    symlinkSync(join(ROOT, `node_modules/mcp-memory-${version}`), join(dir, PACKAGE), 'dir');
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-gate-walkthrough-'));
    mkdirSync(join(dir, 'node_modules/@modelcontextprotocol'), { recursive: true });
    install('2026-07-04');
    writeFileSync(
      join(dir, '.mcp.json'),
      readFileSync(join(ROOT, 'README.md'), 'utf8')
        .match(/<!-- walkthrough:mcp.json -->\n {3}```json\n([\s\S]*?) {3}```/)![1]!
        .replace(/^ {3}/gm, ''),
    );
  });

  it('1-2. init finds the server in .mcp.json, writes the config, the baseline and a starter dataset; record adds nothing new', async () => {
    const init = await runCli(['init'], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('mcp-gate init: wrote gate.config.yaml, contracts/baseline.contract.json, datasets/starter.cases.yaml');
    expect(init.stderr).toContain("using .mcp.json#memory, the one server in the project's MCP client configs");
    const config = readFileSync(join(dir, 'gate.config.yaml'), 'utf8');
    expect(config).toMatch(/^# yaml-language-server: \$schema=.*schemas\/gate\.config\.schema\.json\n/);
    expect(config).toContain('    from: .mcp.json#memory');
    const dataset = readFileSync(join(dir, 'datasets/starter.cases.yaml'), 'utf8');
    // Three read-only tools recorded; six that write, commented out with why.
    expect(dataset.match(/^ {2}- id: /gm)).toHaveLength(3);
    expect(dataset.match(/^ {2}# - id: /gm)).toHaveLength(6);
    const validate = await runCli(['validate'], { cwd: dir });
    expect(validate.code, validate.stderr).toBe(0);
    const record = await runCli(['record'], { cwd: dir });
    expect(record.code, record.stderr).toBe(0);
    expect(record.stderr).toContain('datasets/starter.cases.yaml already has a case for every tool');
    // init never overwrites.
    const again = await runCli(['init'], { cwd: dir });
    expect(again.code).toBe(3);
    expect(again.stderr).toContain('gate.config.yaml: exists; init never overwrites a file: pass --force');
  }, 60_000);

  it('3. the same version against itself: Promote, every recorded case passing', async () => {
    const run = await runCli(['run', '--format', 'json', '--quiet'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { decision: { verdict: string }; candidate: { cases: { passed: number; total: number } } };
    expect(report.decision.verdict).toBe('Promote');
    expect(report.candidate.cases).toMatchObject({ passed: 3, total: 3 });
    // A first success reads as one: the snapshot baseline's cases are skipped, not failed.
    const text = await runCli(['run', '--quiet'], { cwd: dir });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).not.toContain('Case failures');
    expect(text.stdout).toMatch(/pass rate\s+none run \(3 skipped\)\s+100% \(3\/3\)/);
  }, 60_000);

  it('4. another release (2026.1.26, which declares no annotations): Rollback for the hints it lost', async () => {
    install('2026-01-26');
    const run = await runCli(['run', '--format', 'json', '--quiet'], { cwd: dir });
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout) as {
      decision: { verdict: string; reasons: { code: string; action: string; message: string }[] };
    };
    expect(report.decision.verdict).toBe('Rollback');
    // What it lost beside the tools is named, as tools are.
    expect(report.decision.reasons.filter((r) => r.action === 'hold').map((r) => r.message)).toEqual(
      expect.arrayContaining(['Resources removed: 1 (memory://knowledge-graph).', 'Capabilities removed: 1 (resources).']),
    );
    // destructiveHint went the same way, and holds: the read-only hint lost is what rolls back.
    expect(report.decision.reasons.filter((r) => r.action === 'rollback').map((r) => r.code)).toEqual(['readonly-hint-regression']);
    expect(report.decision.reasons.map((r) => r.code)).toContain('destructive-hint-regression');
  }, 60_000);
});

describe('init with a server started as npx -y pkg@version', () => {
  it('makes the baseline a profile of that released version, and records it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-init-npx-'));
    // npx without the registry: a stand-in on PATH that starts the installed release, and says what it was asked for.
    mkdirSync(join(dir, 'bin'));
    const log = join(dir, 'npx.log');
    writeFileSync(
      join(dir, 'bin/npx'),
      `#!/bin/sh\necho "$@" >> ${log}\nexec "${process.execPath}" ${join(ROOT, 'node_modules/mcp-memory-2026-07-04/dist/index.js')}\n`,
      { mode: 0o755 },
    );
    mkdirSync(join(dir, '.vscode'));
    writeFileSync(
      join(dir, '.vscode/mcp.json'),
      '{ "servers": { "memory": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory@2026.7.4"] } } }',
    );
    const env = { PATH: `${join(dir, 'bin')}:${process.env.PATH}` };
    const init = await runCli(['init', '--from', '.vscode/mcp.json#memory'], { cwd: dir, env });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('mcp-gate init: wrote gate.config.yaml, datasets/starter.cases.yaml');
    const config = readFileSync(join(dir, 'gate.config.yaml'), 'utf8');
    expect(config).toContain('  # The released version, @modelcontextprotocol/server-memory@2026.7.4, started with npx.');
    expect(config).toContain('  baseline:\n    command: npx\n    args: [-y, "@modelcontextprotocol/server-memory@2026.7.4"]\n');
    expect(readFileSync(log, 'utf8').trim().split('\n')[0]).toBe('-y @modelcontextprotocol/server-memory@2026.7.4');
    const run = await runCli(['run', '--quiet'], { cwd: dir, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Decision: Promote');
  }, 60_000);
});

describe('init when the server cannot be read', () => {
  it('names the config it was writing, the line and the fix, and leaves no file behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-init-bad-'));
    writeFileSync(join(dir, '.mcp.json'), '{ "mcpServers": { "memory": { "command": "node", "args": ["server.js"] } } }');
    const typo = await runCli(['init', '--from', '.mcp.json#memroy', '-c', 'gate/gate.config.yaml'], { cwd: dir });
    expect(typo.code).toBe(3);
    expect(typo.stderr).toContain(
      'gate/gate.config.yaml:14: profiles.candidate.from: names server "memroy", which .mcp.json does not have (did you mean "memory"?)',
    );
    const none = await runCli(['init'], { cwd: mkdtempSync(join(tmpdir(), 'mcp-gate-init-none-')) });
    expect(none.code).toBe(3);
    expect(none.stderr).toContain('--from: is needed: no server given and none found in .mcp.json, .vscode/mcp.json, .cursor/mcp.json');
    const dead = await runCli(['init', '--command', 'node -e process.exit(7)'], { cwd: dir });
    expect(dead.code).toBe(3);
    expect(readdirSync(dir).sort()).toEqual(['.mcp.json', 'gate']);
    expect(readdirSync(join(dir, 'gate'))).toEqual([]);
  }, 30_000);
});
