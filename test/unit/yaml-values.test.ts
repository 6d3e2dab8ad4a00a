import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseSource, parseWithYamlPackage } from '../../src/input/source.js';
import { plainYamlValue } from '../../src/input/yaml-values.js';
import { fastLines, jsonTree, yamlTree } from '../../src/input/source-lines.js';
import { ROOT } from '../helpers/cli.js';
import { buildContract } from '../../src/contract/normalize.js';
import { toSnapshot } from '../../src/contract/snapshot.js';
import { syntheticDataset } from '../fixtures/synthetic/project.mjs';
import { property, runs, sweep } from '../helpers/property.js';

/**
 * js-yaml reads a file's value first (src/input/yaml-values.ts); the yaml package stays the reader
 * of record. For every text, either the fast reading gives up, or the yaml package reads the same
 * text without a problem and to the same value: same types, same -0, same key order, same prototype.
 */
function agree(text: string): 'fast' | 'handed back' {
  const fast = plainYamlValue(text);
  if (fast === undefined) return 'handed back';
  const record = parseWithYamlPackage(text, 'x.yaml');
  if (!record.ok) throw new Error(`js-yaml read a text the yaml package refuses (${record.problems[0]?.message}):\n${text}`);
  if (!isDeepStrictEqual(fast.value, record.source.value) || !sameKeyOrder(fast.value, record.source.value)) {
    throw new Error(`the readers disagree on:\n${text}\njs-yaml: ${show(fast.value)}\nyaml:    ${show(record.source.value)}`);
  }
  sameLines(
    text,
    fast.value,
    fastLines(text, () => yamlTree(text, fast.events, Infinity)),
    record.source.lineOf,
  );
  return 'fast';
}

/** Every path of a value (the first `max`), and paths that are not there. */
function* pathsOf(value: unknown, at: (string | number)[] = []): Generator<(string | number)[]> {
  yield at;
  yield [...at, 'not-a-key'];
  if (Array.isArray(value)) for (const [i, item] of value.entries()) yield* pathsOf(item, [...at, i]);
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) yield* pathsOf(v, [...at, k]);
}

let linesAnswered = 0;
let linesAsked = 0;

/** The fast lines are the yaml package's wherever they answer (they leave the rest to it). */
function sameLines(
  text: string,
  value: unknown,
  quick: ReturnType<typeof fastLines>,
  record: (p: (string | number)[]) => number | null,
): void {
  let n = 0;
  for (const path of pathsOf(value)) {
    if (n++ > 3000) break;
    const line = quick(path);
    linesAsked++;
    if (line === undefined) continue;
    linesAnswered++;
    if (line !== record(path))
      throw new Error(`lines disagree at ${JSON.stringify(path)}: ${line} fast, ${record(path)} yaml, in:\n${text}`);
  }
}

function sameKeyOrder(a: unknown, b: unknown): boolean {
  if (Array.isArray(a)) return a.every((item, i) => sameKeyOrder(item, (b as unknown[])[i]));
  if (a === null || typeof a !== 'object') return true;
  const keys = Object.keys(a);
  return isDeepStrictEqual(keys, Object.keys(b as object)) && keys.every((k) => sameKeyOrder((a as never)[k], (b as never)[k]));
}

const show = (value: unknown) => JSON.stringify(value, (_, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v));

describe('the fast reading of YAML values', () => {
  sweep('reads every YAML file in the repository, and the 1,000-case dataset, to the yaml package value', () => {
    const files = execFileSync('git', ['ls-files', '*.yaml', '*.yml'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(files.length).toBeGreaterThan(25);
    const ways = files.map((file) => [file, agree(readFileSync(join(ROOT, file), 'utf8'))]);
    // Every config and dataset takes the fast way; a workflow's shell lines may end in `\` and be handed back.
    expect(ways.filter(([file, way]) => /(config|cases)\.yaml$/.test(file!) && way === 'handed back')).toEqual([]);
    expect(ways.filter(([, way]) => way === 'fast').length).toBeGreaterThan(25);
    expect(agree(syntheticDataset(100, 1000))).toBe('fast');
    // The fast lines answer nearly every path that is there (half the paths asked are not).
    expect(linesAnswered / linesAsked).toBeGreaterThan(0.45);
  });

  sweep("finds a JSON snapshot's lines as the yaml package does, to the depth it keeps", () => {
    // The recorded tools/list answers of public servers, as they came (compact or indented), and as snapshots.
    const files = execFileSync('git', ['ls-files', 'test/corpus/*.json'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(files.length).toBeGreaterThan(20);
    const recorded = files.map((f) => readFileSync(join(ROOT, f), 'utf8'));
    const snapshots = recorded.map((text) => {
      const listed = JSON.parse(text) as { tools?: unknown[]; result?: { tools?: unknown[] } };
      return toSnapshot(
        buildContract({ name: 's', version: '1', protocolVersion: null, instructions: null }, listed.tools ?? listed.result?.tools ?? [], {
          pages: 1,
          durationMs: 0,
          errors: [],
        }),
      );
    });
    const texts = [...recorded, ...snapshots, '{"a":[1,{"b":"\\"x\\"","c":[[[]]]}],"d" : { } }', '[]', '"s"'];
    for (const text of texts) {
      const record = parseWithYamlPackage(text, 'x.json');
      if (!record.ok) throw new Error('not JSON to the yaml package');
      const before = linesAnswered;
      sameLines(
        text,
        JSON.parse(text),
        fastLines(text, () => jsonTree(text, Infinity)),
        record.source.lineOf,
      );
      if (text.length > 100) expect(linesAnswered).toBeGreaterThan(before);
    }
    const read = parseSource('{\n  "tools": [\n    { "name": "a" },\n    {\n      "name": "b"\n    }\n  ]\n}\n', 's.json', {
      jsonFastPath: true,
    });
    expect(read.ok && [read.source.lineOf(['tools', 1, 'name']), read.source.lineOf(['tools', 1, 'missing'])]).toEqual([5, 4]);
  });

  it('agrees on each plain scalar form of the YAML 1.2 core schema, and on keys that are not strings', () => {
    // Each plain scalar form the core schema resolves, and near misses that stay text.
    const scalars = [
      ...'~ null Null NULL nULL true True TRUE tRUE false False FALSE yes no on off y'.split(' '),
      ...'0 -0 +0 007 -12 +12 0o17 -0o17 0o8 0x1F 0X1F -0x1F 0xg 0b101 1_000 12345678901234567890'.split(' '),
      ...'1.5 -1.5 +.5 .5 1. -1. 1.0 1e3 1E3 1e+3 1.5e-3 .5e3 e3 1e .inf -.Inf +.INF .nan .NaN .NAN -.nan .Nan'.split(' '),
      ...'2026-12-31 12:30:00 1:20 0. . - + -. 1..2 1,000 0x 0o Infinity NaN << ='.split(' '),
      '',
      '9'.repeat(400),
      '\u00e9t\u00e9',
      '\u{1f600}',
    ];
    for (const s of scalars) {
      if (s !== '-') expect(agree(`value: ${s}\n`), s).toBe('fast');
      expect(agree(`- ${s}\n`), s).toBe('fast');
      agree(`${s}: value\n`);
      agree(`{ ${s}: [${s}] }\n`);
    }
    for (const quoted of ['"1"', "'true'", '"~"', '""', "''", '"-0"']) expect(agree(`a: ${quoted}\nb: [${quoted}]\n`)).toBe('fast');
    expect(agree('1: a\ntrue: b\n~: c\n0x10: d\n-0: e\n1.50: f\n.inf: g\n')).toBe('fast');
    // Keys that are different values to the yaml package but the same string are handed back.
    for (const text of ['1: a\n"1": b\n', '~: a\n"": b\n', '.nan: a\n.NaN: b\n', 'a: 1\na: 2\n', '{a: 1, a: 2}\n'])
      expect(agree(text)).toBe('handed back');
  });

  it('agrees on quoting, block scalars, folding, flow collections and comments', () => {
    // Plain YAML, which the fast reading must read (or it is not doing its work).
    const plain = [
      'a: "tab\\there\\nnew \\u00e9 \\x41 \\U0001F600 \\\\ \\" \\/ \\0 \\a \\b \\e \\f \\r \\v \\N \\_ \\L \\P"\n',
      "a: 'it''s # not a comment'\nb: \"x\" # comment\n",
      'a: |\n  one\n  two\n\n  three\n\nb: >\n  folded\n  text\n\n  para\n    more\n  end\n',
      'a: |-\n  strip\n\nb: |+\n  keep\n\nc: >-\n  x\n\n',
      'a: "quoted\n  over lines\n\n  with a blank"\nb: \'single\n  line two\'\n',
      'a: {b: [1, 2, {c: d}], e: "f", g: }\nh: [ ]\ni: { }\nj: [a, b,]\n',
      'a:\n- 1\n- - 2\n  - 3\n- b: c\n  d: e\n',
      '---\n- x\n',
      'a: b # trailing\n# full line\n\n\n',
      'a: "x"\r\nb: y\r\n',
      'a:\n  - b\n   - c\n',
      'key with spaces: v\n"quoted key": v\n? complex\n: v\n',
      '__proto__: 1\nconstructor: 2\ntoString: 3\nhasOwnProperty: 4\n',
      '<<: {a: 1}\nb: 2\n',
      'if: always() && x != \'\'\nrun: "[ ! -f a ] || b"\n',
      `${'k'.repeat(900)}: v\n`,
    ];
    for (const text of plain) expect(agree(text), text).toBe('fast');
    // Broken YAML, and YAML outside the plain subset: either reader may read it, and they must agree.
    const others = [
      'a: plain text\n  that continues\n  # not a comment\n  on lines\nb: next\n',
      'c: >2\n    indented\nd: |1\n  x\n',
      '|1-\n :\n',
      'a:\tb\nc: [\t1,\t2]\n',
      'a: b: c\n',
      'a: [1, 2\n',
      `${'k'.repeat(1100)}: v\n`,
      `{${'k'.repeat(1100)}: v}\n`,
      'a: x#y\nb: x #y\nc: "x"#y\n',
      'a: @x\n',
      'a: `x`\n',
      'a: %x\n',
      'value: -\n',
      '- [a, b]: c\n',
      '{a: 1}: b\n',
      'a: &x [1]\nb: *x\n',
      'a: &anchor 1\n',
      '&x: 1\n',
      ': a: b\n',
      '- : x: y\n',
      '...\n- a\n',
      '---\na: 1\n...\n',
      ' ---\n',
      'a: "x\\\n\n  y"\n',
      '%|\n---\n',
      '\t0\n',
      'a: !!str 1\n',
      'a: ! 1\n',
      'a: !=\n',
      '%YAML 1.1\n---\na: yes\n',
      '--- a\n--- b\n',
      '',
      '# only a comment\n',
      '\ufeffa: 1\n',
      'a: "\u2028"\n',
      'a: \u0085b\n',
      'a: "\u0007"\n',
      `${'['.repeat(150)}${']'.repeat(150)}\n`,
      `${Array.from({ length: 120 }, (_, i) => `${' '.repeat(i)}k:`).join('\n')} v\n`,
    ];
    for (const text of others) agree(text);
  });

  property('agrees on generated values written in every YAML style, and on valid files with random edits', () => {
    const unit = fc.constantFrom(
      ...':-[]{}"\'#&*!|>%@`\n\t ,?\\~.0123'.split(''),
      'a',
      'b',
      '1',
      'true',
      'null',
      '0x',
      '.5',
      '\u00e9',
      ' #',
    );
    const text = fc.string({ unit, maxLength: 12 });
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        tie('leaf'),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(text, tie('node'), { maxKeys: 4 }),
      ),
      leaf: fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null)),
    })).node;
    const style = fc.constantFrom('PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE', 'BLOCK_LITERAL', 'BLOCK_FOLDED') as fc.Arbitrary<'PLAIN'>;
    fc.assert(
      fc.property(value, style, fc.boolean(), (v, defaultStringType, flow) => {
        agree(stringify(v, { defaultStringType, defaultKeyType: 'PLAIN', collectionStyle: flow ? 'flow' : 'any', lineWidth: 20 }));
      }),
      { seed: 20261129, numRuns: runs(1500) },
    );
    const valid = readFileSync(join(ROOT, 'datasets/support-ops.cases.yaml'), 'utf8');
    const edited = fc.oneof(
      fc.tuple(fc.nat(valid.length), fc.nat(40)).map(([at, n]) => valid.slice(0, at) + valid.slice(at + n)),
      fc.tuple(fc.nat(valid.length), fc.string({ unit, maxLength: 8 })).map(([at, s]) => valid.slice(0, at) + s + valid.slice(at)),
    );
    fc.assert(
      fc.property(edited, (t) => {
        agree(t);
      }),
      { seed: 20261129, numRuns: runs(1500) },
    );
  });

  it('keeps the yaml package as the reader of record: its problems, its lines, its limits', () => {
    const repeated = parseSource('a: 1\nb:\n  c: 2\n  c: 3\n', 'dup.yaml');
    expect(!repeated.ok && repeated.problems[0]).toMatchObject({ file: 'dup.yaml', line: 4 });
    const read = parseSource('a: 1\nb:\n  c: [x, y]\n', 'ok.yaml');
    expect(read.ok && read.source.lineOf(['b', 'c', 1])).toBe(3);
  });
});
