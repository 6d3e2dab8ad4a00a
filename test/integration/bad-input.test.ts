import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, scratchProject } from '../helpers/cli.js';
import { processesMatching } from '../helpers/processes.js';

const edit = (dir: string, file: string, change: (text: string) => string) =>
  writeFileSync(join(dir, file), change(readFileSync(join(dir, file), 'utf8')));

describe('bad input stops the gate with exit 3 and names the file, line and field', () => {
  it('a config field of the wrong type', async () => {
    const dir = scratchProject();
    edit(dir, 'gate.config.yaml', (t) => t.replace('startupMs: 15000', 'startupMs: soon'));
    const result = await runCli(['run'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/gate\.config\.yaml:\d+: timeouts\.startupMs: must be integer, found string "soon"/);
    expect(result.stdout).toBe('');
    expect(existsSync(join(dir, 'reports'))).toBe(false);
  });

  it('unknown keys first, then cross-field rules such as a missing profile', async () => {
    const dir = scratchProject();
    edit(dir, 'gate.config.yaml', (t) => t.replace('reports:\n  dir: reports', 'reports:\n  dir: reports\n  keep: 5').replace('baseline: baseline', 'baseline: prod'));
    const result = await runCli(['validate'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/gate\.config\.yaml:\d+: reports\.keep: unknown key/);
    // Cross-field rules run once the file has the right shape.
    edit(dir, 'gate.config.yaml', (t) => t.replace('  keep: 5\n', ''));
    const second = await runCli(['validate'], { cwd: dir });
    expect(second.code).toBe(3);
    expect(second.stderr).toMatch(/gate\.config\.yaml:\d+: baseline: names profile "prod", which is not defined/);
  });

  it('a YAML syntax error gives its line', async () => {
    const dir = scratchProject();
    writeFileSync(join(dir, 'gate.config.yaml'), 'version: 1\nprofiles:\n  a: {command: node\n');
    const result = await runCli(['validate'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/gate\.config\.yaml:\d+: syntax:/);
  });

  it('an environment override names the variable', async () => {
    const dir = scratchProject();
    const result = await runCli(['validate'], { cwd: dir, env: { MCPGATE_PROMOTION__MAX_BROKEN_CASES: 'many' } });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('environment MCPGATE_PROMOTION__MAX_BROKEN_CASES: promotion.maxBrokenCases: must be integer');
  });

  it('a bad dataset: exit 3 before connecting, and the servers started early are ended', async () => {
    const dir = scratchProject();
    edit(dir, 'datasets/support-ops.cases.yaml', (t) => t.replace('requireReadOnlyHint: true', 'requireReadOnlyHint: yes please').replace('userTask: Declare', 'usrTask: Declare'));
    const result = await runCli(['run'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/datasets\/support-ops\.cases\.yaml:\d+: cases\[0\]\.requiredTools\[0\]\.requireReadOnlyHint: must be boolean, found string "yes please"/);
    expect(result.stderr).toMatch(/datasets\/support-ops\.cases\.yaml:\d+: cases\[2\]\.usrTask: unknown key/);
    expect(result.stderr).not.toContain('connecting');
    // Both servers start before the datasets are read (their boot overlaps the gate's); none outlives the run.
    expect(processesMatching(`--tag=${dir}`)).toEqual([]);
  });

  it('a dataset that names an argument neither side has: exit 3 with the line and a suggestion', async () => {
    const dir = scratchProject();
    edit(dir, 'datasets/support-ops.cases.yaml', (t) => t.replace('requiredArguments: [query]', 'requiredArguments: [querry]').replace('{ email: ana@example.com }', '{ emial: ana@example.com }'));
    const result = await runCli(['run'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/datasets\/support-ops\.cases\.yaml:10: cases\[0\]\.requiredTools\[0\]\.requiredArguments\[0\]: names argument "querry", which Tickets\.Search does not have on either side; expected one of: .*query.* \(did you mean "query"\?\)/);
    expect(result.stderr).toMatch(/datasets\/support-ops\.cases\.yaml:26: cases\[1\]\.requiredTools\[0\]\.probeArguments\.emial: names argument "emial".*\(did you mean "email"\?\)/);
    expect(result.stdout).toBe('');
    expect(existsSync(join(dir, 'reports'))).toBe(false);
  });

  it('a tool name neither side exposes, or a forbidden tool that is a typo of a real one: exit 3 with "did you mean", not a Rollback', async () => {
    const dir = scratchProject();
    edit(dir, 'datasets/support-ops.cases.yaml', (t) => t
      .replace('- toolName: Customers.Lookup', '- toolName: Customers.Look')
      .replace('forbiddenTools: [Deployments.Rollback]\n\n  - id: TG-002', 'forbiddenTools: [Deployments.Rolback]\n\n  - id: TG-002'));
    const result = await runCli(['run'], { cwd: dir });
    expect(result.code).toBe(3);
    const lines = result.stderr.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('datasets/'));
    expect(lines).toEqual([
      'datasets/support-ops.cases.yaml:18: cases[0].forbiddenTools[0]: forbids tool "Deployments.Rolback", which neither side exposes, so the guard would never fire (did you mean "Deployments.Rollback"?)',
      'datasets/support-ops.cases.yaml:23: cases[1].requiredTools[0].toolName: names tool "Customers.Look", which neither side exposes (did you mean "Customers.Lookup"?)',
    ]);
    expect(result.stdout).toBe('');
    expect(existsSync(join(dir, 'reports'))).toBe(false);
  });

  it('a forbidden tool no side exposes and nothing resembles is a guard for a future release: kept, and noted on stderr', async () => {
    const dir = scratchProject();
    edit(dir, 'gate.config.yaml', (t) => t.replace(/^candidate: candidate$/m, 'candidate: candidate-safe'));
    const result = await runCli(['run'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('note: datasets/support-ops.cases.yaml: case TG-001 forbids Deployments.Rollback, which neither side exposes yet; the guard fires if a release adds it');
  });

  it('validate checks the profiles a bundle server declares for itself', async () => {
    const dir = scratchProject();
    writeFileSync(join(dir, 'bundle.yaml'), [
      'version: 1',
      'profiles:',
      '  live: { command: node, args: [server.js] }',
      'servers:',
      '  desk:',
      '    profiles:',
      '      old: { transport: snapshot, path: contracts/old.json }',
      '    baseline: old',
      '    candidate: live',
      '    datasets: [datasets/support-ops.cases.yaml]',
    ].join('\n'));
    const result = await runCli(['validate', '-c', 'bundle.yaml'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('bundle.yaml: servers.desk.profiles.old.path: snapshot file contracts/old.json does not exist');
  });

  it('a dataset file that does not exist', async () => {
    const dir = scratchProject();
    const result = await runCli(['run', '--dataset', 'datasets/missing.yaml'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('datasets/missing.yaml: file not found');
  });

  it('a baseline that cannot start is exit 3 with its stderr, never a verdict', async () => {
    const dir = scratchProject();
    const result = await runCli(['run'], { cwd: dir, env: { MCPGATE_PROFILES__BASELINE__ARGS: '[-e, "console.error(\'boom: no database\'); process.exit(4)"]' } });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('baseline profile "baseline" is unavailable (initialize)');
    expect(result.stderr).toContain('boom: no database');
    expect(result.stdout).toBe('');
  });
});
