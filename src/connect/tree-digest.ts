import { createHash } from 'node:crypto';
import { closeSync, lstatSync, openSync, readdirSync, readFileSync, readlinkSync, readSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What a built git baseline holds, file by file, so that a tree used again can be told from one
 * that was changed since it was built: the sources and what the build made (`dist/`,
 * `node_modules/`), which `git ls-files` would not cover. One line per entry, sorted by path:
 * the path (as JSON), its kind, its permission bits, and the SHA-256 of a file's bytes or the
 * target of a link (never followed), apart by tabs (which JSON escapes). docs/baselines.md, "The cache", says what this stops.
 */
export const MANIFEST = '.mcp-gate-manifest';

const CHUNK = 1 << 20;

function fileHash(path: string, buffer: Buffer): string {
  const hash = createHash('sha256');
  const fd = openSync(path, 'r');
  try {
    for (let read = readSync(fd, buffer, 0, CHUNK, null); read > 0; read = readSync(fd, buffer, 0, CHUNK, null))
      hash.update(buffer.subarray(0, read));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** The manifest of the tree at `dir`, leaving out the top-level names in `skip` (the cache's own files). */
export function treeManifest(dir: string, skip: readonly string[]): string {
  const lines: string[] = [];
  const buffer = Buffer.allocUnsafe(CHUNK);
  const walk = (rel: string) => {
    const names = readdirSync(join(dir, rel)).sort();
    for (const name of names) {
      const path = rel ? `${rel}/${name}` : name;
      if (!rel && skip.includes(name)) continue;
      const full = join(dir, path);
      const stat = lstatSync(full);
      const mode = (stat.mode & 0o7777).toString(8);
      const line = (kind: string, what = '') => lines.push(`${JSON.stringify(path)}\t${kind}\t${mode}\t${what}`);
      if (stat.isSymbolicLink()) line('link', JSON.stringify(readlinkSync(full)));
      else if (stat.isDirectory()) {
        line('dir');
        walk(path);
      } else if (stat.isFile()) line('file', fileHash(full, buffer));
      else line('other');
    }
  };
  walk('');
  return lines.join('\n') + '\n';
}

export const digestOf = (manifest: string): string => createHash('sha256').update(manifest).digest('hex');

/** Writes the tree's manifest into it, and returns its digest. */
export function writeManifest(dir: string, skip: readonly string[]): string {
  const manifest = treeManifest(dir, [...skip, MANIFEST]);
  writeFileSync(join(dir, MANIFEST), manifest);
  return digestOf(manifest);
}

/** The manifest a tree's build wrote into it; empty when there is none (a tree of an older build of the gate). */
export function readManifest(dir: string): string {
  try {
    return readFileSync(join(dir, MANIFEST), 'utf8');
  } catch {
    return '';
  }
}

/** The paths whose lines differ between two manifests (added, removed or changed), the first `max` of them, and how many in all. */
export function changedPaths(before: string, after: string, max = 5): { paths: string[]; count: number } {
  const index = (manifest: string) =>
    new Map(
      manifest
        .split('\n')
        .filter(Boolean)
        .map((line) => [line.split('\t')[0]!, line]),
    );
  const [was, now] = [index(before), index(after)];
  const changed = [...new Set([...was.keys(), ...now.keys()])].filter((path) => was.get(path) !== now.get(path)).sort();
  return { paths: changed.slice(0, max).map((path) => JSON.parse(path) as string), count: changed.length };
}
