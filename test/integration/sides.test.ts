import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import type { Report } from '../../src/report/types.js';

/**
 * Sides that do not collide (docs/config.md, "Sides that do not collide"). The baseline and the
 * candidate are the same server, started at once, as in "the same release against itself". The
 * fixture takes an exclusive lock file in its TMPDIR or HOME and fails initialize while the other
 * side holds it; one that crashes on its first start only shows the retry.
 */
const SERVER = join(ROOT, 'test/fixtures/servers/lock-server.mjs');

interface Project {
  dir: string;
  records: string;
  home: string;
}

/** The fixture as a profile, with more keys (the inside of a YAML flow mapping). */
const node = (dir: string, keys: string) => `command: node, args: [${SERVER}, --tag=${dir}]${keys ? `, ${keys}` : ''}`;

/** A project with the profiles `a` and `b`: the fixture with these keys, or a whole profile of a test's own. */
function project(a: string, b: string | ((dir: string) => string) = a): Project {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-sides-'));
  const records = join(dir, 'records');
  const home = join(dir, 'home');
  mkdirSync(records);
  mkdirSync(home);
  writeFileSync(
    join(dir, 'gate.config.yaml'),
    [
      'version: 1',
      'profiles:',
      `  a: { ${node(dir, a)} }`,
      `  b: { ${typeof b === 'string' ? node(dir, b) : b(dir)} }`,
      'baseline: a',
      'candidate: b',
      'timeouts: { startupMs: 10000, requestMs: 10000, runMs: 60000, killGraceMs: 500 }',
      '',
    ].join('\n'),
  );
  return { dir, records, home };
}

const run = (p: Project, env: Record<string, string> = {}) =>
  runCli(['run', '--format', 'json'], { cwd: p.dir, env: { HOME: p.home, ...env }, timeoutMs: 60_000 });

/** What each server process was given, as it wrote it. */
const recorded = (p: Project): { tmpdir: string; home: string }[] =>
  readdirSync(p.records).map((f) => JSON.parse(readFileSync(join(p.records, f), 'utf8')) as { tmpdir: string; home: string });

describe('sides that do not collide', { timeout: 90_000 }, () => {
  it('gives each side its own TMPDIR: twins that lock a file there both start, and the folders are gone afterwards', async () => {
    const p = project('env: { RECORD_DIR: "${RECORD_DIR}" }');
    const result = await run(p, { RECORD_DIR: p.records });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    expect([report.baseline.available, report.candidate.available]).toEqual([true, true]);
    expect(report.candidate.retried).toBeUndefined();
    const dirs = recorded(p);
    expect(dirs).toHaveLength(2);
    expect(new Set(dirs.map((d) => d.tmpdir)).size).toBe(2);
    for (const d of dirs) {
      expect(d.tmpdir).toMatch(/mcp-gate-(baseline|candidate)-/);
      expect(d.home).toBe(p.home); // HOME stays shared by default
      expect(existsSync(d.tmpdir)).toBe(false);
    }
  });

  it('with `tmpdir: shared` the twins collide: the loser fails beside its twin even when retried, so the sides run one after the other', async () => {
    const p = project('tmpdir: shared, env: { TMPDIR: "${SHARED_TMP}" }');
    const shared = join(p.dir, 'shared-tmp');
    mkdirSync(shared);
    const result = await run(p, { SHARED_TMP: shared });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/failed while starting \(initialize: .*is held by another process\); starting it once more/);
    // Which twin loses the race is up to the scheduler.
    expect((JSON.parse(result.stdout) as Report).sidesInTurn?.failed.message).toContain('is held by another process');
  });

  it('shares HOME by default; `home: isolated` gives each side its own, removed afterwards', async () => {
    const shared = project('env: { LOCK_IN: HOME }');
    const collided = await run(shared);
    expect(collided.code, collided.stderr).toBe(0);
    expect((JSON.parse(collided.stdout) as Report).sidesInTurn?.failed.message).toContain(join(shared.home, 'lock-server.lock'));

    const p = project('home: isolated, env: { LOCK_IN: HOME, RECORD_DIR: "${RECORD_DIR}" }');
    const result = await run(p, { RECORD_DIR: p.records });
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as Report).sidesInTurn).toBeUndefined(); // at once, each in its own HOME
    const dirs = recorded(p);
    expect(new Set(dirs.map((d) => d.home)).size).toBe(2);
    for (const d of dirs) {
      expect(d.home).not.toBe(p.home);
      expect(existsSync(d.home)).toBe(false);
    }
  });

  it('links and copies what a profile names into its isolated HOME, and leaves the real HOME alone', async () => {
    // The candidate shows what it finds in its HOME, then changes its copy, before it starts the fixture.
    const script = 'cat $HOME/.npmrc $HOME/.config/acme/settings >&2; echo changed > $HOME/.config/acme/settings; exec node "$0" "$1"';
    const p = project(
      'home: { link: [.npmrc], copy: [.config/acme] }',
      (dir) =>
        `command: sh, args: [-c, ${JSON.stringify(script)}, ${SERVER}, --tag=${dir}], home: { link: [.npmrc, .kube], copy: [.config/acme] }`,
    );
    writeFileSync(join(p.home, '.npmrc'), 'registry=https://registry.example/\n');
    mkdirSync(join(p.home, '.config/acme'), { recursive: true });
    writeFileSync(join(p.home, '.config/acme/settings'), 'original\n');
    const result = await run(p);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.candidate.stderr.tail).toContain('registry=https://registry.example/');
    expect(report.candidate.stderr.tail).toContain('original');
    expect(readFileSync(join(p.home, '.config/acme/settings'), 'utf8')).toBe('original\n'); // a copy was changed
    expect(existsSync(join(p.home, '.npmrc'))).toBe(true); // a link was removed, not followed
    expect(result.stderr).toContain('note: candidate: home entries not on this machine, not linked or copied: .kube');
  });

  it('starts a side that fails its first start once more, after the other side, and the report says so', async () => {
    const p = project('', 'env: { FAIL_FIRST: "${MARKER}" }');
    const marker = join(p.dir, 'first-start');
    const result = await run(p, { MARKER: marker });
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(marker)).toBe(true); // the first start did fail
    const report = JSON.parse(result.stdout) as Report;
    expect(report.candidate.available).toBe(true);
    expect(report.candidate.retried?.phase).toBe('initialize');
    expect(report.candidate.retried?.message).toContain('server exited with code 1');
    expect(report.baseline.retried).toBeUndefined();
    expect(report.decision.verdict).toBe('Promote');

    const text = await runCli(['show', join('reports', readdirSync(join(p.dir, 'reports'))[0]!)], { cwd: p.dir });
    expect(text.stdout).toMatch(/Candidate started on the second try; the first start failed \(initialize: .*server exited with code 1/);
  });

  // A server that holds a lock in its HOME for its lifetime starts alone without trouble, but not
  // beside its twin: before, that was a Rollback, "candidate unavailable", started twice.
  it('a server that locks a file in HOME for its lifetime: the sides run one after the other, a case on each, Promote, and every format says so', async () => {
    const p = project('env: { LOCK_IN: HOME }');
    writeFileSync(join(p.dir, 'gate.config.yaml'), `${readFileSync(join(p.dir, 'gate.config.yaml'), 'utf8')}datasets: [lock.cases.yaml]\n`);
    writeFileSync(
      join(p.dir, 'lock.cases.yaml'),
      [
        'role: lock-reader',
        'cases:',
        '  - id: LK-1',
        '    userTask: Ask who holds the lock.',
        '    requiredTools:',
        '      - { toolName: Lock.Holder, probeArguments: {}, expectedOutputContains: pid }',
        '',
      ].join('\n'),
    );
    const result = await run(p);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.decision.verdict).toBe('Promote');
    expect(report.sidesInTurn?.failed.phase).toBe('initialize');
    expect([report.baseline.cases.passed, report.candidate.cases.passed]).toEqual([1, 1]);
    expect(result.stderr).toMatch(
      /failed again while the (baseline|candidate) ran .*; the \1 is stopped and the (baseline|candidate) started alone/,
    );
    expect(result.stderr).toContain('`home: isolated` on the profiles lets them run at once');
    const saved = join('reports', readdirSync(join(p.dir, 'reports'))[0]!);
    for (const format of ['text', 'markdown', 'html']) {
      const shown = await runCli(['show', saved, '--format', format], { cwd: p.dir });
      expect(shown.stdout, format).toContain('The sides ran one after the other');
      expect(shown.stdout, format).toMatch(/home: isolated\\?` on their profiles lets them run at once/);
    }
  });

  it('sides run one after the other still send a break its witness, to each side in turn', async () => {
    const p = project('env: { LOCK_IN: HOME }', (dir) => `${node(dir, 'env: { LOCK_IN: HOME, WHO: required }')}`);
    const result = await run(p);
    expect(result.code, result.stderr).toBe(1);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.sidesInTurn).toBeDefined();
    const change = report.diff.changes.find((c) => c.code === 'required-argument-added')!;
    // The baseline answered the call without `who`, the candidate refused it: confirmed live.
    expect([change.witness?.live?.outcome, change.witness?.live?.baseline?.kind]).toEqual(['confirmed', 'result']);
  });

  it("sides run one after the other send a closing's probe too, and judge it once both answered", async () => {
    const p = project('env: { LOCK_IN: HOME }', (dir) => `${node(dir, 'env: { LOCK_IN: HOME, CLOSED: strict }')}`);
    const result = await run(p);
    expect(result.code, result.stderr).toBe(2);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.sidesInTurn).toBeDefined();
    const closing = report.diff.changes.find((c) => c.code === 'input-closed')!;
    expect(closing.witness?.instance).toEqual({ mcp_gate_undeclared: true });
    expect([closing.witness?.live?.outcome, closing.witness?.live?.candidate?.validation, closing.witness?.live?.baseline?.kind]).toEqual([
      'confirmed',
      true,
      'result',
    ]);
  });

  it('a candidate that cannot start alone either is unavailable, started three times, the last alone', async () => {
    const p = project('', 'env: { CRASH: state }');
    const result = await runCli(['run'], { cwd: p.dir, env: { HOME: p.home }, timeoutMs: 60_000 });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('candidate: does not start alone either; the baseline is started again');
    expect(result.stdout).toContain('Candidate unavailable (initialize)');
    expect(result.stdout).toContain('started three times, the last alone (the other side stopped); the first start failed too (initialize');
    expect(result.stdout).toContain('Error: state file is corrupt');
  });

  it('a crash whose cause no other side makes (a missing package) is not started a third time; the report shows its first error line, not only its last lines', async () => {
    const p = project('', 'env: { CRASH: "1" }');
    const result = await runCli(['run'], { cwd: p.dir, env: { HOME: p.home }, timeoutMs: 60_000 });
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain('started alone');
    expect(result.stdout).toContain('Candidate unavailable (initialize)');
    expect(result.stdout).toContain('started twice');
    expect(result.stdout).toContain("Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'pkce-challenge'");
    expect(result.stdout).toContain('Node.js v20.19.0'); // and the last lines still
  });
});
