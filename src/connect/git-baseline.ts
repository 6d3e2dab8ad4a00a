import { cpSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { InputError } from '../base/problems.js';
import type { GateConfig, GitSource, Profile } from '../config/types.js';
import { containment } from './containment.js';
import { baselineCommit, builtDigest, builtTree, cloneTop, fileAtRef, BaselineBuildError } from './git-tree.js';
import { changedPaths, digestOf, MANIFEST, readManifest, treeManifest } from './tree-digest.js';
import { MARK } from './git-cache.js';

export { BaselineBuildError } from './git-tree.js';

/**
 * The pair's profiles that come from a git ref, made ready to start: a live profile's tree is
 * checked out and built (or found in the cache) and its folders point there; a `git:REF:FILE`
 * snapshot is read. `base` is the change's base (--policy-base; the Action's pull request base),
 * the ref of a git profile that names none. Other profiles are returned as they are.
 */
export async function checkoutGitProfiles(
  config: GateConfig,
  base: string | undefined,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
  cwd: string,
): Promise<GateConfig> {
  const names = [...new Set([config.baseline, config.candidate])];
  const wanted = names.filter((name) => config.profiles[name]?.git);
  if (!wanted.length) return config;
  const folder = config.file ? dirname(config.file) : cwd;
  const profiles = { ...config.profiles };
  for (const name of wanted) profiles[name] = await checkout(profiles[name]!, folder, base, env, log, config, cwd);
  return { ...config, profiles };
}

/**
 * One profile made ready to start, for a command that starts a single profile (`snapshot`,
 * `record`): a git profile from its ref's tree (its ref, or a ref-less one from the clone's HEAD,
 * since these commands have no change's base), any other as it is.
 */
export async function readyProfile(
  config: GateConfig,
  name: string,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
  cwd: string,
): Promise<Profile> {
  const profile = config.profiles[name]!;
  if (!profile.git) return profile;
  const folder = config.file ? dirname(config.file) : cwd;
  return checkout(profile, folder, 'HEAD', env, log, config, cwd);
}

async function checkout(
  profile: Profile,
  folder: string,
  base: string | undefined,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
  config: GateConfig,
  cwd: string,
): Promise<Profile> {
  if (profile.transport === 'snapshot') {
    const { ref, file } = profile.git!;
    const { text, commit } = fileAtRef(ref, file, folder);
    log(`profile "${profile.name}": snapshot ${file} read at ${commit.slice(0, 12)} (${ref})`);
    return { ...profile, text };
  }
  const git = profile.git!;
  const ref = git.ref ?? base;
  if (!ref) {
    const shown = config.file ? relative(cwd, config.file) || config.file : 'gate.config.yaml';
    throw new InputError([
      {
        file: shown,
        line: null,
        path: `profiles.${profile.name}.git.ref`,
        message:
          "is not set, and this run has no change's base to default to (--policy-base REF; the Action passes the pull request's base). Set git.ref, e.g. origin/main, or pass --policy-base",
      },
    ]);
  }
  const top = cloneTop(folder);
  const { commit, how } = baselineCommit(ref, top);
  log(`profile "${profile.name}": git ${how} is ${commit.slice(0, 12)}`);
  const tree = await builtTree(top, commit, git.build, env, log, config.timeouts.runMs);
  log(
    `profile "${profile.name}": ${tree.cached ? 'built tree from the cache' : 'built and cached'}: ${tree.dir} (key: commit ${commit.slice(0, 12)} + build command)`,
  );
  const inTree = (dir: string, field: string): string => {
    const rel = relative(top, dir);
    if (rel.startsWith('..') || isAbsolute(rel))
      throw new BaselineBuildError(
        `profile "${profile.name}": ${field} ${dir} is outside the clone ${top}, so it has no counterpart in the tree of ${ref}; make it relative to the config file's folder`,
      );
    return join(tree.dir, rel);
  };
  const source: GitSource = { ...git, ref, commit, tree: tree.dir };
  if (profile.transport === 'stdio') return { ...profile, cwd: inTree(profile.cwd, 'cwd'), git: source };
  if (!profile.launch) return profile;
  return { ...profile, launch: { ...profile.launch, cwd: inTree(profile.launch.cwd, 'cwd') }, git: source };
}

/**
 * The pair's git profiles made ready to start, just before they do. Where each server gets a mount
 * namespace, the cache is read-only to every server (namespace-setup.ts) and the trees are used
 * where they are. Elsewhere nothing keeps a server of the same user out of a shared tree, so each
 * profile runs from a copy of its own, made now and checked against the digest of the tree this run
 * built or found whole: a tree changed since (by a server of an earlier pair of the bundle) is
 * exit 3. `remove` deletes the copies once the pair's servers have ended.
 */
export function placeTrees(
  config: GateConfig,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): { config: GateConfig; remove: () => void } {
  const copies: string[] = [];
  const remove = () => copies.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  const live = [...new Set([config.baseline, config.candidate])].map((name) => config.profiles[name]!);
  const built = live.filter((profile) => profile.transport !== 'snapshot' && profile.git?.tree);
  if (!built.length || containment(env).baselineTrees === 'read-only') return { config, remove };
  const profiles = { ...config.profiles };
  try {
    for (const profile of built) {
      if (profile.transport === 'snapshot' || !profile.git?.tree) continue;
      const { name } = profile;
      const tree = profile.git.tree;
      const copy = join(mkdtempSync(join(tmpdir(), 'mcp-gate-tree-')), 'tree');
      copies.push(dirname(copy));
      cpSync(tree, copy, { recursive: true, verbatimSymlinks: true, mode: constants.COPYFILE_FICLONE });
      const expected = builtDigest(tree);
      const manifest = treeManifest(copy, [MARK, MANIFEST]);
      if (expected && digestOf(manifest) !== expected) {
        const { paths } = changedPaths(readManifest(tree), manifest);
        throw new BaselineBuildError(
          `profile "${name}": the built tree ${tree} changed during this run (${paths.join(', ') || 'its manifest'}): a process of this user wrote to it after it was built or checked. This machine gives servers no mount namespace, so they can write the cache (docs/security.md)`,
        );
      }
      const moved = (dir: string) => join(copy, relative(tree, dir));
      profiles[name] =
        profile.transport === 'stdio'
          ? { ...profile, cwd: moved(profile.cwd) }
          : { ...profile, ...(profile.launch && { launch: { ...profile.launch, cwd: moved(profile.launch.cwd) } }) };
      log(`profile "${name}": runs from a copy of its built tree, ${copy} (no mount namespace here to make the cache read-only)`);
    }
  } catch (error) {
    remove();
    throw error;
  }
  return { config: { ...config, profiles }, remove };
}
