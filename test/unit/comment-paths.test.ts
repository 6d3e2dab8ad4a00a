import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/**
 * A comment in src/ that names a file names one that exists, as docs-links.test.ts holds the
 * documents' links: a file moved or renamed takes every comment that points at it along, or this
 * test names the comment left behind. A source or a page (`.ts`, `.mjs`, `.md`, ...) is read from
 * the repository's top (`src/x/y.ts`, `docs/x.md`), from src/ (`x/y.ts`, the house's short form), or
 * from the comment's folder or one above it; a data file (`.json`, `.yaml`) only where it is named
 * from the top of the repository (`schemas/report.schema.json`), since a comment also names a user's
 * files (`.vscode/mcp.json`). Built files (`dist/`) are not in the tree, and are skipped.
 */
const SRC = join(ROOT, 'src');

function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Every comment of a module, once each, read by the TypeScript parser (so no `//` inside a string counts). */
function commentsOf(text: string): string[] {
  const source = ts.createSourceFile('module.ts', text, ts.ScriptTarget.Latest, true);
  const seen = new Map<number, string>();
  const take = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) seen.set(range.pos, text.slice(range.pos, range.end));
  };
  const visit = (node: ts.Node): void => {
    take(ts.getLeadingCommentRanges(text, node.getFullStart()));
    take(ts.getTrailingCommentRanges(text, node.getEnd()));
    node.getChildren(source).forEach(visit);
  };
  visit(source);
  return [...seen.values()];
}

/** A source file's comments, parsed once for the tests that read them. */
const parsed = new Map<string, string[]>();
function commentsIn(file: string): string[] {
  let comments = parsed.get(file);
  if (!comments) parsed.set(file, (comments = commentsOf(readFileSync(file, 'utf8'))));
  return comments;
}

/** Paths a comment names: folders and a file, not part of a URL or a longer path. */
function pathsIn(comment: string): string[] {
  const named = [...comment.matchAll(/(?<![\w.@:/~-])((?:[\w.-]+\/)+[\w.-]+\.(?:ts|mts|mjs|cjs|md|json|yaml|yml))(?![\w/])/g)];
  return named.map((m) => m[1]!).filter((path) => !/\.(json|ya?ml)$/.test(path) || /^(schemas|docs|test|examples|bench)\//.test(path));
}

function resolves(path: string, file: string): boolean {
  if (/(^|\/)dist\//.test(path)) return true;
  const folders: string[] = [];
  for (let folder = dirname(file); folder.startsWith(SRC); folder = dirname(folder)) folders.push(folder);
  return [ROOT, ...folders].some((folder) => existsSync(join(folder, path)));
}

describe('the comments of src/', () => {
  it('name only files that exist', () => {
    const missing = sources().flatMap((file) =>
      commentsIn(file)
        .flatMap(pathsIn)
        .filter((path) => !resolves(path, file))
        .map((path) => `${relative(ROOT, file)}: ${path}`),
    );
    expect(missing).toEqual([]);
  });

  it('cite no issue of a tracker the repository does not hold: the reasoning is named by its doc page', () => {
    const cites = sources().flatMap((file) =>
      commentsIn(file)
        .flatMap((comment) => [...comment.matchAll(/\bissues? \d+[^\n]{0,12}/gi)].map((m) => m[0]))
        .map((citation) => `${relative(ROOT, file)}: ${citation}`),
    );
    expect(cites).toEqual([]);
  });

  it('are read for paths in comments only, and not in URLs', () => {
    const text = [
      '// see config/source.ts and src/report/read.ts, or docs/verdicts.md and schemas/report.schema.json, not .vscode/mcp.json',
      "const url = 'https://example.com/a/b.ts'; // https://example.com/c/d.ts",
      "const code = 'x/y.ts';",
      '/** The cache, dist/packed/mcp-gate.cjs. */',
    ].join('\n');
    expect(commentsOf(text).flatMap(pathsIn)).toEqual([
      'config/source.ts',
      'src/report/read.ts',
      'docs/verdicts.md',
      'schemas/report.schema.json',
      'dist/packed/mcp-gate.cjs',
    ]);
    expect(resolves('config/source.ts', join(SRC, 'cases/load.ts'))).toBe(false);
    expect(resolves('input/source.ts', join(SRC, 'cases/load.ts'))).toBe(true);
    expect(resolves('client/index.ts', join(SRC, 'report/html/client/dom.ts'))).toBe(true);
  });
});

/**
 * The same rule for everything written beside the code: comments, test names, fixtures and the
 * bench's notes. A test name is a string, so the whole text is read, not its comments only. JSON
 * is recorded data (published servers' listings, reports, the bench's results), quoted as served.
 */
const WRITTEN = ['src', 'test', 'bench', 'scripts'];
const CITE = /\bissues? #?\d+\b/gi;

function written(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.name.startsWith('.') || entry.name === 'node_modules') return [];
    return entry.isDirectory() ? written(path) : entry.name.endsWith('.json') ? [] : [path];
  });
}

function citesIn(text: string): string[] {
  return text.split('\n').flatMap((line, i) => [...line.matchAll(CITE)].map((m) => `${i + 1}: ${m[0]}`));
}

describe('the files of src/, test/, bench/ and scripts/', () => {
  it('cite no issue of a tracker the repository does not hold: the reasoning is named by its doc page', () => {
    const files = WRITTEN.flatMap((top) => written(join(ROOT, top)));
    expect(files.length).toBeGreaterThan(400);
    const cites = files.flatMap((file) => citesIn(readFileSync(file, 'utf8')).map((cite) => `${relative(ROOT, file)}:${cite}`));
    expect(cites).toEqual([]);
  });

  it("read a citation in any of its forms, and not a path, an identifier or another project's tracker", () => {
    // The numbers go in through n(), so this file holds no citation of its own.
    const n = (x: number) => String(x);
    const text = [
      `// the large-server goal (Issue ${n(32)}'s goal)`,
      `describe('removal after deprecation (issue ${n(30)} §3)', () => {`,
      `  * issues ${n(26)} and ${n(27)}, and issue #${n(18)}`,
      `const url = '/repos/o/r/issues/${n(7)}/comments'; const issueId = ${n(12)};`,
      `// typescript-sdk#${n(1943)}, ignfab/geocontext#${n(185)}, "issue details"`,
    ].join('\n');
    expect(citesIn(text)).toEqual([`1: Issue ${n(32)}`, `2: issue ${n(30)}`, `3: issues ${n(26)}`, `3: issue #${n(18)}`]);
  });
});
