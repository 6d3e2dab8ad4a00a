import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/**
 * Imports run one way, in the order of the pipeline (docs/architecture.md): a module may import
 * from its own layer or an earlier one, never a later one, and no chain of imports comes back to
 * where it started. Two folders of one layer (diff and audit) may share code one way only: audit/
 * imports diff/, so diff/ imports nothing from audit/. The cases run before the audit that reads
 * their answers, so cases/ and record/ never import from audit/.
 */
const LAYERS: string[][] = [
  // Shared by all: plain data (finding codes), text safety, redaction, small helpers.
  ['findings', 'base'],
  // Reading the files a person writes (YAML and JSON, with their lines) and checking them against schemas/.
  ['input'],
  ['config'],
  ['connect'],
  ['contract'],
  // A pure search for instances one schema accepts and another refuses; the diff asks it.
  ['witness'],
  // Live calls: the cases replayed on each side, and `record` (which freezes answers as cases).
  ['cases', 'record'],
  // What the two contracts and the cases' answers show: the diff, and the audit of both sides.
  ['diff', 'audit'],
  ['decide', 'roles'],
  // The report and its formats (the bundle summary's among them); then the bundle, which summarises reports.
  ['report'],
  ['bundle'],
  ['pipeline', 'pipeline-sides', 'pipeline-in-turn', 'pipeline-deprecation'],
  ['commands', 'action'],
  ['cli', 'launch'],
];

const SRC = join(ROOT, 'src');

function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The folder (or top-level file) a module belongs to: its unit of layering. */
const unitOf = (file: string): string => relative(SRC, file).split('/')[0]!.replace(/\.ts$/, '');
const layerOf = (file: string): number => LAYERS.findIndex((layer) => layer.includes(unitOf(file)));

/** Every relative import of a module, static, type-only and dynamic alike, as a source path. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles.filter((i) => i.fileName.startsWith('.')).map((i) => resolve(dirname(file), i.fileName).replace(/\.js$/, '.ts'));
}

type Graph = Map<string, string[]>;
const graph: Graph = new Map(sources().map((file) => [file, importsOf(file)]));
const rel = (file: string): string => relative(SRC, file);

const upwardImports = (g: Graph): string[] =>
  [...g].flatMap(([file, targets]) => targets.filter((t) => layerOf(t) > layerOf(file)).map((t) => `${rel(file)} -> ${rel(t)}`));

/** Two folders of one layer that import each other, named by the first import each way. */
function mutualImports(g: Graph): string[] {
  const first = new Map<string, string>();
  for (const [file, targets] of g)
    for (const target of targets) {
      const way = `${unitOf(file)} -> ${unitOf(target)}`;
      if (unitOf(file) !== unitOf(target) && layerOf(file) === layerOf(target) && !first.has(way))
        first.set(way, `${rel(file)} -> ${rel(target)}`);
    }
  return [...first].flatMap(([way, one]) => {
    const [from, to] = way.split(' -> ') as [string, string];
    const back = first.get(`${to} -> ${from}`);
    return from < to && back ? [`${one} and ${back}`] : [];
  });
}

function cyclesIn(g: Graph): string[] {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    path.push(file);
    for (const target of g.get(file) ?? []) {
      if (state.get(target) === 'open') cycles.push([...path.slice(path.indexOf(target)), target].map(rel).join(' -> '));
      else if (!state.has(target)) visit(target);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of g.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

/**
 * Where a module reads the process environment: `process.env`, `process['env']`, or `env` taken out
 * of `process` by destructuring. Comments and strings do not count.
 */
function readsProcessEnv(text: string): boolean {
  const source = ts.createSourceFile('module.ts', text, ts.ScriptTarget.Latest, true);
  const isProcess = (node: ts.Node) => ts.isIdentifier(node) && node.text === 'process';
  const found = (node: ts.Node): boolean => {
    if (ts.isPropertyAccessExpression(node) && isProcess(node.expression) && node.name.text === 'env') return true;
    if (ts.isElementAccessExpression(node) && isProcess(node.expression) && ts.isStringLiteral(node.argumentExpression))
      if (node.argumentExpression.text === 'env') return true;
    if (ts.isVariableDeclaration(node) && node.initializer && isProcess(node.initializer) && ts.isObjectBindingPattern(node.name))
      if (node.name.elements.some((e) => (e.propertyName ?? e.name).getText(source) === 'env')) return true;
    return ts.forEachChild(node, found) ?? false;
  };
  return found(source);
}

/** The entry points read the environment once and hand it down (`CommandIO.env`, `RunOptions.env`). */
const ENTRY_POINTS = ['cli.ts', 'action/main.ts'];

describe('the environment', () => {
  it('is read from process.env by the entry points alone: connect/ and every stage take it as an input', () => {
    const readers = [...graph.keys()].filter((file) => readsProcessEnv(readFileSync(file, 'utf8'))).map(rel);
    expect(readers.filter((file) => !ENTRY_POINTS.includes(file))).toEqual([]);
  });

  it('sees process.env however it is read, and not in a comment or a string', () => {
    expect(readsProcessEnv('const home = process.env.HOME;')).toBe(true);
    expect(readsProcessEnv("spawn(cmd, { env: process['env'] });")).toBe(true);
    expect(readsProcessEnv('const { env, argv } = process;')).toBe(true);
    expect(readsProcessEnv('// never reads process.env\nconst s = "process.env";')).toBe(false);
    expect(readsProcessEnv('function f(env: NodeJS.ProcessEnv) { return env.HOME; }')).toBe(false);
  });
});

/**
 * A helper of its own that tests for a JSON object (not null, not an array): `isObject` in
 * base/json-object.ts is the one, so a fix to it (a prototype, a class instance) reaches every reader.
 */
const OWN_OBJECT_TEST =
  /\((\w+): unknown\)(?:: \1 is [^=]+)? =>\s*(?:\1 !== null && typeof \1 === 'object'|typeof \1 === 'object' && \1 !== null) && !Array\.isArray\(\1\)/;

describe('one helper for one question', () => {
  it('tests for a JSON object only through base/json-object.ts', () => {
    const own = [...graph.keys()].filter((file) => rel(file) !== 'base/json-object.ts' && OWN_OBJECT_TEST.test(readFileSync(file, 'utf8')));
    expect(own.map(rel)).toEqual([]);
    expect(
      OWN_OBJECT_TEST.test("const isRecord = (v: unknown): v is JsonSchema => v !== null && typeof v === 'object' && !Array.isArray(v);"),
    ).toBe(true);
  });
});

describe('the import layers of src/', () => {
  it('places every module in a layer', () => {
    expect([...graph.keys()].filter((file) => layerOf(file) < 0).map(rel)).toEqual([]);
  });

  it('never imports from a later stage', () => {
    expect(upwardImports(graph)).toEqual([]);
  });

  it('keeps the bottom layer, base/, to itself: it imports no other folder of src/', () => {
    const outward = [...graph]
      .filter(([file]) => unitOf(file) === 'base')
      .flatMap(([file, targets]) => targets.filter((t) => unitOf(t) !== 'base').map((t) => `${rel(file)} -> ${rel(t)}`));
    expect(outward).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(cyclesIn(graph)).toEqual([]);
  });

  it('lets two folders of one layer import each other one way only', () => {
    expect(mutualImports(graph)).toEqual([]);
  });

  it('sees an upward import and a cycle when there is one', () => {
    const at = (path: string) => join(SRC, path);
    const bad: Graph = new Map([
      [at('report/render.ts'), [at('commands/run.ts')]],
      [at('cases/names.ts'), [at('audit/references.ts')]],
      [at('record/record.ts'), [at('audit/result-drift.ts')]],
      [at('report/formats.ts'), [at('bundle/summary.ts')]],
      [at('diff/a.ts'), [at('diff/b.ts')]],
      [at('diff/b.ts'), [at('diff/a.ts')]],
      // No cycle of files, yet the two folders lean on each other.
      [at('audit/index.ts'), [at('diff/change.ts')]],
      [at('diff/schemas.ts'), [at('audit/schema-check.ts')]],
    ]);
    expect(upwardImports(bad)).toEqual([
      'report/render.ts -> commands/run.ts',
      'cases/names.ts -> audit/references.ts',
      'record/record.ts -> audit/result-drift.ts',
      'report/formats.ts -> bundle/summary.ts',
    ]);
    expect(cyclesIn(bad)).toEqual(['diff/a.ts -> diff/b.ts -> diff/a.ts']);
    expect(mutualImports(bad)).toEqual(['audit/index.ts -> diff/change.ts and diff/schemas.ts -> audit/schema-check.ts']);
    // Dynamic imports count: the command table loads each command with import().
    expect(importsOf(at('commands/table.ts')).map(rel)).toContain('commands/run.ts');
  });
});
