import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crashExcerpt } from '../base/error-text.js';
import { cacheRoot, dropWorktree, MARK, tidy, touch, wholeEntry } from './git-cache.js';
import { serverEnvironment } from './environment.js';
import { endGroup, spawnGroup } from './process-group.js';
import { StreamTail } from './stderr-tail.js';
import { writeManifest } from './tree-digest.js';

/**
 * A baseline built from a git ref: the tree of one commit, checked out in a worktree of the
 * config's clone, built once with the profile's `build` command, and kept in a cache keyed by the
 * commit and the build command. The worktree's registration is dropped as soon as the tree is
 * built (or its build failed), so the clone never keeps a worktree the gate made.
 */

const git = (args: string[], cwd: string): string =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 16 * 1024 * 1024 });

/** A git ref that cannot be resolved, a folder outside a clone, a build that failed: the baseline cannot be made (exit 3). */
export class BaselineBuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BaselineBuildError';
  }
}

/** The top folder of the clone that holds `dir`, or an error that says so. */
export function cloneTop(dir: string): string {
  try {
    return git(['rev-parse', '--show-toplevel'], dir).trim();
  } catch {
    throw new BaselineBuildError(`${dir} is not in a git clone, so a git ref cannot be checked out there`);
  }
}

/**
 * The commit a ref stands for, as the baseline of the change checked out at HEAD: the merge-base of
 * the ref and HEAD (in a pull request, where the PR branched from the base), or the ref's own commit
 * when they share no history. `how` says which, for the progress line.
 */
export function baselineCommit(ref: string, top: string): { commit: string; how: string } {
  let commit: string;
  try {
    commit = git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], top).trim();
  } catch {
    // actions/checkout of a pull request gives the merge commit; with fetch-depth 2 its first parent is the base.
    try {
      const parents = git(['rev-list', '--parents', '-n', '1', 'HEAD'], top).trim().split(' ');
      if (parents.length < 3 || !/^[0-9a-f]{7,}$/.test(ref) || !parents[0]) throw new Error('not a merge');
      return { commit: parents[1]!, how: `the first parent of the merge commit (${ref} is not in this clone)` };
    } catch {
      throw new BaselineBuildError(
        `the git ref ${ref} is not in this clone; fetch it first (actions/checkout with fetch-depth: 0, or git fetch origin)`,
      );
    }
  }
  try {
    const base = git(['merge-base', commit, 'HEAD'], top).trim();
    if (base) return { commit: base, how: base === commit ? ref : `the merge-base of ${ref} and HEAD` };
  } catch {
    // no common history with HEAD (or no HEAD at all): the ref itself
  }
  return { commit, how: ref };
}

/** The text of FILE (relative to the clone's top) at the baseline commit of REF. */
export function fileAtRef(ref: string, file: string, dir: string): { text: string; commit: string } {
  const top = cloneTop(dir);
  const { commit } = baselineCommit(ref, top);
  try {
    return { text: git(['show', `${commit}:${file.replace(/^\.?\//, '')}`], top), commit };
  } catch {
    throw new BaselineBuildError(`${file} is not in the tree of ${ref} (commit ${commit.slice(0, 12)}); the path is from the clone's top`);
  }
}

export interface BuiltTree {
  /** The built tree, absolute: the worktree's top as it was at the commit, plus what the build made. */
  dir: string;
  commit: string;
  /** The cache already held it: nothing was checked out or built. */
  cached: boolean;
  /** The digest of its manifest (tree-digest.ts), as it was built. */
  digest: string;
}

/** Lines of a failed build's output shown in the error (its first error line too, when earlier). */
const BUILD_TAIL_LINES = 20;

/**
 * The tree of `commit`, built with `build` (run with `sh -c`, in the tree, with the same scrubbed
 * environment a server gets), from the cache when it holds it whole: a cached tree is hashed again
 * and compared with the manifest its build wrote, and one that differs (or has none) is built again.
 * A build that fails is a BaselineBuildError with the tail of its output, and leaves nothing behind.
 * An interrupted gate (which ends the build's process group) removes the half-made tree on its way out.
 */
export async function builtTree(
  top: string,
  commit: string,
  build: string | null,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
  /** How long the build may take (timeouts.runMs): a build that hangs must not hold the gate forever. */
  buildMs: number,
): Promise<BuiltTree> {
  const root = cacheFolder(env);
  const key = createHash('sha256')
    .update(`${commit}\0${build ?? ''}`)
    .digest('hex')
    .slice(0, 16);
  const dir = join(root, `${commit.slice(0, 12)}-${key}`);
  // Checked once per run: no server of this run can write the cache (namespace-setup.ts), or each runs from a copy checked again.
  const known = verified.get(dir);
  if (known) return { dir, commit, cached: true, digest: known };
  // Servers of one bundle may need the same tree: one build, which the others wait for (a
  // second would make its tree in the same folder, and remove the first's).
  const pending = building.get(dir);
  if (pending) return pending.then((tree) => ({ ...tree, cached: true }));
  const digest = existsSync(join(dir, MARK)) ? wholeEntry(dir, log) : null;
  if (digest) {
    verified.set(dir, digest);
    touch(join(dir, MARK));
    tidy(root, dir, log);
    return { dir, commit, cached: true, digest };
  }
  const made = makeTree({ top, commit, build, env, log, buildMs }, root, dir)
    .then((tree) => (verified.set(dir, tree.digest), tree))
    .finally(() => building.delete(dir));
  building.set(dir, made);
  return made;
}

/** The cache's folder, made if need be, by its real path: a link on the way could be swapped for another. */
function cacheFolder(env: NodeJS.ProcessEnv): string {
  const root = cacheRoot(env);
  mkdirSync(root, { recursive: true });
  return realpathSync(root);
}

/** The digest each tree had when this run built it or first found it whole in the cache. */
const verified = new Map<string, string>();

/** The digest a built tree had when this run built it or found it whole; undefined for a tree it did not. */
export const builtDigest = (dir: string): string | undefined => verified.get(dir);

/** The trees this process is building now, by their cache folder. */
const building = new Map<string, Promise<BuiltTree>>();

/** What builtTree was asked for. */
interface TreeRequest {
  top: string;
  commit: string;
  build: string | null;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  buildMs: number;
}

/** The tree checked out in a folder of its own, built, hashed (tree-digest.ts), and moved into the cache at `dir`. */
async function makeTree({ top, commit, build, env, log, buildMs }: TreeRequest, root: string, dir: string): Promise<BuiltTree> {
  const making = `${dir}.${process.pid}.tmp`;
  const discard = () => dropWorktree(making, true);
  process.once('exit', discard);
  try {
    rmSync(making, { recursive: true, force: true });
    try {
      git(['worktree', 'add', '--detach', '--quiet', making, commit], top);
    } catch (error) {
      throw new BaselineBuildError(`git could not check out ${commit.slice(0, 12)} in a worktree: ${gitMessage(error)}`);
    }
    if (build) {
      log(`building the baseline at ${commit.slice(0, 12)}: ${build}`);
      await runBuild(build, making, env, buildMs);
    }
    dropWorktree(making, false);
    // The digest on the mark's second line: the build command, last, may span lines.
    const digest = writeManifest(making, [MARK]);
    writeFileSync(join(making, MARK), `${commit}\n${digest}\n${build ?? ''}\n`);
    try {
      renameSync(making, dir);
    } catch {
      // another run built the same tree meanwhile: use its, drop this one
      if (!existsSync(join(dir, MARK))) throw new BaselineBuildError(`could not move the built tree into the cache at ${dir}`);
      rmSync(making, { recursive: true, force: true });
      const theirs = wholeEntry(dir, log);
      if (!theirs) throw new BaselineBuildError(`the built tree at ${dir}, made by another run meanwhile, is not whole`);
      tidy(root, dir, log);
      return { dir, commit, cached: false, digest: theirs };
    }
    tidy(root, dir, log);
    return { dir, commit, cached: false, digest };
  } catch (error) {
    discard();
    throw error;
  } finally {
    process.removeListener('exit', discard);
  }
}

async function runBuild(build: string, cwd: string, source: NodeJS.ProcessEnv, buildMs: number): Promise<void> {
  const { env } = serverEnvironment({}, source);
  const output = new StreamTail(64 * 1024);
  // The build writes its own tree; every other tree in the cache stays read-only to it (namespace-setup.ts).
  const group = spawnGroup(process.platform === 'win32' ? 'cmd.exe' : 'sh', process.platform === 'win32' ? ['/c', build] : ['-c', build], {
    cwd,
    env,
    gateEnv: source,
    writable: cwd,
  });
  group.child.stdin?.end();
  group.child.stdout!.on('data', (chunk: Buffer) => output.push(chunk));
  group.child.stderr!.on('data', (chunk: Buffer) => output.push(chunk));
  try {
    await group.spawned;
  } catch (error) {
    throw new BaselineBuildError(`the build command could not start: ${(error as Error).message}`);
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void endGroup(group.child.pid!, 2_000);
  }, buildMs);
  const { code, signal } = await group.exited;
  clearTimeout(timer);
  await endGroup(group.child.pid!, 0); // whatever it left behind in its group
  if (timedOut)
    throw new BaselineBuildError(`the baseline's build did not finish within timeouts.runMs (${buildMs} ms) and was ended: ${build}`);
  if (code === 0) return;
  const tail = crashExcerpt(output.text(), BUILD_TAIL_LINES).join('\n');
  throw new BaselineBuildError(
    `the baseline's build failed (${signal ? `ended by ${signal}` : `exit code ${code}`}): ${build}${tail.trim() ? `\nbuild output (tail):\n${tail}` : ''}`,
  );
}

function gitMessage(error: unknown): string {
  const stderr = (error as { stderr?: string }).stderr;
  return (stderr?.trim() || (error as Error).message).split('\n').slice(-3).join(' ');
}
