import { readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { changedPaths, digestOf, MANIFEST, readManifest, treeManifest } from './tree-digest.js';

/**
 * The cache of built git baselines (git-tree.ts builds them): where it is, how an entry is marked
 * whole and touched when used, and how it is tidied. docs/baselines.md, "The cache".
 */

/**
 * Where built trees are kept: MCPGATE_CACHE_DIR, else the system's cache folder
 * ($XDG_CACHE_HOME or ~/.cache on Linux, ~/Library/Caches on macOS, %LOCALAPPDATA% on Windows),
 * under mcp-gate/git-baselines.
 */
export function cacheRoot(env: NodeJS.ProcessEnv): string {
  if (env.MCPGATE_CACHE_DIR) return resolve(env.MCPGATE_CACHE_DIR, 'git-baselines');
  const home = env.HOME ?? homedir();
  const system =
    process.platform === 'darwin'
      ? join(home, 'Library', 'Caches')
      : process.platform === 'win32'
        ? (env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'))
        : env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)
          ? env.XDG_CACHE_HOME
          : join(home, '.cache');
  return join(system, 'mcp-gate', 'git-baselines');
}

/** The file that marks a cache entry as complete: a tree without it is half made. Each use touches it. */
export const MARK = '.mcp-gate-built';

/** How long a cache entry may go unused before a run that uses the cache removes it. */
export const CACHE_UNUSED_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
const ENTRY = /^[0-9a-f]{12}-[0-9a-f]{16}$/;
/** A tree being made (`<entry>.<pid>.tmp`): one a killed run left is removed after a day. */
const HALF_MADE = /^[0-9a-f]{12}-[0-9a-f]{16}\.\d+\.tmp$/;

export const touch = (file: string) => {
  try {
    const now = new Date();
    utimesSync(file, now, now);
  } catch {
    // a cache that cannot be written still serves; the entry only looks older than it is
  }
};

/**
 * The digest of a cache entry when its files are still those its manifest lists, and the manifest
 * the one its mark names; otherwise null, with the entry moved aside (to where the next build of it
 * starts by clearing) and a warning that names what changed.
 */
export function wholeEntry(dir: string, log: (line: string) => void): string | null {
  const recorded = /^[0-9a-f]{64}$/.exec(readFileSync(join(dir, MARK), 'utf8').split('\n')[1] ?? '')?.[0];
  const written = readManifest(dir);
  const now = treeManifest(dir, [MARK, MANIFEST]);
  if (recorded && digestOf(written) === recorded && digestOf(now) === recorded) return recorded;
  let why = 'it has no manifest (built by an older mcp-gate)';
  if (recorded && written) {
    const { paths, count } = changedPaths(written, now);
    why =
      digestOf(written) === recorded
        ? `its files differ from the manifest written when it was built: ${paths.join(', ')}${count > paths.length ? ` and ${count - paths.length} more` : ''}`
        : 'its manifest is not the one written when it was built';
  }
  log(`warning: the cached baseline tree ${dir}: ${why}; it is moved aside and built again`);
  renameSync(dir, `${dir}.${process.pid}.tmp`);
  return null;
}

/**
 * Removes what the cache no longer needs: entries no run has used for CACHE_UNUSED_DAYS (their
 * mark's time, which each use touches), and half-made trees a stopped run left more than a day
 * ago, with their registration in the clone. `keep` (the entry in use) and folders that are not
 * the gate's stay. An entry is first moved aside in one step (renamed to a half-made name), then
 * deleted: a delete that stops partway leaves a half-made tree that a later run removes, never an
 * entry that looks whole, nor a folder in the way of the next build of that commit. Returns the
 * names removed at once, and the deletes, which run in the background. Never throws: a cache that
 * cannot be tidied still serves.
 */
export function pruneCache(root: string, keep: string, now = Date.now()): { removed: string[]; deleted: Promise<void> } {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return { removed: [], deleted: Promise.resolve() };
  }
  const removed: string[] = [];
  const deletes: Promise<void>[] = [];
  for (const name of names.sort()) {
    const path = join(root, name);
    if (path === keep) continue;
    try {
      const entry = ENTRY.test(name);
      const since = entry ? statSync(join(path, MARK)).mtimeMs : HALF_MADE.test(name) ? statSync(path).mtimeMs : null;
      if (since === null || now - since < (entry ? CACHE_UNUSED_DAYS * DAY_MS : DAY_MS)) continue;
      const aside = entry ? `${path}.${process.pid}.tmp` : path;
      if (entry) renameSync(path, aside);
      // A run stopped mid-build left the tree registered as a worktree of its clone: unregistered too.
      else dropWorktree(path, false);
      removed.push(name);
      deletes.push(rm(aside, { recursive: true, force: true }).catch(() => undefined));
    } catch {
      // gone already, or not ours to remove
    }
  }
  return { removed, deleted: Promise.all(deletes).then(() => undefined) };
}

/** pruneCache, said in a progress line; the deletes go on while the gate runs (a tree can be hundreds of MB). */
export function tidy(root: string, keep: string, log: (line: string) => void): void {
  const { removed } = pruneCache(root, keep);
  if (removed.length)
    log(
      `removed ${removed.length} cache ${removed.length === 1 ? 'entry' : 'entries'} (unused for ${CACHE_UNUSED_DAYS} days, or left half made by a run that was stopped): ${removed.join(', ')}`,
    );
}

/**
 * Drops the worktree's registration in the clone (its admin folder, and the `.git` file that
 * points there), and the tree itself when `remove`. Synchronous, so it also runs on exit. Only
 * this worktree's own registration is touched (`git worktree prune` would tidy others' too).
 */
export function dropWorktree(tree: string, remove: boolean): void {
  const link = join(tree, '.git');
  try {
    const admin = /^gitdir: (.+)$/m.exec(readFileSync(link, 'utf8'))?.[1]?.trim();
    if (admin && /[\\/]worktrees[\\/][^\\/]+$/.test(admin)) rmSync(resolve(tree, admin), { recursive: true, force: true });
    rmSync(link, { force: true });
  } catch {
    // not checked out yet, or already dropped
  }
  if (remove) rmSync(tree, { recursive: true, force: true });
}
