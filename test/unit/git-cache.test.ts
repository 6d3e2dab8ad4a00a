import { existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CACHE_UNUSED_DAYS, pruneCache } from '../../src/connect/git-cache.js';
import { changedPaths, digestOf, treeManifest } from '../../src/connect/tree-digest.js';

// The cache of built git baselines (docs/baselines.md, "The cache") is tidied by each run that uses
// it: a tree can be hundreds of megabytes, and one is built per baseline commit. Times are set on
// the files, never read from the clock: `now` is given.

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 29);

/** A cache folder, and ways to put in it an entry last used, or a folder made, some days before NOW. */
function cache() {
  const root = mkdtempSync(join(tmpdir(), 'mcp-gate-cache-'));
  const daysAgo = (path: string, days: number) => {
    const when = new Date(NOW - days * DAY);
    utimesSync(path, when, when);
  };
  return {
    root,
    entry: (name: string, usedDaysAgo: number) => {
      mkdirSync(join(root, name));
      writeFileSync(join(root, name, '.mcp-gate-built'), 'commit\nbuild\n');
      daysAgo(join(root, name, '.mcp-gate-built'), usedDaysAgo);
      return join(root, name);
    },
    folder: (name: string, madeDaysAgo: number) => {
      mkdirSync(join(root, name));
      daysAgo(join(root, name), madeDaysAgo);
    },
  };
}

describe('the git baseline cache', () => {
  it('loses entries unused for 30 days and half-made trees older than a day; keeps the one in use and what is not its own', async () => {
    const c = cache();
    const inUse = c.entry('aaaaaaaaaaaa-0000000000000001', 400);
    c.entry('bbbbbbbbbbbb-0000000000000002', CACHE_UNUSED_DAYS + 1);
    c.entry('cccccccccccc-0000000000000003', CACHE_UNUSED_DAYS - 1);
    c.folder('dddddddddddd-0000000000000004.4242.tmp', 2);
    c.folder('eeeeeeeeeeee-0000000000000005.4343.tmp', 0.5); // a run building it now
    c.folder('notes', 400); // not the gate's
    mkdirSync(join(c.root, 'ffffffffffff-0000000000000006')); // no mark: not an entry the gate finished

    const { removed, deleted } = pruneCache(c.root, inUse, NOW);
    expect(removed).toEqual(['bbbbbbbbbbbb-0000000000000002', 'dddddddddddd-0000000000000004.4242.tmp']);
    // The stale entry was moved aside at once, so no run can take it for whole while it is deleted.
    expect(readdirSync(c.root)).not.toContain('bbbbbbbbbbbb-0000000000000002');
    await deleted;
    expect(readdirSync(c.root).sort()).toEqual([
      'aaaaaaaaaaaa-0000000000000001',
      'cccccccccccc-0000000000000003',
      'eeeeeeeeeeee-0000000000000005.4343.tmp',
      'ffffffffffff-0000000000000006',
      'notes',
    ]);
  });

  it('a cache folder that is not there is nothing to tidy', () => {
    const root = mkdtempSync(join(tmpdir(), 'mcp-gate-cache-'));
    expect(pruneCache(join(root, 'git-baselines'), '', NOW).removed).toEqual([]);
  });

  it("a half-made tree is unregistered from its clone's worktrees as it is removed", async () => {
    const c = cache();
    const admin = join(mkdtempSync(join(tmpdir(), 'mcp-gate-clone-')), '.git', 'worktrees', 'dddddddddddd-0000000000000004.4242.tmp');
    mkdirSync(admin, { recursive: true });
    const tree = join(c.root, 'dddddddddddd-0000000000000004.4242.tmp');
    c.folder('dddddddddddd-0000000000000004.4242.tmp', 2);
    writeFileSync(join(tree, '.git'), `gitdir: ${admin}\n`);
    utimesSync(tree, new Date(NOW - 2 * DAY), new Date(NOW - 2 * DAY));
    const { removed, deleted } = pruneCache(c.root, '', NOW);
    await deleted;
    expect(removed).toEqual(['dddddddddddd-0000000000000004.4242.tmp']);
    expect(existsSync(admin)).toBe(false);
    expect(readdirSync(c.root)).toEqual([]);
  });

  it('an entry moved aside whose delete stopped partway is removed by the next tidy', async () => {
    const c = cache();
    // What a delete that stopped leaves: the entry under its half-made name, with its old times.
    c.folder(`aaaaaaaaaaaa-0000000000000001.${process.pid + 1}.tmp`, CACHE_UNUSED_DAYS + 5);
    const { removed, deleted } = pruneCache(c.root, '', NOW);
    await deleted;
    expect(removed).toEqual([`aaaaaaaaaaaa-0000000000000001.${process.pid + 1}.tmp`]);
    expect(readdirSync(c.root)).toEqual([]);
  });
});

describe("a built tree's manifest", () => {
  it('covers every file a build made, names links without following them, and says which paths changed', () => {
    const tree = mkdtempSync(join(tmpdir(), 'mcp-gate-manifest-'));
    mkdirSync(join(tree, 'dist'));
    writeFileSync(join(tree, 'dist/server.mjs'), 'one');
    writeFileSync(join(tree, 'odd\tname\n'), 'x');
    symlinkSync('/etc/passwd', join(tree, 'outside'));
    writeFileSync(join(tree, '.mcp-gate-built'), 'ignored');
    const before = treeManifest(tree, ['.mcp-gate-built']);
    expect(
      before
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('\t').slice(0, 2)),
    ).toEqual([
      ['"dist"', 'dir'],
      ['"dist/server.mjs"', 'file'],
      ['"odd\\tname\\n"', 'file'],
      ['"outside"', 'link'],
    ]);
    expect(before).toContain('\t"/etc/passwd"');
    writeFileSync(join(tree, 'dist/server.mjs'), 'two');
    writeFileSync(join(tree, 'dist/extra.mjs'), 'new');
    writeFileSync(join(tree, '.mcp-gate-built'), 'still ignored');
    const after = treeManifest(tree, ['.mcp-gate-built']);
    expect(digestOf(after)).not.toBe(digestOf(before));
    expect(changedPaths(before, after)).toEqual({ paths: ['dist/extra.mjs', 'dist/server.mjs'], count: 2 });
    expect(changedPaths(before, before)).toEqual({ paths: [], count: 0 });
  });
});
