import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { cacheRoot } from './git-cache.js';

/**
 * What a server's mount namespace holds before the server runs (the namespace routes of
 * containment.ts), then how the server is started without the power to change it. Run as root in
 * the namespace (real root, root of a user namespace, or through sudo), as
 * `sh -c SETUP mcp-gate-setup [pin=DIR...] [ro=DIR] [rw=DIR] [user=UID:GID] -- COMMAND...`:
 *
 * - `ro=DIR`: the cache of built git baselines, bound onto itself read-only. `rw=DIR` (a baseline's
 *   build, its own tree only) is bound writable on top before that.
 * - `pin=DIR`: each folder above it that the server could move (its parent is writable to the
 *   server's user), bound onto itself. A mount point cannot be renamed in its namespace (EBUSY), so
 *   no server can move `~/.cache` aside and plant a tree where another server looks for one. Every
 *   server needs them in its own namespace: one renamed elsewhere would drop them there.
 * - The working folder is entered again by its path: the one inherited still points at the
 *   filesystem as it was before the mounts, writable.
 * - Then `setpriv`: no capabilities (none in the bounding set, so none after any exec) and
 *   `no_new_privs` (a setuid `sudo` or `mount` does not elevate), as UID:GID on the sudo route.
 *   Mounts a server copies into a user namespace of its own are locked by the kernel: it cannot
 *   remount, unmount or bind around them there either.
 *
 * docs/security.md, "When things go wrong", holds the table of what each route keeps.
 */
export const NAMESPACE_SETUP = [
  'set -e; o=',
  'while [ "$1" != -- ]; do case $1 in',
  '  pin=*) mount --rbind -- "${1#pin=}" "${1#pin=}" ;;',
  '  ro=*) r=${1#ro=}; mount --rbind -- "$r" "$r" ;;',
  '  rw=*) mount --bind -- "${1#rw=}" "${1#rw=}" ;;',
  '  user=*) u=${1#user=}; o="--reuid=${u%:*} --regid=${u#*:} --clear-groups" ;;',
  'esac; shift; done; shift',
  // Checked, not assumed: access(2) says EROFS on a read-only mount, even to root.
  'if [ -n "${r-}" ]; then mount -o remount,bind,ro -- "$r"; if [ -w "$r" ]; then echo "mcp-gate: $r is still writable" >&2; exit 125; fi; fi',
  'd=$(pwd -P; echo .); cd -P -- "${d%?.}"',
  'exec setpriv $o --no-new-privs --bounding-set=-all --inh-caps=-all -- "$@"',
].join('\n');

/**
 * The setup's arguments for a server started with this gate environment: the cache of built git
 * baselines read-only and the folders above it pinned, when the cache exists (a run with a git
 * baseline builds it before any server starts). `writable` is a build's own tree in the cache.
 */
export function setupArgs(gateEnv: NodeJS.ProcessEnv, writable: string | null): string[] {
  const root = protectedRoot(gateEnv);
  if (!root) return [];
  const pins: string[] = [];
  for (let dir = dirname(root); dir !== dirname(dir); dir = dirname(dir)) if (movable(dir)) pins.unshift(`pin=${dir}`);
  return [...pins, `ro=${root}`, ...(writable ? [`rw=${writable}`] : [])];
}

/**
 * Whether a server could rename `dir`: its parent is writable to the server's user, which is the
 * gate's own on every route (root, without capabilities, on `unshare-root`). Group-writable counts,
 * whatever the groups: a pin too many costs a millisecond, one too few a tree.
 */
function movable(dir: string): boolean {
  try {
    const parent = statSync(dirname(dir));
    return (parent.uid === (process.getuid?.() ?? -1) && (parent.mode & 0o200) !== 0) || (parent.mode & 0o022) !== 0;
  } catch {
    return true;
  }
}

/** The cache folder as the kernel names it (no symbolic link a server could swap), or null when there is none yet. */
function protectedRoot(gateEnv: NodeJS.ProcessEnv): string | null {
  const root = cacheRoot(gateEnv);
  if (!existsSync(root)) return null;
  try {
    return realpathSync(root);
  } catch {
    return null;
  }
}
