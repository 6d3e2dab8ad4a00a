import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, scratchProject } from '../helpers/cli.js';

/**
 * A release as .github/workflows/release.yml makes it: its step that makes the release commit and
 * the tags (id: release) runs here as written, on a scratch version tag, in a repository made in a
 * temporary folder from the tracked files as they stand and the dist/ the suite already built (a
 * clone of HEAD would miss what is not committed yet; nothing is built again). Nothing is pushed.
 * The tag's tree is what `uses: mcp-gate/mcp-gate@<commit>` runs and what `npm install
 * git+https://...#<commit>` fetches, so both are run from it, where no node_modules above the
 * folder can stand in for one the tree lacks. The recorded releases (test/fixtures/releases, nine
 * tenths of the tree's bytes) are left out of the copy: nothing here reads them, and `npm install
 * git+file:` clones the tree three times.
 */
const TAG = 'v9.8.7';
const MAJOR = 'v9';
const RECORDED = 'test/fixtures/releases/';
let tree: string;
let source: string;
let release: Record<string, string>;

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=release', '-c', 'user.email=release@example.test', ...args], { cwd, encoding: 'utf8' }).trim();

interface Step {
  id?: string;
  name?: string;
  run?: string;
  env?: Record<string, string>;
}

/** A workflow step's shell script, run as GitHub runs `shell: bash`. */
const bash = (script: string, cwd: string, env: Record<string, string>) =>
  spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
  });

/** `KEY=value` lines, as a step writes to $GITHUB_OUTPUT. */
const outputsOf = (file: string) =>
  Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );

beforeAll(() => {
  tree = join(mkdtempSync(join(tmpdir(), 'mcp-gate-release-')), 'mcp-gate');
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of tracked) {
    if (file.startsWith(RECORDED)) continue;
    if (!existsSync(join(ROOT, file))) continue; // deleted in the work tree, not yet committed
    mkdirSync(dirname(join(tree, file)), { recursive: true });
    cpSync(join(ROOT, file), join(tree, file));
  }
  // The version tag's commit, as the release job checks it out: dist/ is ignored, so not in it.
  git(tree, 'init', '-q');
  git(tree, 'add', '-A');
  git(tree, 'commit', '-q', '-m', 'the source of the release');
  git(tree, 'tag', TAG);
  source = git(tree, 'rev-parse', 'HEAD');
  // What `bash .ci/run` leaves before the release step: the build, here the one the suite made.
  cpSync(join(ROOT, 'dist'), join(tree, 'dist'), { recursive: true });
  const workflow = parse(readFileSync(join(tree, '.github/workflows/release.yml'), 'utf8')) as { jobs: { release: { steps: Step[] } } };
  const step = workflow.jobs.release.steps.find((s) => s.id === 'release')!;
  expect(step.env).toEqual({ TAG: '${{ github.ref_name }}' });
  const output = join(dirname(tree), 'github-output');
  writeFileSync(output, '');
  const made = bash(step.run!, tree, { TAG, GITHUB_OUTPUT: output });
  expect(made.status, made.stderr).toBe(0);
  release = outputsOf(output);
});

const run = (args: string[], cwd: string, env: Record<string, string> = {}) =>
  spawnSync(process.execPath, args, {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env },
  });

describe('the release layout: tracked files and dist/, no node_modules', { timeout: 120_000 }, () => {
  it("release.yml's step makes one commit on the version's, with dist/ and the release package.json, and tags it", () => {
    expect(release).toEqual({ major: MAJOR, commit: git(tree, 'rev-parse', 'HEAD') });
    expect(git(tree, 'rev-parse', `${MAJOR}^{commit}`)).toBe(release.commit);
    expect(git(tree, 'rev-parse', `dist/${TAG}^{commit}`)).toBe(release.commit);
    expect(git(tree, 'rev-parse', `${release.commit}^`)).toBe(source);
    const files = git(tree, 'ls-tree', '-r', '--name-only', MAJOR).split('\n');
    for (const built of ['dist/launch.cjs', 'dist/packed/mcp-gate.cjs', 'dist/packed/mcp-gate.cjs.v8cache', 'dist/generated/config.cjs'])
      expect(files).toContain(built);
    // A stamp of when this clone last built, for the test setup: no part of a release.
    expect(files).not.toContain('dist/.build-complete');
    expect(git(tree, 'ls-tree', '-r', '--name-only', source, 'dist')).toBe('');
    expect(git(tree, 'status', '--porcelain', '--untracked-files=no')).toBe('');
  });

  it('declares no dependency and no prepare script: nothing to install, nothing to build', () => {
    const manifest = JSON.parse(git(tree, 'show', `${MAJOR}:package.json`)) as Record<string, Record<string, string> | undefined>;
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.devDependencies).toBeUndefined();
    expect(manifest.scripts?.prepare).toBeUndefined();
    expect(existsSync(join(tree, 'node_modules'))).toBe(false);
    // The repository's own package.json already declares nothing at run time: the bundle holds it all.
    expect((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies?: object }).dependencies).toBeUndefined();
  });

  it('mcp-gate run from the release tree gates the example: Rollback, exit 1, a report that validates', () => {
    const project = scratchProject();
    const result = run([join(tree, 'bin/mcp-gate.js'), 'run'], project);
    expect(result.stderr).not.toMatch(/Cannot find module|internal error/);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('Decision: Rollback');
    const reports = readdirSync(join(project, 'reports')).filter((f) => f.endsWith('.json'));
    expect(reports).toHaveLength(1);
    // `show` reads the report back through the report validator, which is a bundled file of dist/generated.
    const shown = run([join(tree, 'bin/mcp-gate.js'), 'show', join(project, 'reports', reports[0]!)], project);
    expect(shown.status).toBe(0);
    expect(shown.stdout).toContain('Decision: Rollback');
  });

  it('the action at the major tag, as action.yml runs it: its install step installs nothing, its gate step decides', () => {
    // What GitHub fetches for `uses: mcp-gate/mcp-gate@<ref>`: the tree of that commit, no .git.
    const action = mkdtempSync(join(tmpdir(), 'mcp-gate-action-'));
    const archive = join(action, '..', `${MAJOR}-${Date.now()}.tar`);
    git(tree, 'archive', '--format=tar', '-o', archive, MAJOR);
    execFileSync('tar', ['-xf', archive, '-C', action]);
    const manifest = parse(readFileSync(join(action, 'action.yml'), 'utf8')) as {
      inputs: Record<string, { default?: string }>;
      runs: { steps: Step[] };
    };
    const [install, gate] = manifest.runs.steps as [Step, Step];
    expect([install.name, gate.id]).toEqual(['Install mcp-gate', 'gate']);

    // npm on PATH only says that it was called.
    const bin = mkdtempSync(join(tmpdir(), 'mcp-gate-no-npm-'));
    writeFileSync(join(bin, 'npm'), `#!/bin/sh\necho "$@" >> "${join(bin, 'called')}"\nexit 1\n`);
    chmodSync(join(bin, 'npm'), 0o755);
    const installed = bash(install.run!, action, { PATH: `${bin}:${process.env.PATH}` });
    expect(installed.status, installed.stderr).toBe(0);
    expect(existsSync(join(bin, 'called'))).toBe(false);
    expect(existsSync(join(action, 'node_modules'))).toBe(false);

    const project = scratchProject();
    const output = join(project, 'github-output');
    const summary = join(project, 'step-summary');
    writeFileSync(output, '');
    writeFileSync(summary, '');
    const inputs: Record<string, string> = {
      ...Object.fromEntries(Object.entries(manifest.inputs).map(([name, input]) => [name, input.default ?? ''])),
      config: 'gate.config.yaml',
      'fail-on': 'hold',
    };
    // The step's env as GitHub evaluates it: each input, and `false` for the token-given check.
    const env = Object.fromEntries(
      Object.entries(gate.env!)
        .map(([key, value]) => [key, /^\$\{\{ inputs\.([\w-]+) \}\}$/.exec(value)?.[1] ?? null] as const)
        .map(([key, input]) => [key, input === null ? 'false' : (inputs[input] ?? '')]),
    );
    const decided = bash(gate.run!.replaceAll('${{ github.action_path }}', action), project, {
      ...env,
      PATH: `${bin}:${process.env.PATH}`,
      NO_COLOR: '1',
      GITHUB_ACTIONS: 'true',
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_EVENT_NAME: 'push',
      GITHUB_WORKSPACE: project,
    });
    expect(decided.stderr).not.toMatch(/Cannot find module|internal error/);
    expect(decided.status).toBe(1);
    expect(outputsOf(output).verdict).toBe('Rollback');
    expect(readFileSync(summary, 'utf8')).toContain('Rollback');
    expect(existsSync(join(bin, 'called'))).toBe(false);
  });

  it('the release carries provenance: npm publishes with it, and the run attests the built files the package ships', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { repository?: unknown; files: string[] };
    // npm checks a package's provenance against the repository its package.json names.
    expect(manifest.repository).toEqual({ type: 'git', url: 'git+https://github.com/mcp-gate/mcp-gate.git' });
    const workflow = parse(readFileSync(join(ROOT, '.github/workflows/release.yml'), 'utf8')) as {
      permissions: Record<string, string>;
      jobs: { release: { steps: (Step & { uses?: string; with?: Record<string, string> })[] } };
    };
    expect(workflow.permissions).toMatchObject({ 'id-token': 'write', attestations: 'write' });
    const steps = workflow.jobs.release.steps;
    const at = (found: (step: (typeof steps)[number]) => boolean) => steps.findIndex(found);
    const made = at((s) => s.id === 'release');
    const attested = at((s) => s.uses?.startsWith('actions/attest-build-provenance@') ?? false);
    const pushed = at((s) => s.run?.includes('git push') ?? false);
    const published = at((s) => s.run?.includes('npm publish') ?? false);
    // Attested as the release commit holds them, before any tag or package leaves the run.
    expect(made < attested && attested < pushed && pushed < published).toBe(true);
    expect(steps[published]!.run).toContain('--provenance');
    const subjects = steps[attested]!.with!['subject-path']!.trim().split('\n');
    expect(subjects.map((subject) => subject.replace(/\/\*$/, ''))).toEqual(manifest.files.filter((f) => f.startsWith('dist/')));
    const released = git(tree, 'ls-tree', '-r', '--name-only', MAJOR).split('\n');
    for (const subject of subjects)
      expect(released.some((file) => file === subject || file.startsWith(subject.replace('*', '')))).toBe(true);
  });

  it('dist/ names no folder of the machine that built it, and its code cache serves the packed file in another folder', () => {
    // V8 keeps the name a code cache was recorded under; a build folder there made two builds differ.
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
      );
    const needles = [Buffer.from(ROOT), Buffer.from(ROOT, 'utf16le')];
    const naming = files(join(ROOT, 'dist')).filter((file) => {
      const bytes = readFileSync(file);
      return needles.some((needle) => bytes.includes(needle));
    });
    expect(naming.map((file) => file.slice(ROOT.length + 1))).toEqual([]);
    const launch = join(tree, 'dist/launch.cjs');
    const used = run(
      [
        '-e',
        `process.stdout.write(require(${JSON.stringify(launch)}).loadPacked(${JSON.stringify(join(tree, 'dist/packed/mcp-gate.cjs'))}).cache)`,
      ],
      tree,
    );
    expect(used.stdout).toBe('used');
  });

  it('npm install git+…#tag of the release commit installs one package, runs no script, and works', () => {
    const project = mkdtempSync(join(tmpdir(), 'mcp-gate-git-install-'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-server', version: '1.0.0', private: true }));
    const installed = spawnSync('npm', ['install', '--no-audit', '--no-fund', `git+file://${tree}#${MAJOR}`], {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    expect(installed.stderr).not.toMatch(/allowScripts|install-scripts|ERR!/);
    expect(installed.status).toBe(0);
    expect(installed.stdout).toMatch(/added 1 package/);
    expect(readdirSync(join(project, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual(['mcp-gate']);
    const version = spawnSync('npx', ['--no-install', 'mcp-gate', '--version'], { cwd: project, encoding: 'utf8' });
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('pins', () => {
  /** Every `uses: mcp-gate/mcp-gate@REF` line and every `mcp-gate.git#REF` of the documents people copy from. */
  const pinsIn = (files: string[]) =>
    files.flatMap((file) =>
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          [...line.matchAll(/uses: mcp-gate\/mcp-gate@(<[^>]+>|\S+)(.*)|mcp-gate\.git#(<[^>]+>|\S+)/g)].map((m) => ({
            at: `${file}:${i + 1}`,
            ref: m[1] ?? m[3]!,
            comment: m[1] === undefined ? null : m[2]!.trim(),
          })),
        ),
    );

  it('the README, the docs and the example workflows pin mcp-gate by commit, never by a tag that a release may move (or has yet to make)', () => {
    const docs = readdirSync(join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`);
    const workflows = readdirSync(join(ROOT, 'examples/workflows')).map((name) => `examples/workflows/${name}`);
    const pins = pinsIn(['README.md', ...docs, ...workflows]);
    expect(pins.filter((pin) => pin.at.startsWith('examples/'))).toHaveLength(2);
    expect(pins.length).toBeGreaterThan(3);
    const commit = /^(?:[0-9a-f]{40}|<(?:40-hex sha|commit)>)$/;
    expect(pins.filter((pin) => !commit.test(pin.ref))).toEqual([]);
    // A `uses:` line says which release its commit is.
    expect(pins.filter((pin) => pin.comment !== null && !/^# v\d/.test(pin.comment))).toEqual([]);
  });
});
