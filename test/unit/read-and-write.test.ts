import { describe, expect, it } from 'vitest';
import { parseSource } from '../../src/input/source.js';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonInert } from '../../src/base/inert.js';
import { redactShapes } from '../../src/base/secrets.js';
import { reportText, writeReport } from '../../src/report/write.js';
import { batched, bytesWithout, jsonPieces } from '../../src/report/json-pieces.js';
import { render } from '../../src/report/formats.js';
import type { Report } from '../../src/report/types.js';

// What is read and written stays exact: config and dataset files read by the YAML 1.2 core schema,
// with duplicate keys refused and an alias limit; the report is JSON whatever its line breaks.

describe('reading YAML', () => {
  it('reads scalars by the YAML 1.2 core schema, as the yaml package does', () => {
    const text = 'a: 2026-12-31\nb: 0o17\nc: 1_000\nd: yes\ne: ~\nf: .inf\ng: "007"\nh: 0x1F\n';
    const parsed = parseSource(text, 'x.yaml');
    expect(parsed.ok && parsed.source.value).toMatchObject({ a: '2026-12-31', d: 'yes', e: null });
  });

  it('still gives the line of a problem, and refuses a repeated key on its line', () => {
    const parsed = parseSource('version: 1\nprofiles:\n  a: { command: node }\nbaseline: a\n', 'g.yaml');
    expect(parsed.ok && parsed.source.lineOf(['profiles', 'a', 'command'])).toBe(3);
    const broken = parseSource('a: 1\na: 2\n', 'dup.yaml');
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.problems[0]).toMatchObject({ file: 'dup.yaml', line: 2 });
  });

  it('reads JSON (fast for files mcp-gate wrote), still finds lines, and refuses a repeated key in files people write', () => {
    const text = '{\n  "version": 1,\n  "profiles": {\n    "a": { "command": "node" }\n  }\n}\n';
    for (const parsed of [parseSource(text, 'g.json'), parseSource(text, 'g.json', { jsonFastPath: true })]) {
      expect(parsed.ok && parsed.source.value).toEqual({ version: 1, profiles: { a: { command: 'node' } } });
      expect(parsed.ok && parsed.source.lineOf(['profiles', 'a', 'command'])).toBe(4);
    }
    const repeated = parseSource('{\n  "version": 1,\n  "version": 2\n}\n', 'g.json');
    expect(!repeated.ok && repeated.problems[0]).toMatchObject({ file: 'g.json', line: 3 });
  });

  it('gives syntax errors their 1-based line, and refuses an alias inside its own anchor', () => {
    const broken = parseSource('version: 1\nprofiles:\n  a: [1, 2\nbaseline: a\n', 'g.yaml');
    expect(!broken.ok && broken.problems[0]?.line).toBeGreaterThanOrEqual(3);
    expect(!broken.ok && broken.problems[0]?.message).toMatch(/^syntax: /);
    const loop = parseSource('a: &a [1, *a]\n', 'loop.yaml');
    expect(!loop.ok && loop.problems[0]?.message).toContain('must not make a value contain itself');
  });

  it('reads a file with a %YAML directive through the yaml package, which refuses what it does not know', () => {
    const parsed = parseSource('%YAML 1.2\n---\na: 1\n', 'd.yaml');
    expect(parsed.ok && parsed.source.value).toEqual({ a: 1 });
    const unknown = parseSource('%FOO bar\n---\na: 1\n', 'd.yaml');
    expect(unknown.ok).toBe(false);
  });

  it('stops alias expansion bombs at the alias limit', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...Array.from(
        { length: 9 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(', ')}]`,
      ),
    ].join('\n');
    const parsed = parseSource(bomb, 'bomb.yaml');
    expect(parsed.ok).toBe(false);
  });
});

describe('writing the report', () => {
  const report = {
    schemaVersion: 1,
    baseline: {
      profile: 'b',
      tools: [{ name: 'a', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } }, { name: 'b' }],
      note: 'x',
    },
    candidate: { profile: 'c', tools: [] },
    diff: { changes: [{ tool: 'mcp-gate:tools:1', path: '"mcp-gate:tools:0"' }] },
  } as unknown as Report;

  it('is the same JSON, one line per tool definition, indented elsewhere', () => {
    const text = reportText(report);
    expect(JSON.parse(text)).toEqual(report);
    const lines = text.split('\n');
    expect(lines.filter((l) => l.trimStart().startsWith('{"name":'))).toHaveLength(2);
    expect(lines).toContain('  "schemaVersion": 1,');
    expect(text.endsWith('}\n')).toBe(true);
  });

  // Written piece by piece (docs/security.md, "The report is at most 32 MiB"): the file, tool lines
  // shared with the trim, must be the whole text made inert and redacted at once.
  it('writes, in pieces, exactly the whole text made inert and redacted, for lists long enough to be cut', () => {
    const token = `ghp_${'A'.repeat(36)}`;
    const tool = (i: number) => ({
      name: `t${i}`,
      description: `${i % 7 === 0 ? `uses ${token}` : 'plain'}${i % 5 === 0 ? ' line\u2028sep' : ''} ${'x'.repeat(i % 300)}`,
    });
    const large = {
      ...report,
      startedAt: '2026-11-28T00:00:00.000Z',
      baseline: { ...report.baseline, tools: Array.from({ length: 3000 }, (_, i) => tool(i)) },
      candidate: { ...report.candidate, tools: Array.from({ length: 1000 }, (_, i) => tool(i + 1)) },
    } as unknown as Report;
    const lines = (tools: unknown[], indent: string) =>
      tools.length ? `[\n${tools.map((t) => `${indent}  ${JSON.stringify(t)}`).join(',\n')}\n${indent}]` : '[]';
    const whole = JSON.stringify(
      { ...large, baseline: { ...large.baseline, tools: 'B' }, candidate: { ...large.candidate, tools: 'C' } },
      null,
      2,
    )
      .replace('"B"', lines(large.baseline.tools, '    '))
      .replace('"C"', lines(large.candidate.tools, '    '));
    const expected = `${redactShapes(jsonInert(whole))}\n`;
    expect(expected).not.toContain(token);
    expect(expected).toContain('\\u2028');
    expect(reportText(large)).toBe(expected);
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-write-'));
    try {
      writeReport(dir, large);
      const files = readdirSync(dir);
      expect(files).toHaveLength(1);
      expect(readFileSync(join(dir, files[0]!), 'utf8')).toBe(expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // The long lists go out an entry at a time (docs/security.md, "The report is at most 32 MiB"), and
  // the text is the same as written whole.
  const long = {
    ...report,
    baseline: {
      ...report.baseline,
      features: {
        capabilities: {},
        prompts: [{ name: 'p', arguments: [{ name: 'a', required: true }] }, { name: 'q\u2028"mcp-gate:list:0"' }],
        resources: [],
        resourceTemplates: null,
        hash: 'h',
      },
    },
    diff: { summary: {}, changes: [...report.diff.changes, { tool: 'x', before: { nested: [1, { deep: [] }] }, after: null }] },
    audit: { findings: [{ message: '\u202e ghp_' + 'a'.repeat(36) }] },
  } as unknown as Report;

  it('in pieces: the json format is JSON.stringify(report, null, 2), made inert, whatever a string holds', () => {
    const pieces = [...jsonPieces(long, { toolsOnOneLine: false })];
    expect(pieces.length).toBeGreaterThan(8); // the lists came an entry at a time
    expect(pieces.join('')).toBe(render('report', long, 'json', {}));
    expect(pieces.join('')).toContain('\\u2028');
  });

  it('in pieces: the saved report keeps tools on one line and the rest indented as a whole write would', () => {
    const text = reportText(long);
    expect(JSON.parse(text)).toEqual({ ...long, audit: { findings: [{ message: '\u202e ***' }] } });
    const indented = render('report', { ...long, baseline: { ...long.baseline, tools: [] } }, 'json', {});
    const saved = reportText({ ...long, baseline: { ...long.baseline, tools: [] } });
    expect(saved).toBe(indented.replace(/ghp_a+/, '***'));
  });

  it('measures the report without its server lists from the pieces the writer then takes, to the byte', () => {
    const emptied = {
      ...long,
      baseline: { ...long.baseline, tools: [], features: { ...long.baseline.features!, prompts: [], resources: [] } },
    };
    const expected = Buffer.byteLength(JSON.stringify({ ...emptied, candidate: { ...long.candidate, tools: [] } }, null, 2));
    const lists = new Set([
      long.baseline.tools,
      long.candidate.tools,
      long.baseline.features!.prompts!,
      long.baseline.features!.resources!,
    ]);
    expect(bytesWithout(long, lists)).toBe(expected);
    // The writer takes what the measure made, and writes the same text as a whole write would.
    expect([...jsonPieces(long, { toolsOnOneLine: false })].join('')).toBe(render('report', long, 'json', {}));
    expect(bytesWithout(long, new Set())).toBe(Buffer.byteLength(JSON.stringify(long, null, 2)));
  });

  it('batches pieces in order, never splitting one', () => {
    const pieces = Array.from({ length: 3000 }, (_, i) => `${i}:${'x'.repeat(1000)}`);
    const batches = [...batched(pieces)];
    expect(batches.length).toBeGreaterThan(1);
    expect(batches.join('')).toBe(pieces.join(''));
  });
});
