import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, scratchProject } from '../helpers/cli.js';
import { readReportFile } from '../helpers/report.js';
import type { Report } from '../../src/report/types.js';

/**
 * A pull request that edits the gate's own policy (its config, its datasets) against its base is
 * held, with the files named: otherwise a PR could add `rules: { ... : ignore }` and pass itself.
 */
function repo(): { dir: string; base: string } {
  const dir = scratchProject();
  writeFileSync(
    join(dir, 'gate.config.yaml'),
    readFileSync(join(dir, 'gate.config.yaml'), 'utf8').replace(/^candidate: candidate$/m, 'candidate: candidate-safe'),
  );
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' });
  git('init', '-q');
  git('add', 'gate.config.yaml', 'datasets');
  git('commit', '-q', '-m', 'base');
  return { dir, base: git('rev-parse', 'HEAD').trim() };
}
const reportIn = (dir: string) => {
  const file = readdirSync(join(dir, 'reports')).find((f) => f.endsWith('.json'))!;
  const report = readReportFile(join(dir, 'reports', file));
  rmSync(join(dir, 'reports'), { recursive: true });
  return report;
};

describe("--policy-base: the gate's own policy changed by the change under review", { timeout: 60_000 }, () => {
  it('unchanged policy: no finding, Promote', async () => {
    const { dir, base } = repo();
    const run = await runCli(['run', '--policy-base', base], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(reportIn(dir).policy).toEqual({ base, files: [] });
  });

  it('a rule relaxed in the config and a dataset added: Hold, gate-policy-changed, the files named', async () => {
    const { dir, base } = repo();
    writeFileSync(
      join(dir, 'gate.config.yaml'),
      readFileSync(join(dir, 'gate.config.yaml'), 'utf8').replace('rules: {}', 'rules: { required-argument-removed: ignore }'),
    );
    writeFileSync(
      join(dir, 'datasets/extra.cases.yaml'),
      'role: support-agent\ncases:\n  - id: X-1\n    userTask: Search.\n    requiredTools: [{ toolName: Tickets.Search }]\n',
    );
    const run = await runCli(
      ['run', '--policy-base', base, '--dataset', 'datasets/support-ops.cases.yaml', '--dataset', 'datasets/extra.cases.yaml'],
      { cwd: dir },
    );
    expect(run.code).toBe(2);
    const report = reportIn(dir);
    expect(report.policy!.files).toEqual([
      { file: 'gate.config.yaml', change: 'changed' },
      { file: 'datasets/extra.cases.yaml', change: 'added' },
    ]);
    expect(report.decision.reasons.map((r) => [r.code, r.action])).toEqual([['gate-policy-changed', 'hold']]);
    // The reason names the files, so every format that shows reasons does.
    expect(run.stdout).toMatch(
      /gate-policy-changed: This change edits the gate's own policy against \w+: gate\.config\.yaml \(changed\), datasets\/extra\.cases\.yaml \(added\)/,
    );
  });

  it('a workflow that runs the gate is policy: edited, added, or made to stop naming the gate; other workflows are not', async () => {
    const { dir } = repo();
    const gitIn = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' });
    const workflows = join(dir, '.github/workflows');
    mkdirSync(workflows, { recursive: true });
    const gate = (failOn: string) =>
      `on: pull_request\njobs:\n  gate:\n    steps:\n      - uses: mcp-gate/mcp-gate@v0\n        with: { fail-on: ${failOn} }\n`;
    writeFileSync(join(workflows, 'gate.yml'), gate('hold'));
    writeFileSync(join(workflows, 'npx.yml'), 'on: pull_request\njobs:\n  g:\n    steps:\n      - run: npx mcp-gate run\n');
    writeFileSync(join(workflows, 'lint.yml'), 'on: pull_request\njobs:\n  l:\n    steps:\n      - run: npm run lint\n');
    gitIn('add', '-A');
    gitIn('commit', '-q', '-m', 'base with workflows');
    const base = gitIn('rev-parse', 'HEAD').trim();

    const unchanged = await runCli(['run', '--policy-base', base], { cwd: dir });
    expect(unchanged.code, unchanged.stderr).toBe(0);
    expect(reportIn(dir).policy!.files).toEqual([]);

    writeFileSync(join(workflows, 'gate.yml'), gate('never'));
    writeFileSync(join(workflows, 'npx.yml'), 'on: pull_request\njobs:\n  g:\n    steps:\n      - run: echo skipped\n');
    writeFileSync(join(workflows, 'lint.yml'), 'on: pull_request\njobs:\n  l:\n    steps:\n      - run: npm test\n');
    writeFileSync(join(workflows, 'second.yaml'), gate('hold'));
    const run = await runCli(['run', '--policy-base', base, '--format', 'markdown'], { cwd: dir });
    expect(run.code).toBe(2);
    const report = reportIn(dir);
    expect(report.policy!.files).toEqual([
      { file: '.github/workflows/gate.yml', change: 'changed' },
      { file: '.github/workflows/npx.yml', change: 'changed' },
      { file: '.github/workflows/second.yaml', change: 'added' },
    ]);
    // The markdown names the files in the reason and the advice, and never advises an exception for this Hold.
    expect(run.stdout).toContain('.github/workflows/gate.yml (changed)');
    expect(run.stdout).toMatch(
      /`gate-policy-changed`: `\.github\/workflows\/gate\.yml` \(changed\).* It clears when the policy's owners approve the run/,
    );
    expect(run.stdout).not.toContain('code: gate-policy-changed');
    expect(run.stdout).not.toContain('add an exception');
  });

  it("what defines the baseline is policy too: its snapshot, or the client config its from names; the candidate's is not", async () => {
    const { dir } = repo();
    const server = /args: \[([^,]+), baseline/.exec(readFileSync(join(dir, 'gate.config.yaml'), 'utf8'))![1]!;
    const gitIn = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' });
    const mcp = (release: string) =>
      JSON.stringify({
        mcpServers: { base: { command: 'node', args: [server, release] }, pr: { command: 'node', args: [server, 'candidate-safe'] } },
      });
    writeFileSync(join(dir, '.mcp.json'), mcp('baseline'));
    writeFileSync(join(dir, 'candidate.mcp.json'), mcp('baseline'));
    const config = readFileSync(join(dir, 'gate.config.yaml'), 'utf8').replace(
      'profiles:\n',
      'profiles:\n  released: { from: .mcp.json#base }\n  branch: { from: candidate.mcp.json#pr }\n  frozen: { transport: snapshot, path: contracts/base.json }\n',
    );
    writeFileSync(join(dir, 'gate.config.yaml'), config);
    const snapshot = await runCli(['snapshot', '--profile', 'released', '-o', 'contracts/base.json'], { cwd: dir });
    expect(snapshot.code, snapshot.stderr).toBe(0);
    gitIn('add', '-A');
    gitIn('commit', '-q', '-m', 'base with client configs and a snapshot');
    const base = gitIn('rev-parse', 'HEAD').trim();

    // The PR points the released profile at the candidate's build, edits the candidate's own client config, and refreshes the snapshot.
    writeFileSync(join(dir, '.mcp.json'), mcp('candidate-safe'));
    writeFileSync(join(dir, 'candidate.mcp.json'), mcp('candidate-safe'));
    const flags = (baseline: string) => ['run', '--policy-base', base, '--baseline', baseline, '--candidate', 'branch'];
    const fromRun = await runCli(flags('released'), { cwd: dir });
    expect(fromRun.code).toBe(2);
    expect(reportIn(dir).policy!.files).toEqual([{ file: '.mcp.json', change: 'changed' }]);

    writeFileSync(
      join(dir, 'contracts/base.json'),
      readFileSync(join(dir, 'contracts/base.json'), 'utf8').replace('"support-ops"', '"support-ops-x"'),
    );
    const snapshotRun = await runCli(flags('frozen'), { cwd: dir });
    expect(snapshotRun.code).toBe(2);
    expect(reportIn(dir).policy!.files).toEqual([{ file: 'contracts/base.json', change: 'changed' }]);
  });

  it('a baseline that runs files of the change: those it runs, or the tracked folder its built file came from, are named', async () => {
    const { dir } = repo();
    const gitIn = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' });
    const example = pathToFileURL(join(ROOT, 'examples/support-ops/dist/server.js')).href;
    mkdirSync(join(dir, 'server/dist'), { recursive: true });
    writeFileSync(join(dir, 'server/run.mjs'), `await import('${example}');\n`);
    writeFileSync(join(dir, 'server/source.mjs'), '// what server/dist is built from\n');
    writeFileSync(join(dir, 'server/dist/built.mjs'), `await import('${example}');\n`);
    writeFileSync(join(dir, '.gitignore'), 'reports/\nserver/dist/\n');
    const config = readFileSync(join(dir, 'gate.config.yaml'), 'utf8');
    writeFileSync(
      join(dir, 'gate.config.yaml'),
      config.replace(
        'profiles:\n',
        'profiles:\n  in-repo: { command: node, args: [server/run.mjs, baseline] }\n  built: { command: node, args: [server/dist/built.mjs, baseline] }\n',
      ),
    );
    gitIn('add', '-A');
    gitIn('commit', '-q', '-m', 'base with an in-repo baseline');
    const base = gitIn('rev-parse', 'HEAD').trim();
    const run = (baseline: string) => runCli(['run', '--policy-base', base, '--baseline', baseline], { cwd: dir });

    const unchanged = await run('in-repo');
    expect(unchanged.code, unchanged.stderr).toBe(0);
    expect(reportIn(dir).policy!.files).toEqual([]);

    writeFileSync(join(dir, 'server/run.mjs'), `// the PR's own baseline\nawait import('${example}');\n`);
    writeFileSync(join(dir, 'server/source.mjs'), '// changed by the PR\n');
    const edited = await run('in-repo');
    expect(edited.code).toBe(2);
    expect(reportIn(dir).policy!.files).toEqual([{ file: 'server/run.mjs', change: 'changed', runBy: 'in-repo' }]);
    expect(edited.stdout).toContain(
      'files the baseline profile "in-repo" runs from the working tree, so the baseline is this change\'s own code: server/run.mjs (changed)',
    );

    // A built file git does not track stands for the tracked folder above it.
    const built = await run('built');
    expect(built.code).toBe(2);
    expect(reportIn(dir).policy!.files).toEqual([
      { file: 'server/run.mjs', change: 'changed', runBy: 'built' },
      { file: 'server/source.mjs', change: 'changed', runBy: 'built' },
    ]);
  });

  it('a base the clone does not have: the run says the policy was not checked, and the verdict stands', async () => {
    const { dir } = repo();
    const run = await runCli(['run', '--policy-base', '0123456789abcdef0123456789abcdef01234567'], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      "warning: the gate's policy was not checked for changes: the base commit 0123456789abcdef0123456789abcdef01234567 is not in this clone",
    );
    expect(run.stdout).toContain('Policy not checked:');
    expect(reportIn(dir).policy!.error).toMatch(/fetch-depth: 0/);
  });
});

describe('the saved reports are policy: the history the deprecation window reads', { timeout: 60_000 }, () => {
  /** release-server.mjs's releases (test/integration/releases.test.ts) in a clone: `marked` deprecates Files.Read, `removed` removes it. */
  function releases(): { dir: string; base: string; git: (...args: string[]) => string } {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-history-policy-'));
    const config = readFileSync(join(ROOT, 'test/fixtures/servers/release.config.yaml'), 'utf8').replace(
      /release-server\.mjs/g,
      join(ROOT, 'test/fixtures/servers/release-server.mjs'),
    );
    writeFileSync(join(dir, 'gate.config.yaml'), config);
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' });
    git('init', '-q');
    git('add', 'gate.config.yaml');
    git('commit', '-q', '-m', 'base');
    return { dir, base: git('rev-parse', 'HEAD').trim(), git };
  }
  const gate = async (dir: string, baseline: string, candidate: string, base: string) => {
    const run = await runCli(
      ['run', '--baseline', baseline, '--candidate', candidate, '--policy-base', base, '--format', 'json', '--quiet'],
      {
        cwd: dir,
      },
    );
    return { code: run.code, report: JSON.parse(run.stdout) as Report };
  };

  it('a forged old report committed in the change holds the run, named; the reports runs write are not the change', async () => {
    const { dir, base, git } = releases();
    // The change brings a "report" of the run that announced the deprecation, dated 45 days back.
    const announced = await gate(dir, 'v1', 'marked', base);
    expect(announced.report.policy!.files).toEqual([]);
    rmSync(join(dir, 'reports'), { recursive: true });
    mkdirSync(join(dir, 'reports'));
    const forged = { ...announced.report, startedAt: new Date(Date.now() - 45 * 86_400_000).toISOString() };
    writeFileSync(join(dir, 'reports/20260101T000000Z-v1-to-marked.json'), JSON.stringify(forged));
    git('add', 'reports');
    git('commit', '-q', '-m', 'history');

    const removed = await gate(dir, 'marked', 'removed', base);
    expect(removed.code).toBe(2);
    expect(removed.report.decision.reasons.map((r) => [r.code, r.action])).toEqual([['gate-policy-changed', 'hold']]);
    expect(removed.report.policy!.files).toEqual([{ file: 'reports/20260101T000000Z-v1-to-marked.json', change: 'added' }]);

    // The same history on the base: the removal is calm, and the reports the runs wrote beside it are no change.
    const landed = git('rev-parse', 'HEAD').trim();
    const calm = await gate(dir, 'marked', 'removed', landed);
    expect(calm.report.policy!.files).toEqual([]);
    expect(calm.report.decision.verdict).toBe('Promote');
    expect(readdirSync(join(dir, 'reports')).length).toBeGreaterThan(1);
  });
});
