import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, posix, relative, resolve } from 'node:path';
import { finding } from '../findings/finding.js';
import type { Finding } from '../findings/types.js';
import { closest } from '../base/closest.js';
import { InputError } from '../base/problems.js';
import type { GateConfig } from './types.js';

/**
 * Whether a pull request changes the gate's own policy. The config (rules, thresholds, exceptions)
 * and the datasets are read from the PR branch, so a PR could add `rules: { tool-removed: ignore }`
 * and pass its own gate. Against the PR's base commit, every policy file that was added or changed
 * is named, and the run holds (`gate-policy-changed`) until a person who owns the policy has
 * looked. Read with git, from the clone the run is in.
 */
export interface PolicyDrift {
  /** The commit compared against, as given (a SHA or ref). */
  base: string;
  files: {
    file: string;
    change: 'added' | 'changed' | 'removed';
    /** Set for a file the baseline profile of this name runs from the working tree (see baselineRunPaths). */
    runBy?: string;
  }[];
  /** Set when the comparison could not be made (no git, base commit not in the clone). */
  error?: string;
}

const git = (args: string[], cwd: string): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });

/**
 * The files that are policy for one pair: the config, the datasets, and what defines the baseline,
 * its snapshot or the MCP client config its `from` names. A PR that rewrites the baseline to match
 * its candidate would otherwise pass its own gate.
 */
export function policyFiles(config: GateConfig): string[] {
  const baseline = config.profiles[config.baseline];
  const own = baseline?.transport === 'snapshot' ? baseline.path : baseline?.from;
  return [...(config.file ? [config.file] : []), ...config.datasets, ...(own ? [own] : [])];
}

/**
 * Folders whose files are policy: the saved reports (`reports.dir`). They are the history the
 * deprecation window and `fallback: last-report` read, so one forged old report committed in a
 * pull request could make a removal calm or stand in for the baseline (docs/security.md). Only
 * files git tracks count: the reports a run writes, or a job restores from a cache, are not the
 * pull request's.
 */
export const policyFolders = (config: GateConfig): string[] => [config.reports.dir];

/** Tracked files under `folder` that differ from `commit` (committed in the change, or edited), as policy files. */
function folderChanges(folder: string, top: string, commit: string): PolicyDrift['files'] {
  const inRepo = relative(top, folder).split('\\').join('/');
  if (inRepo.startsWith('..') || isAbsolute(inRepo)) return [];
  try {
    return git(['diff', '--name-status', '--no-renames', commit, '--', inRepo || '.'], top)
      .split('\n')
      .map((line) => line.split('\t'))
      .filter(([status, file]) => status && file)
      .map(([status, file]) => ({ file: file!, change: status === 'A' ? 'added' : status === 'D' ? 'removed' : 'changed' }));
  } catch {
    return []; // a folder git cannot compare (outside the work tree after a symlink): nothing to name
  }
}

/**
 * What a live baseline runs from the working tree: a command given as a path, arguments that name
 * an existing file or folder, and its cwd when the profile sets one other than the config's folder
 * (`npm start` there runs what is there). A baseline started from a git ref, a snapshot or a
 * package that is not in the clone runs nothing of the change. Absolute paths.
 */
export function baselineRunPaths(config: GateConfig): { profile: string; paths: string[] } | null {
  const profile = config.profiles[config.baseline];
  if (!profile || profile.transport === 'snapshot' || profile.git) return null;
  const launch = profile.transport === 'stdio' ? profile : profile.launch;
  if (!launch) return null;
  // Text with ${VAR} is read only at run time; an option is not a path.
  const literal = (text: string) => !text.includes('${') && !text.startsWith('-');
  const paths: string[] = [];
  if (/[\\/]/.test(launch.command) && literal(launch.command)) paths.push(resolve(launch.cwd, launch.command));
  for (const arg of launch.args) {
    const path = literal(arg) ? resolve(launch.cwd, arg) : null;
    if (path && existsSync(path)) paths.push(path);
  }
  if (config.file && resolve(launch.cwd) !== dirname(config.file)) paths.push(launch.cwd);
  return paths.length ? { profile: profile.name, paths } : null;
}

/** Files the baseline runs (or a folder of them) that differ from `commit`, as policy files; git paths from `top`. */
function baselineChanges(run: { profile: string; paths: string[] }, top: string, commit: string): PolicyDrift['files'] {
  const found = new Map<string, PolicyDrift['files'][number]>();
  for (const path of run.paths) {
    const inRepo = relative(top, path).split('\\').join('/');
    if (inRepo.startsWith('..') || isAbsolute(inRepo)) continue;
    const scope = trackedScope(top, commit, inRepo || '.');
    try {
      for (const line of git(['diff', '--name-status', '--no-renames', commit, '--', scope], top).split('\n')) {
        const [status, file] = line.split('\t');
        if (!status || !file) continue;
        found.set(file, { file, change: status === 'A' ? 'added' : status === 'D' ? 'removed' : 'changed', runBy: run.profile });
      }
      for (const file of git(['ls-files', '--others', '--exclude-standard', '--', scope], top).split('\n')) {
        if (file) found.set(file, { file, change: 'added', runBy: run.profile });
      }
    } catch {
      // a path git cannot compare (outside the work tree after a symlink): nothing to name
    }
  }
  return [...found.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/**
 * What git can compare for a path: the path itself when git knows it, at the base or now; else
 * (a built file, ignored by git) the nearest folder above it that holds tracked files, whose
 * sources it was built from.
 */
function trackedScope(top: string, commit: string, path: string): string {
  const known = (p: string) => {
    try {
      return git(['ls-files', '--', p], top).trim() !== '' || git(['ls-tree', '--name-only', commit, '--', p], top).trim() !== '';
    } catch {
      return false;
    }
  };
  for (let scope = path; ; scope = posix.dirname(scope)) if (scope === '.' || known(scope)) return scope;
}

/**
 * A `--policy-base` that names nothing in the clone is a mistake on the command line (exit 3), not a
 * check to skip with a note: a mistyped `origin/mian` would otherwise pass every policy change. A
 * full commit id, as the Action passes, may be missing from a shallow clone: policyDrift says so
 * and tries the merge commit's first parent. Outside a git clone, policyDrift says that too.
 */
export function assertPolicyBase(base: string, cwd: string): void {
  if (/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i.test(base)) return;
  let top: string;
  try {
    top = git(['rev-parse', '--show-toplevel'], cwd).trim();
  } catch {
    return;
  }
  try {
    git(['rev-parse', '--verify', '--quiet', `${base}^{commit}`], top);
  } catch {
    let refs: string[] = [];
    try {
      refs = git(['for-each-ref', '--format=%(refname:short)', 'refs/heads', 'refs/remotes', 'refs/tags'], top).split('\n').filter(Boolean);
    } catch {
      // no refs to suggest
    }
    const near = closest(base, refs);
    throw new InputError([
      {
        file: 'command line',
        line: null,
        path: '--policy-base',
        message: `"${base}" is no commit, branch or tag of this clone${near ? ` (did you mean "${near}"?)` : ''}; give the change's base, e.g. origin/main or a commit id (git fetch it first if the clone lacks it)`,
      },
    ]);
  }
}

/** Policy files and folders (as given, relative to `cwd` or absolute) compared with the same paths at `base`. */
export function policyDrift(
  base: string,
  files: string[],
  cwd: string,
  run: { profile: string; paths: string[] } | null = null,
  folders: string[] = [],
): PolicyDrift {
  let top: string;
  try {
    top = git(['rev-parse', '--show-toplevel'], cwd).trim();
  } catch {
    return { base, files: [], error: `${cwd} is not in a git clone, so the policy files cannot be compared with ${base}` };
  }
  let commit = base;
  try {
    git(['cat-file', '-e', `${base}^{commit}`], top);
  } catch {
    // actions/checkout of a pull request gives the merge commit; with fetch-depth 2 its first parent is the base.
    try {
      commit = git(['rev-parse', 'HEAD^1'], top).trim();
      if (git(['rev-list', '--parents', '-n', '1', 'HEAD'], top).trim().split(' ').length < 3)
        throw new Error('HEAD is not a merge commit');
    } catch {
      return {
        base,
        files: [],
        error: `the base commit ${base} is not in this clone, so the policy files cannot be compared with it; check out with fetch-depth: 0 (or 2, for the merge commit of a pull request)`,
      };
    }
  }
  const changed: PolicyDrift['files'] = [];
  for (const file of [...new Set([...files, ...gateWorkflows(top, commit)])]) {
    const path = resolve(cwd, file);
    if (!existsSync(path)) continue;
    const inRepo = relative(top, path).split('\\').join('/');
    let before: string | null;
    try {
      before = git(['show', `${commit}:${inRepo}`], top);
    } catch {
      before = null;
    }
    if (before === null) changed.push({ file: inRepo, change: 'added' });
    else if (before !== readFileSync(path, 'utf8')) changed.push({ file: inRepo, change: 'changed' });
  }
  for (const folder of folders) changed.push(...folderChanges(resolve(cwd, folder), top, commit));
  const named = new Set(changed.map((f) => f.file));
  if (run) changed.push(...baselineChanges(run, top, commit).filter((f) => !named.has(f.file)));
  return { base: commit === base ? base : `${commit} (first parent of the merge commit; ${base} is not in the clone)`, files: changed };
}

/** Workflow files, the directory GitHub reads them from. */
const WORKFLOWS = '.github/workflows';
/** A workflow that runs the gate: it names the action (`mcp-gate/mcp-gate@v0`) or the command (`npx mcp-gate`). */
const RUNS_THE_GATE = /mcp-gate/i;

/**
 * The workflow files that run the gate, on either side: a PR can edit the very workflow that runs
 * its gate (drop the gate step, set `fail-on: never`, grant a token), so these are policy too.
 * A workflow that ran the gate at the base and no longer names it counts, through its base text.
 * Absolute paths, for policyDrift.
 */
export function gateWorkflows(top: string, commit: string): string[] {
  const isWorkflow = (name: string) => /\.ya?ml$/.test(name);
  const found = new Set<string>();
  const dir = join(top, WORKFLOWS);
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter(isWorkflow);
  } catch {
    // no workflows in the working tree
  }
  for (const name of names) {
    try {
      if (RUNS_THE_GATE.test(readFileSync(join(dir, name), 'utf8'))) found.add(name);
    } catch {
      // a directory or an unreadable file named like a workflow is not one GitHub runs
    }
  }
  let atBase: string[] = [];
  try {
    atBase = git(['ls-tree', '--name-only', `${commit}:${WORKFLOWS}`], top)
      .split('\n')
      .filter(isWorkflow);
  } catch {
    // no workflows at the base
  }
  for (const name of atBase) {
    if (found.has(name) || !names.includes(name)) continue; // a workflow the PR deleted runs nothing
    try {
      if (RUNS_THE_GATE.test(git(['show', `${commit}:${WORKFLOWS}/${name}`], top))) found.add(name);
    } catch {
      // unreadable at the base: only the working tree's text counts
    }
  }
  return [...found].sort().map((name) => join(dir, name));
}

/** The run's own finding when the change edits the gate's policy (its message names the files). */
export function policyFindings(drift: PolicyDrift | undefined): Finding[] {
  if (!drift?.files.length) return [];
  return [finding('gate-policy-changed', { base: drift.base, files: drift.files }, { side: 'candidate', regression: true })];
}
