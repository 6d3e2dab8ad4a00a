import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SideDirs } from '../../src/connect/side-dirs.js';
import { crashExcerpt, firstErrorLine } from '../../src/base/error-text.js';
import { isSecretValue, looksLikeToken } from '../../src/base/secrets.js';

describe("a side's own folders", () => {
  const realHome = () => {
    const home = mkdtempSync(join(tmpdir(), 'mcp-gate-real-home-'));
    writeFileSync(join(home, '.npmrc'), 'registry=x\n');
    mkdirSync(join(home, '.config/acme'), { recursive: true });
    writeFileSync(join(home, '.config/acme/settings'), 'original\n');
    return home;
  };

  it('makes nothing when the profile keeps the gate TMPDIR and HOME', () => {
    expect(SideDirs.create('candidate', { tmpdir: 'shared', home: { isolated: false } }, realHome())).toBeNull();
  });

  it('gives a fresh TMPDIR, and a HOME only when asked, with entries linked or copied; renew empties them; remove leaves the real HOME', () => {
    const home = realHome();
    const dirs = SideDirs.create(
      'baseline',
      { tmpdir: 'own', home: { isolated: true, link: ['.npmrc', '.kube'], copy: ['.config/acme'] } },
      home,
    )!;
    expect(dirs.env()).toEqual({ TMPDIR: dirs.tmp, TMP: dirs.tmp, TEMP: dirs.tmp, HOME: dirs.home, USERPROFILE: dirs.home });
    expect(lstatSync(join(dirs.home!, '.npmrc')).isSymbolicLink()).toBe(true);
    expect(lstatSync(join(dirs.home!, '.config/acme')).isDirectory()).toBe(true);
    expect(dirs.missing).toEqual(['.kube']);
    writeFileSync(join(dirs.tmp!, 'lock'), '1');
    dirs.renew();
    expect(existsSync(join(dirs.tmp!, 'lock'))).toBe(false);
    expect(existsSync(join(dirs.home!, '.npmrc'))).toBe(true);
    dirs.remove();
    expect(existsSync(dirs.tmp!)).toBe(false);
    expect(readFileSync(join(home, '.npmrc'), 'utf8')).toBe('registry=x\n');
    expect(readFileSync(join(home, '.config/acme/settings'), 'utf8')).toBe('original\n');
  });

  it('shares HOME by default', () => {
    const dirs = SideDirs.create('candidate', { tmpdir: 'own', home: { isolated: false } }, realHome())!;
    expect(Object.keys(dirs.env()).sort()).toEqual(['TEMP', 'TMP', 'TMPDIR']);
    dirs.remove();
  });
});

describe('what counts as a secret', () => {
  it('a value shaped like a token, not a folder, a url, a word or a version', () => {
    for (const token of ['k9XfQ2mZ7pL4vR8tW1yB6nC3', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', '3f9a1c77e2b94d0aa5c1b2e8d4f60a17'])
      expect(looksLikeToken(token), token).toBe(true);
    for (const plain of [
      '/home/runner/work/acme/node_modules',
      'https://api.example.com/v1',
      'production',
      '2026.7.4',
      'eu-west-1-availability-zone',
    ])
      expect(looksLikeToken(plain), plain).toBe(false);
  });

  it('a value by its name or by the profile declaring it', () => {
    expect(isSecretValue('ACME_API_KEY', 'short', [])).toBe(true);
    expect(isSecretValue('GITHUB_TOKEN', 'x', [])).toBe(true);
    expect(isSecretValue('DB_PASSWORD', 'x', [])).toBe(true);
    expect(isSecretValue('DATA_DIR', '/srv/data', [])).toBe(false);
    expect(isSecretValue('DATA_DIR', '/srv/data', ['DATA_DIR'])).toBe(true);
  });
});

describe("a crash's first error line", () => {
  const node = [
    'node:internal/modules/esm/resolve:873',
    '  throw new ERR_MODULE_NOT_FOUND(packageName, fileURLToPath(base), null);',
    '        ^',
    '',
    "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'pkce-challenge' imported from /app/dist/index.js",
    ...Array.from({ length: 8 }, (_, i) => `    at frame${i} (node:internal/x:${i})`),
    'Node.js v20.19.0',
  ].join('\n');

  it('is the line that states the error, before the lines that only mention one', () => {
    expect(firstErrorLine(node)).toBe(
      "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'pkce-challenge' imported from /app/dist/index.js",
    );
    expect(firstErrorLine('Traceback (most recent call last):\n  File "x.py", line 1\nModuleNotFoundError: No module named \'mcp\'')).toBe(
      "ModuleNotFoundError: No module named 'mcp'",
    );
    expect(firstErrorLine('listening\nready')).toBeNull();
  });

  it('leads the excerpt when the last lines do not hold it, and is not repeated when they do', () => {
    expect(crashExcerpt(node, 3)).toEqual([
      "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'pkce-challenge' imported from /app/dist/index.js",
      '...',
      '    at frame6 (node:internal/x:6)',
      '    at frame7 (node:internal/x:7)',
      'Node.js v20.19.0',
    ]);
    expect(crashExcerpt('starting\nError: boom\n', 5)).toEqual(['starting', 'Error: boom']);
  });
});
