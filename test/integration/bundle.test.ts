import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BundleSummary } from '../../src/report/bundle-summary.js';
import { comparable, readBundleFile } from '../helpers/bundle.js';
import { ROOT, runCli, type CliResult } from '../helpers/cli.js';
import { processesMatching } from '../helpers/processes.js';
import { readReportFile } from '../helpers/report.js';

const SERVER = join(ROOT, 'examples/support-ops/dist/server.js');
const DATASETS = join(ROOT, 'datasets');

/** A bundle config in a scratch dir; each server process is tagged with the dir so the test finds its own. */
function bundleProject(servers: Record<string, { candidate: string; datasets?: string; baselineArgs?: string }>, extra = ''): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-bundle-'));
  const profile = (p: string) => `{ command: node, args: [${SERVER}, ${p}, --tag=${dir}], allowSideEffects: true }`;
  const lines = ['version: 1', 'profiles:', `  baseline: ${profile('baseline')}`, 'servers:'];
  for (const [name, s] of Object.entries(servers)) {
    lines.push(`  ${name}:`, '    profiles:', `      ${s.candidate}: ${profile(s.candidate)}`);
    if (s.baselineArgs) lines.push(`      baseline: { command: node, args: [${s.baselineArgs}] }`);
    lines.push(
      '    baseline: baseline',
      `    candidate: ${s.candidate}`,
      `    datasets: [${join(DATASETS, s.datasets ?? 'support-ops.cases.yaml')}]`,
    );
  }
  lines.push('reports: { dir: reports }', extra);
  writeFileSync(join(dir, 'gate.config.yaml'), `${lines.join('\n')}\n`);
  return dir;
}

const files = (dir: string, suffix: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(suffix))
    .sort()
    .map((f) => join(dir, f));
const summaryIn = (dir: string): BundleSummary => {
  const found = files(join(dir, 'reports'), '-bundle.json');
  expect(found).toHaveLength(1);
  return readBundleFile(found[0]!);
};

const THREE = {
  desk: { candidate: 'candidate-safe' },
  'desk-audit': { candidate: 'audit-hidden-pagination', datasets: 'support-ops.audit.cases.yaml' },
  'desk-next': { candidate: 'candidate' },
};

describe('a bundle of three servers whose verdicts are Promote, Hold and Rollback (real servers over stdio)', () => {
  let dir: string;
  let run: CliResult;
  let summary: BundleSummary;

  beforeAll(async () => {
    dir = bundleProject(THREE);
    run = await runCli(['run'], { cwd: dir, timeoutMs: 60_000 });
    summary = summaryIn(dir);
  }, 90_000);

  it("is Rollback overall (exit 1), with each server's verdict and reasons", () => {
    expect(run.code).toBe(1);
    expect(summary.verdict).toBe('Rollback');
    expect(summary.servers.map((s) => [s.name, s.verdict, s.reasons.map((r) => r.code)])).toEqual([
      ['desk', 'Promote', []],
      ['desk-audit', 'Hold', ['pagination-hint-hidden']],
      // desk-next ships a breaking change under 1.4.0 -> 1.5.0, a minor bump (version-bump-too-small, hold).
      ['desk-next', 'Rollback', ['required-argument-removed', 'tool-added-destructive', 'case-broken', 'version-bump-too-small']],
    ]);
  });

  it('writes one valid report per server, named after it, and lists them in the summary', () => {
    // Each report is stamped with its own server's start, and those can fall in different seconds,
    // so sort by the name after the stamp.
    const reports = readdirSync(join(dir, 'reports')).filter((f) => !f.endsWith('-bundle.json'));
    expect(reports.map((f) => f.replace(/^\d{8}T\d{6}Z-/, '')).sort()).toEqual([
      'desk-audit-baseline-to-audit-hidden-pagination.json',
      'desk-baseline-to-candidate-safe.json',
      'desk-next-baseline-to-candidate.json',
    ]);
    for (const server of summary.servers) expect(readReportFile(join(dir, server.report!)).server).toBe(server.name);
  });

  it('history reads the per-server reports and passes over the bundle summary beside them', async () => {
    const history = await runCli(['history', 'reports', '--format', 'json'], { cwd: dir });
    expect([history.code, history.stderr]).toEqual([0, '']);
    expect((JSON.parse(history.stdout) as { runs: unknown[] }).runs).toHaveLength(3);
  });

  it('reports the tool names the baselines already shared, without judging them', () => {
    expect(summary.collisions.map((c) => [c.tool, c.regression])).toEqual(
      ['Customers.Lookup', 'Incident.Declare', 'Tickets.Get', 'Tickets.Reply', 'Tickets.Search'].map((t) => [t, false]),
    );
    expect(summary.decision.reasons).toEqual([]);
  });

  it('prints the bundle summary with per-server reasons', () => {
    expect(run.stdout).toMatch(/desk-audit\s+baseline -> audit-hidden-pagination\s+Hold/);
    expect(run.stdout).toContain('desk-next: [rollback] case-broken: Candidate failed 3 frozen role cases.');
    expect(run.stdout).toContain('Bundle decision: Rollback');
    expect(processesMatching(`--tag=${dir}`)).toEqual([]);
  });

  it('the matrix round trip (plan, a run per server, merge) gives the same verdict and reasons', async () => {
    const plan = await runCli(['plan'], { cwd: dir });
    expect(plan.code).toBe(0);
    const matrix = JSON.parse(plan.stdout) as { include: { server: string }[] };
    expect(matrix).toEqual({ include: [{ server: 'desk' }, { server: 'desk-audit' }, { server: 'desk-next' }] });
    // Each job on its own runner: its own report directory, its own exit code.
    const jobs = await Promise.all(
      matrix.include.map(({ server }) =>
        runCli(['run', '--server', server, '--report-dir', `jobs/${server}`, '--quiet'], { cwd: dir, timeoutMs: 60_000 }),
      ),
    );
    expect(jobs.map((j) => j.code)).toEqual([0, 2, 1]);
    const reports = matrix.include.flatMap(({ server }) => files(join(dir, 'jobs', server), '.json'));
    const merged = await runCli(['merge', ...reports, '--report-dir', 'merged', '--format', 'json'], { cwd: dir });
    expect(merged.code).toBe(1);
    const fromMerge = JSON.parse(merged.stdout) as BundleSummary;
    expect(comparable(fromMerge)).toEqual(comparable(summary));
    expect(comparable(readBundleFile(files(join(dir, 'merged'), '-bundle.json')[0]!))).toEqual(comparable(summary));
  }, 90_000);
});

describe('cross-server name collisions', () => {
  let dir: string;
  let run: CliResult;

  beforeAll(async () => {
    // Both candidates add Runbooks.Search, which neither baseline had.
    dir = bundleProject({ tickets: { candidate: 'candidate-safe' }, runbooks: { candidate: 'candidate-safe' } });
    run = await runCli(['run', '--quiet'], { cwd: dir, timeoutMs: 60_000 });
  }, 90_000);

  it('two Promote servers whose candidates share a new tool name hold the bundle (exit 2)', () => {
    const summary = summaryIn(dir);
    expect(run.code).toBe(2);
    expect(summary.servers.map((s) => s.verdict)).toEqual(['Promote', 'Promote']);
    expect(summary.decision.reasons.map((r) => [r.code, r.action, r.tools])).toEqual([
      ['cross-server-name-collision', 'hold', ['Runbooks.Search']],
    ]);
    expect(summary.collisions.find((c) => c.regression)).toEqual({
      tool: 'Runbooks.Search',
      servers: ['runbooks', 'tickets'],
      regression: true,
    });
    expect(run.stdout).toContain('Runbooks.Search: exposed by runbooks, tickets');
  });

  it('merge computes the collision from the reports alone, and the bundle policy can ignore it', async () => {
    const reports = files(join(dir, 'reports'), '.json').filter((f) => !f.endsWith('-bundle.json'));
    // A single-pair config: its policy (the defaults) judges; the summary goes to --report-dir, not its reports.dir.
    const alone = await runCli(
      ['merge', ...reports, '-c', join(ROOT, 'gate.config.yaml'), '--report-dir', 'merged', '--format', 'json', '--quiet'],
      { cwd: dir },
    );
    expect(alone.code).toBe(2);
    expect((JSON.parse(alone.stdout) as BundleSummary).decision.reasons.map((r) => r.code)).toEqual(['cross-server-name-collision']);
    const lenient = join(dir, 'lenient.yaml');
    writeFileSync(
      lenient,
      `version: 1\nprofiles: { p: { command: node } }\nbaseline: p\ncandidate: p\npromotion: { rules: { cross-server-name-collision: ignore } }\n`,
    );
    const ignored = await runCli(['merge', ...reports, '-c', lenient, '--report-dir', 'merged', '--quiet'], { cwd: dir });
    expect(ignored.code).toBe(0);
    expect(ignored.stdout).toContain('Bundle decision: Promote');
  });
});

describe('a server that cannot be decided', () => {
  it('leaves the bundle undecided (exit 3) unless another server is already Rollback', async () => {
    const broken = { candidate: 'candidate-safe', baselineArgs: join(ROOT, 'examples/support-ops/dist/no-such-server.js') };
    const dir = bundleProject({ desk: { candidate: 'candidate-safe' }, broken });
    const run = await runCli(['run', '--quiet'], { cwd: dir, timeoutMs: 60_000 });
    expect(run.code).toBe(3);
    const summary = summaryIn(dir);
    expect([summary.verdict, summary.decided]).toEqual([null, false]);
    expect(summary.servers.map((s) => [s.name, s.status, s.verdict])).toEqual([
      ['broken', 'undecided', null],
      ['desk', 'decided', 'Promote'],
    ]);
    expect(summary.servers[0]!.error).toMatch(/baseline/i);
    expect(run.stdout).toContain('Bundle decision: undecided');

    const withRollback = bundleProject({ 'desk-next': { candidate: 'candidate' }, broken });
    const decided = await runCli(['run', '--quiet'], { cwd: withRollback, timeoutMs: 60_000 });
    expect(decided.code).toBe(1);
    expect(summaryIn(withRollback).verdict).toBe('Rollback');
  }, 90_000);

  it('merge with the config marks a server without a report as undecided', async () => {
    const dir = bundleProject({ desk: { candidate: 'candidate-safe' }, other: { candidate: 'candidate-safe' } });
    const one = await runCli(['run', '--server', 'desk', '--quiet'], { cwd: dir });
    expect(one.code).toBe(0);
    const merged = await runCli(['merge', ...files(join(dir, 'reports'), '.json'), '--format', 'json', '--quiet'], { cwd: dir });
    expect(merged.code).toBe(3);
    const summary = JSON.parse(merged.stdout) as BundleSummary;
    expect(summary.servers.map((s) => [s.name, s.status])).toEqual([
      ['desk', 'decided'],
      ['other', 'undecided'],
    ]);
  });
});

describe('bundle config errors name the file, the field and the fix', () => {
  it('a top-level pair beside servers, an undefined profile, an unknown --server', async () => {
    const dir = bundleProject({ desk: { candidate: 'candidate-safe' } }, 'baseline: baseline');
    const bad = await runCli(['validate'], { cwd: dir });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/gate\.config\.yaml:\d+: baseline: does not apply beside servers/);

    const typo = bundleProject({ desk: { candidate: 'candidate-safe' } });
    const config = join(typo, 'gate.config.yaml');
    writeFileSync(
      config,
      (await import('node:fs')).readFileSync(config, 'utf8').replace('    candidate: candidate-safe', '    candidate: candidate-sfe'),
    );
    const missing = await runCli(['validate'], { cwd: typo });
    expect(missing.stderr).toMatch(/gate\.config\.yaml:\d+: servers\.desk\.candidate: names profile "candidate-sfe", which is not defined/);

    const valid = bundleProject({ desk: { candidate: 'candidate-safe' } });
    const unknown = await runCli(['run', '--server', 'nope'], { cwd: valid });
    expect([unknown.code, unknown.stderr]).toEqual([3, expect.stringContaining('servers: has no server "nope"; its servers: desk')]);
    const pair = await runCli(['run', '--server', 'desk', '--candidate', 'x'], { cwd: valid });
    expect(pair.stderr).toContain('--baseline, --candidate and --dataset apply to a config with one baseline/candidate pair');
    const plan = await runCli(['plan']);
    expect([plan.code, plan.stderr]).toEqual([3, expect.stringContaining('servers: is not set: plan prints the servers of a bundle')]);
  });
});
