import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, scratchProject } from '../helpers/cli.js';

/**
 * The tree a release commit holds (release.yml): the tracked files, the built dist/, package.json
 * rewritten by scripts/release-layout.mjs, and no node_modules. This is what `uses:
 * mcp-gate/mcp-gate@v0` runs and what `npm install git+https://...#v0` fetches, so both are run
 * here from a copy in a temporary folder, where no node_modules above it can stand in for one the
 * tree lacks.
 */
let tree: string;

beforeAll(() => {
  tree = join(mkdtempSync(join(tmpdir(), 'mcp-gate-release-')), 'mcp-gate');
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of tracked) {
    if (!existsSync(join(ROOT, file))) continue; // deleted in the work tree, not yet committed
    mkdirSync(dirname(join(tree, file)), { recursive: true });
    cpSync(join(ROOT, file), join(tree, file));
  }
  cpSync(join(ROOT, 'dist'), join(tree, 'dist'), { recursive: true });
  execFileSync(process.execPath, [join(ROOT, 'scripts/release-layout.mjs'), tree]);
});

const run = (args: string[], cwd: string, env: Record<string, string> = {}) =>
  spawnSync(process.execPath, args, {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env },
  });

describe('the release layout: tracked files and dist/, no node_modules', { timeout: 120_000 }, () => {
  it('declares no dependency and no prepare script: nothing to install, nothing to build', () => {
    const manifest = JSON.parse(readFileSync(join(tree, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
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

  it("the Action's entry from the release tree decides and writes its outputs", () => {
    const project = scratchProject();
    const output = join(project, 'github-output');
    const summary = join(project, 'step-summary');
    writeFileSync(output, '');
    writeFileSync(summary, '');
    const result = run([join(tree, 'bin/mcp-gate-action.js')], project, {
      GITHUB_ACTIONS: 'true',
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_EVENT_NAME: 'push',
      GITHUB_WORKSPACE: project,
      INPUT_CONFIG: 'gate.config.yaml',
      'INPUT_FAIL-ON': 'hold',
      INPUT_COMMENT: 'false',
    });
    expect(result.stderr).not.toMatch(/Cannot find module|internal error/);
    expect(result.status).toBe(1);
    expect(readFileSync(output, 'utf8')).toMatch(/^verdict=Rollback$/m);
    expect(readFileSync(summary, 'utf8')).toContain('Rollback');
  });

  it('npm install git+…#tag of the release commit installs one package, runs no script, and works', () => {
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=release', '-c', 'user.email=release@example.test', ...args], { cwd: tree, stdio: 'pipe' });
    git('init', '-q');
    git('add', '-A');
    git('add', '-f', 'dist'); // as release.yml does: dist/ is ignored on main
    git('commit', '-q', '-m', 'release');
    git('tag', 'v0');
    const project = mkdtempSync(join(tmpdir(), 'mcp-gate-git-install-'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-server', version: '1.0.0', private: true }));
    const installed = spawnSync('npm', ['install', '--no-audit', '--no-fund', `git+file://${tree}#v0`], {
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

  it('the README and the docs pin mcp-gate by commit, never by a tag that a release may move (or has yet to make)', () => {
    const docs = readdirSync(join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`);
    const pins = pinsIn(['README.md', ...docs]);
    expect(pins.length).toBeGreaterThan(3);
    const commit = /^(?:[0-9a-f]{40}|<(?:40-hex sha|commit)>)$/;
    expect(pins.filter((pin) => !commit.test(pin.ref))).toEqual([]);
    // A `uses:` line says which release its commit is.
    expect(pins.filter((pin) => pin.comment !== null && !/^# v\d/.test(pin.comment))).toEqual([]);
  });
});
