import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { probeArguments } from '../../src/record/probe-args.js';
import type { Recording } from '../../src/record/record.js';
import { mergeDataset, renderDataset } from '../../src/record/write.js';

describe('probe arguments from an input schema', () => {
  const cases: [string, unknown, unknown][] = [
    ['no schema: no arguments', undefined, {}],
    [
      'required properties only',
      { type: 'object', properties: { q: { type: 'string' }, limit: { type: 'integer' } }, required: ['q'] },
      { q: 'example' },
    ],
    [
      'examples, then default, const and enum, in that order',
      {
        type: 'object',
        properties: {
          a: { type: 'string', examples: ['refund'], default: 'x' },
          b: { type: 'integer', default: 10 },
          c: { const: 'v1' },
          d: { enum: [null, 'open', 'closed'] },
        },
        required: ['a', 'b', 'c', 'd'],
      },
      { a: 'refund', b: 10, c: 'v1', d: 'open' },
    ],
    [
      'formats and bounds',
      {
        type: 'object',
        properties: {
          when: { type: 'string', format: 'date-time' },
          id: { type: 'string', format: 'uuid' },
          n: { type: 'integer', minimum: 3, maximum: 9 },
          x: { type: 'number', exclusiveMinimum: 0 },
          code: { type: 'string', minLength: 10 },
          tags: { type: 'array', items: { type: 'string' }, minItems: 2 },
          flag: { type: ['boolean', 'null'] },
        },
        required: ['when', 'id', 'n', 'x', 'code', 'tags', 'flag'],
      },
      {
        when: '2026-01-01T00:00:00Z',
        id: '00000000-0000-4000-8000-000000000000',
        n: 3,
        x: 1,
        code: 'examplexxx',
        tags: ['example', 'example'],
        flag: false,
      },
    ],
    [
      "a small valid number, never the bound of zod's .int()",
      {
        type: 'object',
        properties: {
          id: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
          below: { type: 'integer', maximum: -5 },
          zero: { type: 'number', minimum: 0, maximum: 0 },
          ratio: { type: 'number', maximum: 0.5 },
        },
        required: ['id', 'below', 'zero', 'ratio'],
      },
      { id: 1, below: -5, zero: 0, ratio: 0.5 },
    ],
    [
      '$ref, anyOf with null, allOf, nested objects',
      {
        type: 'object',
        $defs: { Filter: { type: 'object', properties: { field: { enum: ['status'] } }, required: ['field'] } },
        properties: {
          filter: { $ref: '#/$defs/Filter' },
          page: { anyOf: [{ type: 'null' }, { type: 'integer', minimum: 1 }] },
          both: {
            allOf: [
              { type: 'object', properties: { a: { type: 'boolean' } }, required: ['a'] },
              { properties: { b: { const: 2 } }, required: ['b'] },
            ],
          },
        },
        required: ['filter', 'page', 'both'],
      },
      { filter: { field: 'status' }, page: 1, both: { a: false, b: 2 } },
    ],
  ];
  it.each(cases)('%s', (_, schema, expected) => expect(probeArguments(schema)).toEqual({ ok: true, value: expected }));

  it('says why when it cannot build them', () => {
    expect(probeArguments({ type: 'object', properties: { code: { type: 'string', pattern: '^[A-Z]{3}$' } }, required: ['code'] })).toEqual(
      {
        ok: false,
        reason: '/code must match /^[A-Z]{3}$/ and has no example',
      },
    );
    expect(probeArguments({ type: 'object', properties: { x: { $ref: 'https://example.com/s.json' } }, required: ['x'] })).toEqual({
      ok: false,
      reason: '/x: $ref https://example.com/s.json points outside the schema',
    });
    const loop = { type: 'object', properties: { next: { $ref: '#' } }, required: ['next'] };
    expect(probeArguments(loop)).toMatchObject({ ok: false, reason: expect.stringContaining('nests deeper than 16 levels') });
  });
});

describe('a recording written as a dataset', () => {
  const recorded = (tool: string, extra: Partial<Recording> = {}): Recording => ({
    tool,
    args: { q: 'x' },
    argsFrom: 'schema',
    skipped: null,
    expect: { isError: false, resultBudgetBytes: 1024, structured: { ok: true } },
    volatile: [],
    notes: [],
    ...extra,
  });
  const header = { schemaPath: '../schemas/dataset.schema.json', profile: 'baseline', server: 'svc 1.0', role: 'recorded' };

  it("keeps a hostile tool's text in its comment: a name with a newline cannot write YAML", () => {
    const evil = 'Evil\nrole: hijacked\n# ';
    const text = renderDataset(
      [
        recorded(evil, { volatile: ['/a\nb: c'] }),
        recorded('Drop.Table', { skipped: `not recorded: Drop.Table\n- id: injected\n is not read-only`, expect: null }),
      ],
      { ...header, server: 'svc\nrole: x' },
    );
    const dataset = parse(text) as { role: string; cases: { id: string; requiredTools: { toolName: string }[] }[] };
    expect(dataset.role).toBe('recorded');
    expect(dataset.cases.map((c) => c.id)).toEqual([`recorded.${evil}`]);
    expect(dataset.cases[0]!.requiredTools[0]!.toolName).toBe(evil);
    for (const line of text.split('\n')) expect(line).toMatch(/^(#|role: recorded$|cases:$| {2}#| {2}- | {6}| {4}|$)/);
  });

  it('a second recording adds only tools without a case, even a commented-out one, and keeps the text before it', () => {
    const first = renderDataset([recorded('A'), recorded('B', { skipped: 'not recorded: B is not read-only', expect: null })], header);
    const edited = first.replace('userTask: Call A as recorded.', 'userTask: My own words.');
    const merged = mergeDataset(edited, [recorded('A'), recorded('B'), recorded('C')], 'd.yaml');
    expect(merged.added).toEqual(['C']);
    expect(merged.kept).toBe(1);
    expect(merged.text.startsWith(edited)).toBe(true);
    expect((parse(merged.text) as { cases: { id: string }[] }).cases.map((c) => c.id)).toEqual(['recorded.A', 'recorded.C']);
  });

  it('refuses to add to a file whose last key is not cases, and says how to fix it', () => {
    expect(() => mergeDataset('cases:\n  - id: x\n    userTask: t\nrole: r\n', [recorded('A')], 'd.yaml')).toThrow(
      'd.yaml: record appends new cases at the end of the file, so "cases" must be its last key; move it last, or write it anew with --force',
    );
  });
});
