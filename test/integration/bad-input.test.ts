import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, scratchProject } from '../helpers/cli.js';
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

  it('every problem at once: schema errors and cross-field rules together, in file order', async () => {
    const dir = scratchProject();
    edit(dir, 'gate.config.yaml', (t) =>
      t
        .replace('reports:\n  dir: reports', 'reports:\n  dir: reports\n  keep: 5')
        .replace('candidate: candidate', 'candidate: missing')
        .replace(/args: \[[^\]]*\]/, 'args: "not-a-list"'),
    );
    const result = await runCli(['validate'], { cwd: dir });
    expect(result.code).toBe(3);
    const lines = result.stderr.split('\n').filter((l) => l.startsWith('  gate.config.yaml:'));
    expect(lines.map((l) => /: ([\w.]+): /.exec(l)?.[1])).toEqual(
      expect.arrayContaining(['profiles.baseline.args', 'candidate', 'reports.keep']),
    );
    expect(result.stderr).toMatch(/gate\.config\.yaml:\d+: profiles\.baseline\.args: must be array, found string "not-a-list"/);
    expect(result.stderr).toMatch(/gate\.config\.yaml:\d+: candidate: names profile "missing", which is not defined/);
    const at = lines.map((l) => Number(/yaml:(\d+):/.exec(l)![1]));
    expect(at).toEqual([...at].sort((a, b) => a - b));
  });

  it('a deprecated key is still read, with a note that names its line; beside its new name it is a problem', async () => {
    const dir = scratchProject();
    edit(dir, 'gate.config.yaml', (t) => `${t.trimEnd()}\naudit:\n  maxResultBytes: 100\n`);
    // The first case's budget under its old name; the second probe's removed, so the config's budget applies to it.
    edit(dir, 'datasets/support-ops.cases.yaml', (t) =>
      t.replace('resultBudgetBytes: 4096', 'maxResultBytes: 1').replace('          resultBudgetBytes: 4096\n', ''),
    );
    const ok = await runCli(['validate'], { cwd: dir });
    expect(ok.code).toBe(0);
    expect(ok.stderr).toMatch(
      /note: gate\.config\.yaml:\d+: audit\.maxResultBytes: is deprecated and still read; rename it resultBudgetBytes/,
    );
    expect(ok.stderr).toMatch(
      /note: datasets\/support-ops\.cases\.yaml:17: cases\[0\]\.requiredTools\[0\]\.expect\.maxResultBytes: is deprecated/,
    );
    // Both are read as their new names: the case's budget of 1 byte fails it, the config's 100 bytes flags the other probe.
    const run = await runCli(['run', '--format', 'json'], { cwd: dir });
    const report = JSON.parse(run.stdout) as {
      baseline: { caseResults: { failures: { message: string }[] }[] };
      audit: { findings: { code: string; tool?: string }[] };
    };
    expect(report.baseline.caseResults[0]!.failures.map((f) => f.message)).toContainEqual(
      expect.stringContaining('over expect.resultBudgetBytes 1'),
    );
    expect(report.audit.findings.filter((f) => f.code === 'result-too-large').map((f) => f.tool)).toContain('Incident.Declare');
    edit(dir, 'gate.config.yaml', (t) => t.replace('  maxResultBytes: 100', '  maxResultBytes: 100\n  resultBudgetBytes: 200'));
    const both = await runCli(['validate'], { cwd: dir });
    expect(both.code).toBe(3);
    expect(both.stderr).toMatch(/audit\.maxResultBytes: is the old name of resultBudgetBytes, which is set too/);
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

  it('a profile named on the command line or in the environment is blamed there, not on the config line, with the profiles listed', async () => {
    const dir = scratchProject();
    const flag = await runCli(['run', '--candidate', 'nosuch'], { cwd: dir });
    expect(flag.code).toBe(3);
    expect(flag.stderr.split('\n')[1]).toBe(
      '  command line: --candidate: names profile "nosuch", which is not defined; defined profiles: baseline, at-base, candidate, candidate-safe, candidate-template',
    );
    expect(flag.stderr).not.toMatch(/gate\.config\.yaml:\d+: candidate:/);
    const both = await runCli(['run', '--baseline', 'nobase'], { cwd: dir, env: { MCPGATE_CANDIDATE: 'nocand' } });
    expect(both.code).toBe(3);
    expect(both.stderr).toContain('  command line: --baseline: names profile "nobase", which is not defined; defined profiles: baseline,');
    expect(both.stderr).toContain(
      '  environment MCPGATE_CANDIDATE: candidate: names profile "nocand", which is not defined; defined profiles: baseline,',
    );
    expect(processesMatching(`--tag=${dir}`)).toEqual([]);
  });

  it('a bad dataset: exit 3 before connecting, and the servers started early are ended', async () => {
    const dir = scratchProject();
    edit(dir, 'datasets/support-ops.cases.yaml', (t) =>
      t.replace('requireReadOnlyHint: true', 'requireReadOnlyHint: yes please').replace('userTask: Declare', 'usrTask: Declare'),
    );
    const result = await runCli(['run'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /datasets\/support-ops\.cases\.yaml:\d+: cases\[0\]\.requiredTools\[0\]\.requireReadOnlyHint: must be boolean, found string "yes please"/,
    );
    expect(result.stderr).toMatch(/datasets\/support-ops\.cases\.yaml:\d+: cases\[2\]\.usrTask: unknown key/);
    expect(result.stderr).not.toContain('connecting');
    // Both servers start before the datasets are read (their boot overlaps the gate's); none outlives the run.
    expect(processesMatching(`--tag=${dir}`)).toEqual([]);
  });

  it('a dataset that names an argument neither side has: exit 3 with the line and a suggestion', async () => {
    const dir = scratchProject();
    edit(dir, 'datasets/support-ops.cases.yaml', (t) =>
      t
        .replace('requiredArguments: [query]', 'requiredArguments: [querry]')
        .replace('{ email: ana@example.com }', '{ emial: ana@example.com }'),
    );
    const result = await runCli(['run'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /datasets\/support-ops\.cases\.yaml:10: cases\[0\]\.requiredTools\[0\]\.requiredArguments\[0\]: names argument "querry", which Tickets\.Search does not have on either side; expected one of: .*query.* \(did you mean "query"\?\)/,
    );
    expect(result.stderr).toMatch(
      /datasets\/support-ops\.cases\.yaml:26: cases\[1\]\.requiredTools\[0\]\.probeArguments\.emial: names argument "emial".*\(did you mean "email"\?\)/,
    );
    expect(result.stdout).toBe('');
    expect(existsSync(join(dir, 'reports'))).toBe(false);
  });

  it('a tool name neither side exposes, or a forbidden tool that is a typo of a real one: exit 3 with "did you mean", not a Rollback', async () => {
    const dir = scratchProject();
    edit(dir, 'datasets/support-ops.cases.yaml', (t) =>
      t
        .replace('- toolName: Customers.Lookup', '- toolName: Customers.Look')
        .replace('forbiddenTools: [Deployments.Rollback]\n\n  - id: TG-002', 'forbiddenTools: [Deployments.Rolback]\n\n  - id: TG-002'),
    );
    const result = await runCli(['run'], { cwd: dir });
    expect(result.code).toBe(3);
    const lines = result.stderr
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('datasets/'));
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
    expect(result.stderr).toContain(
      'note: datasets/support-ops.cases.yaml: 3 cases (TG-001, TG-002, TG-003) forbid Deployments.Rollback, which neither side exposes yet; the guard fires if a release adds it',
    );
  });

  it('validate checks the profiles a bundle server declares for itself', async () => {
    const dir = scratchProject();
    writeFileSync(
      join(dir, 'bundle.yaml'),
      [
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
      ].join('\n'),
    );
    const result = await runCli(['validate', '-c', 'bundle.yaml'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('bundle.yaml: servers.desk.profiles.old.path: snapshot file contracts/old.json does not exist');
  });

  it('validate says "did you mean" for a misspelled key and a misspelled profile, and names the config line of a missing dataset', async () => {
    const dir = scratchProject();
    edit(dir, 'gate.config.yaml', (t) =>
      t
        .replace('startupMs: 15000', 'startupMS: 15000')
        .replace(/^baseline: baseline$/m, 'baseline: basline')
        .replace('datasets: [datasets/support-ops.cases.yaml]', 'datasets: [datasets/support-ops.case.yaml]'),
    );
    const result = await runCli(['validate'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /gate\.config\.yaml:\d+: timeouts\.startupMS: unknown key; remove it or check its spelling \(did you mean "startupMs"\?\)/,
    );
    expect(result.stderr).toMatch(
      /gate\.config\.yaml:\d+: baseline: names profile "basline", which is not defined \(did you mean "baseline"\?\)/,
    );
    const datasetsLine =
      readFileSync(join(dir, 'gate.config.yaml'), 'utf8')
        .split('\n')
        .findIndex((l) => l.startsWith('datasets:')) + 1;
    expect(result.stderr).toContain(
      `gate.config.yaml:${datasetsLine}: datasets[0]: names dataset datasets/support-ops.case.yaml, which does not exist`,
    );
  });

  it('a prompt or template neither side lists names what the sides do list: prompts and templates, not tools', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-unlisted-'));
    const server = join(ROOT, 'test/fixtures/servers/record-server.mjs');
    writeFileSync(
      join(dir, 'gate.config.yaml'),
      [
        'version: 1',
        'profiles:',
        `  v1: { command: node, args: [${server}, v1, ${join(dir, 'marker')}] }`,
        `  v2: { command: node, args: [${server}, v2, ${join(dir, 'marker')}] }`,
        'baseline: v1',
        'candidate: v2',
        'datasets: [features.cases.yaml]',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'features.cases.yaml'),
      [
        'role: support-agent',
        'cases:',
        '  - id: triage',
        '    userTask: Triage the outage.',
        '    requiredPrompts: [{ name: Incident.Triage }]',
        '    requiredResources: [{ uriTemplate: "tickets://{id}", variables: { id: T-1 } }]',
        '',
      ].join('\n'),
    );
    const result = await runCli(['run'], { cwd: dir });
    expect(result.code).toBe(3);
    const problems = result.stderr.split('\n').filter((l) => l.startsWith('  features.cases.yaml:'));
    expect(problems).toEqual([
      '  features.cases.yaml:5: cases[0].requiredPrompts[0].name: names prompt "Incident.Triage", which neither side lists; the sides list: no prompts',
      '  features.cases.yaml:6: cases[0].requiredResources[0].uriTemplate: names resource template "tickets://{id}", which neither side lists; the sides list: no resource templates',
    ]);
  });

  it('a --policy-base that names nothing in the clone is exit 3, naming the flag and the ref, before any server starts', async () => {
    const dir = scratchProject();
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' });
    git('init', '-q', '-b', 'main');
    git('add', 'gate.config.yaml', 'datasets');
    git('commit', '-q', '-m', 'base');
    const result = await runCli(['run', '--policy-base', 'mian'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toBe(
      'mcp-gate: invalid input:\n  command line: --policy-base: "mian" is no commit, branch or tag of this clone (did you mean "main"?); give the change\'s base, e.g. origin/main or a commit id (git fetch it first if the clone lacks it)\n',
    );
    expect(existsSync(join(dir, 'reports'))).toBe(false);
    expect(processesMatching(`--tag=${dir}`)).toEqual([]);
  });

  it('a missing config says that init writes one', async () => {
    const dir = scratchProject();
    const result = await runCli(['run', '-c', 'nothing-here.yaml'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toBe(
      'mcp-gate: invalid input:\n  nothing-here.yaml: file not found; `mcp-gate init` writes one for the server of this project (or -c FILE names another config)\n',
    );
  });

  it('a dataset file that does not exist', async () => {
    const dir = scratchProject();
    const result = await runCli(['run', '--dataset', 'datasets/missing.yaml'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('datasets/missing.yaml: file not found');
  });

  it('a baseline that cannot start is exit 3 with its stderr, never a verdict', async () => {
    const dir = scratchProject();
    const result = await runCli(['run'], {
      cwd: dir,
      env: { MCPGATE_PROFILES__BASELINE__ARGS: '[-e, "console.error(\'boom: no database\'); process.exit(4)"]' },
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('baseline profile "baseline" is unavailable (initialize)');
    expect(result.stderr).toContain('boom: no database');
    expect(result.stdout).toBe('');
  });

  it('a baseline whose npx found no package: the likely cause is named, on both starts, not the protocol era', async () => {
    const dir = scratchProject();
    const crash = join(ROOT, 'test/fixtures/servers/crash-server.mjs');
    const result = await runCli(['run'], { cwd: dir, env: { MCPGATE_PROFILES__BASELINE__ARGS: `[${crash}, npm-404]` } });
    expect(result.code).toBe(3);
    const cause = 'npm has no package "@acme/no-such-mcp" (npm 404)';
    expect(result.stderr).toContain(`baseline profile "baseline" is unavailable (initialize): ${cause}`);
    expect(result.stderr).toContain(`(started twice: the first start failed too, in initialize: ${cause}`);
    expect(result.stderr).not.toContain('2025-era');
    expect(result.stderr).toContain('server stderr (tail):\nnpm error code E404');
  });

  it('a baseline whose release does not ship a file it reads as it starts: the file is named, and no path of the profile blamed', async () => {
    const dir = scratchProject();
    const crash = join(ROOT, 'test/fixtures/servers/crash-server.mjs');
    const result = await runCli(['run'], { cwd: dir, env: { MCPGATE_PROFILES__BASELINE__ARGS: `[${crash}, missing-asset]` } });
    expect(result.code).toBe(3);
    // The server's TMPDIR is the gate's own for the side, so only the file's tail is known here.
    expect(result.stderr).toMatch(
      /baseline profile "baseline" is unavailable \(initialize\): the server could not open "[^"]*\/mcp-gate-no-such-install\/node_modules\/acme-mcp\/assets\/prompt\.json" \(ENOENT\), a file of its installed package: that release does not ship it, so it cannot start as installed/,
    );
    expect(result.stderr).not.toContain("check the paths in the profile's command");
  });
});
