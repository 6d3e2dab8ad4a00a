import { describe, expect, it } from 'vitest';
import type { Observation } from '../../src/cases/types.js';
import { resultDrift } from '../../src/audit/result-drift.js';

const observed = (result: unknown, volatile?: string[]): Observation => ({
  caseId: 'C',
  tool: 't',
  args: {},
  result,
  resultBytes: 0,
  volatile,
});
const codes = (before: unknown, after: unknown, volatile?: string[]) =>
  [...resultDrift([observed(before)], [observed(after, volatile)])].map((f) => [f.code, f.path]);
const text = (value: string) => ({ content: [{ type: 'text', text: value }] });

describe('comparing two live results of one probe', () => {
  it('says nothing when only values differ, or a null stands in for a value', () => {
    expect(codes({ structuredContent: { a: 1, b: 'x', c: null } }, { structuredContent: { a: 2, b: 'y', c: 'now' } })).toEqual([]);
  });

  it('JSON text that became prose is text for the model: not a finding', () => {
    expect(codes(text('{"a":1}'), text('a is 1'))).toEqual([]);
  });

  it('structuredContent that is gone is, even when the text still carries the data', () => {
    expect(codes({ structuredContent: { a: 1 }, ...text('{"a":1}') }, text('{"a":1}'))).toEqual([
      ['result-content-moved', '/structuredContent'],
    ]);
  });

  it('a text block gone, the same data left in structuredContent alone, is the data moved (published likec4 1.59.2, FP17)', () => {
    const data = { structuredContent: { id: 'shop.api' } };
    expect(codes({ ...data, ...text('{"id":"shop.api"}') }, { ...data, content: [] })).toEqual([['result-content-moved', '/content']]);
    expect(
      codes({ ...data, ...text('Element shop.api') }, { ...data, content: [{ type: 'image', data: '', mimeType: 'image/png' }] }),
    ).toEqual([['result-content-moved', '/content']]);
    expect(codes({ ...data, ...text('{"id":"shop.api"}') }, { ...data, ...text('{"id": "shop.api"}') })).toEqual([]);
    expect(codes({ ...data, content: [] }, { ...data, content: [] })).toEqual([]);
  });

  it('escapes keys in pointers, and honours * in volatile pointers', () => {
    expect(codes({ structuredContent: { 'a/b': 1, 'c~d': 2 } }, { structuredContent: {} })).toEqual([
      ['result-field-removed', '/structuredContent/a~1b'],
      ['result-field-removed', '/structuredContent/c~0d'],
    ]);
    expect(
      codes({ structuredContent: { items: [{ at: 1, id: 'x' }] } }, { structuredContent: { items: [{ at: 'x' }] } }, ['/items/*/at']),
    ).toEqual([['result-field-removed', '/structuredContent/items/0/id']]);
  });

  it('stays bounded on a result nested far deeper than anyone reads', () => {
    let deep: unknown = { leaf: 1 };
    for (let i = 0; i < 5_000; i++) deep = { next: deep };
    expect(codes({ structuredContent: deep }, { structuredContent: deep })).toEqual([]);
  });
});
