import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileAtomic, WriteError, writeNewFileAtomic } from '../../src/base/atomic-write.js';
import { failureText } from '../../src/commands/io.js';
import { ROOT } from '../helpers/cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'mcp-gate-atomic-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let n = 0;
const freshDir = (): string => {
  const dir = join(scratch, `d${++n}`);
  mkdirSync(dir);
  return dir;
};

describe('writing a file atomically', () => {
  it('creates the folder, writes the text, and leaves nothing else behind', () => {
    const dir = freshDir();
    writeFileAtomic(join(dir, 'a/b/out.json'), '{"x":1}\n');
    expect(readFileSync(join(dir, 'a/b/out.json'), 'utf8')).toBe('{"x":1}\n');
    expect(readdirSync(join(dir, 'a/b'))).toEqual(['out.json']);
  });

  it('replaces what is there only when the check passes, and removes the temp file either way', () => {
    const dir = freshDir();
    const target = join(dir, 'cases.yaml');
    writeFileSync(target, 'old\n');
    const seen: string[] = [];
    expect(() =>
      writeFileAtomic(target, 'new\n', {
        tempExtension: '.yaml',
        check: (temp) => {
          seen.push(temp);
          throw new Error('does not load');
        },
      }),
    ).toThrow('does not load');
    expect(seen[0]).toMatch(/\.tmp\.yaml$/);
    expect(readFileSync(target, 'utf8')).toBe('old\n');
    expect(readdirSync(dir)).toEqual(['cases.yaml']);
    writeFileAtomic(target, 'new\n', { check: () => undefined });
    expect(readFileSync(target, 'utf8')).toBe('new\n');
    expect(readdirSync(dir)).toEqual(['cases.yaml']);
  });

  it('takes a writer for text written a piece at a time; a writer that fails leaves the old file and no temp', () => {
    const dir = freshDir();
    const target = join(dir, 'report.json');
    writeFileAtomic(target, (fd) => ['{"a":', '1}\n'].forEach((piece) => writeFileSync(fd, piece)));
    expect(readFileSync(target, 'utf8')).toBe('{"a":1}\n');
    expect(() =>
      writeFileAtomic(target, (fd) => {
        writeFileSync(fd, '{"half');
        throw new Error('the pieces stopped');
      }),
    ).toThrow('the pieces stopped');
    expect(readFileSync(target, 'utf8')).toBe('{"a":1}\n');
    expect(readdirSync(dir)).toEqual(['report.json']);
  });

  it('never replaces a file when publishing a new one: it asks for the next name', () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'r.json'), 'first\n');
    const names = ['r.json', 'r-2.json'];
    const written = writeNewFileAtomic(() => join(dir, names.shift()!), 'second\n');
    expect(written).toBe(join(dir, 'r-2.json'));
    expect(readFileSync(join(dir, 'r.json'), 'utf8')).toBe('first\n');
    expect(readFileSync(written, 'utf8')).toBe('second\n');
    expect(readdirSync(dir).sort()).toEqual(['r-2.json', 'r.json']);
  });

  it('names the path and the reason when a part of the path is a file, and says so without a stack', () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'file'), 'kept\n');
    const target = join(dir, 'file/out.json');
    let error: unknown;
    try {
      writeFileAtomic(target, 'x');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WriteError);
    expect((error as WriteError).message).toBe(`cannot write ${target}: a part of its path is a file, not a directory`);
    expect(failureText(error)).toBe(`mcp-gate: cannot write ${target}: a part of its path is a file, not a directory`);
    expect(readdirSync(dir)).toEqual(['file']);
  });
});

/**
 * A directory the writer may not write to. Root writes anywhere, so as root the write runs in a child
 * process as the unprivileged user nobody, on the module bundled as it is in src/.
 */
describe('writing into a directory that is not writable', () => {
  const asRoot = process.getuid?.() === 0;
  const attempt = (target: string, replace: boolean): { message: string } => {
    if (!asRoot) {
      try {
        if (replace) writeFileAtomic(target, 'new\n');
        else writeNewFileAtomic(() => target, 'new\n');
        return { message: 'written' };
      } catch (error) {
        return { message: error instanceof WriteError ? error.message : `not a WriteError: ${String(error)}` };
      }
    }
    const bundle = join(scratch, 'atomic-write.cjs');
    buildSync({
      entryPoints: [join(ROOT, 'src/base/atomic-write.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: bundle,
      logLevel: 'silent',
    });
    chmodSync(scratch, 0o755);
    const script = `const w = require(${JSON.stringify(bundle)}); const t = ${JSON.stringify(target)};
      try { ${replace ? 'w.writeFileAtomic(t, "new\\n")' : 'w.writeNewFileAtomic(() => t, "new\\n")'}; console.log("written"); }
      catch (e) { console.log(e instanceof w.WriteError ? e.message : "not a WriteError: " + e); }`;
    const child = spawnSync(process.execPath, ['-e', script], { uid: 65534, gid: 65534, encoding: 'utf8' });
    return { message: child.stdout.trim() || child.stderr };
  };

  for (const replace of [true, false]) {
    it(`gives a clear error, loses nothing and leaves no temp file (${replace ? 'replacing' : 'a new name'})`, () => {
      const dir = freshDir();
      writeFileSync(join(dir, 'kept.json'), 'old\n');
      const target = join(dir, replace ? 'kept.json' : 'new.json');
      chmodSync(dir, 0o555);
      try {
        expect(attempt(target, replace).message).toBe(`cannot write ${target}: its directory is not writable (permission denied)`);
      } finally {
        chmodSync(dir, 0o755);
      }
      expect(readdirSync(dir)).toEqual(['kept.json']);
      expect(readFileSync(join(dir, 'kept.json'), 'utf8')).toBe('old\n');
    });
  }
});
