import { describe, expect, it } from 'vitest';
import { checkExpectations, subsetMismatches } from '../../src/cases/expect.js';

describe('structured expectations are subset checks', () => {
  it('extra keys in the result are fine; missing or different values are not', () => {
    expect(subsetMismatches({ severity: 'P1' }, { severity: 'P1', incidentId: 'INC-1' })).toEqual([]);
    expect(subsetMismatches({ severity: 'P1' }, { severity: 'P3' })).toEqual([{ path: '/severity', expected: 'P1', actual: 'P3' }]);
    expect(subsetMismatches({ owner: { team: 'sre' } }, { owner: {} })).toEqual([
      { path: '/owner/team', expected: 'sre', actual: undefined },
    ]);
    expect(subsetMismatches({ a: 1 }, undefined)).toEqual([{ path: '', expected: { a: 1 }, actual: undefined }]);
    expect(subsetMismatches({ a: 1 }, [1])).toEqual([{ path: '', expected: { a: 1 }, actual: [1] }]);
  });

  it('names each place by its JSON pointer: array items by index, `/` and `~` in a key escaped as ~1 and ~0', () => {
    expect(subsetMismatches({ items: [{ id: 'a' }, { id: 'b' }] }, { items: [{ id: 'a' }, { id: 'c' }] })).toEqual([
      { path: '/items/1/id', expected: 'b', actual: 'c' },
    ]);
    expect(subsetMismatches({ items: [{ id: 'a' }] }, { items: [{ name: 'a' }] })).toEqual([
      { path: '/items/0/id', expected: 'a', actual: undefined },
    ]);
    expect(subsetMismatches({ 'a/b': { 'c~d': 1, 'e.f': 2 } }, { 'a/b': { 'c~d': 3, 'e.f': 4 } })).toEqual([
      { path: '/a~1b/c~0d', expected: 1, actual: 3 },
      { path: '/a~1b/e.f', expected: 2, actual: 4 },
    ]);
    expect(subsetMismatches({ m: [[1, 2]] }, { m: [[1, 3]] })).toEqual([{ path: '/m/0/1', expected: 2, actual: 3 }]);
    expect(subsetMismatches({ '': { '~1': 0 } }, { '': { '~1': 1 } })).toEqual([{ path: '//~01', expected: 0, actual: 1 }]);
  });

  it('in arrays every item counts, in order and in number; inside an item, extra keys are still fine', () => {
    expect(subsetMismatches({ tags: ['a'] }, { tags: ['a', 'b'] })).toEqual([{ path: '/tags/1', expected: undefined, actual: 'b' }]);
    expect(subsetMismatches({ tags: ['a', 'b'] }, { tags: ['a'] })).toEqual([{ path: '/tags/1', expected: 'b', actual: undefined }]);
    expect(subsetMismatches({ tags: ['a', 'b'] }, { tags: ['b', 'a'] }).map((m) => m.path)).toEqual(['/tags/0', '/tags/1']);
    expect(subsetMismatches({ items: [{ id: 'a' }] }, { items: [{ id: 'a', at: 'now' }] })).toEqual([]);
    expect(subsetMismatches({ a: {} }, { a: { x: 1 } })).toEqual([]);
  });

  it('a value of another type is a mismatch that quotes what the result holds', () => {
    expect(subsetMismatches({ o: { a: 1 } }, { o: [1] })).toEqual([{ path: '/o', expected: { a: 1 }, actual: [1] }]);
    expect(subsetMismatches({ o: [1] }, { o: { 0: 1 } })).toEqual([{ path: '/o', expected: [1], actual: { 0: 1 } }]);
    expect(subsetMismatches({ o: { a: 1 } }, { o: null })).toEqual([{ path: '/o', expected: { a: 1 }, actual: null }]);
    expect(subsetMismatches({ o: null }, { o: { a: 1 } })).toEqual([{ path: '/o', expected: null, actual: { a: 1 } }]);
    expect(subsetMismatches({ o: 1 }, { o: '1' })).toEqual([{ path: '/o', expected: 1, actual: '1' }]);
    expect(subsetMismatches({ o: null }, { o: null })).toEqual([]);
  });

  it('the failure message names the places by pointer, the whole result as /, and bounds what it quotes', () => {
    const check = (structured: Record<string, unknown>, got: unknown) =>
      checkExpectations({ toolName: 'T', expect: { structured } }, { isError: false, text: '', structured: got, resultBytes: 1 })[0]
        ?.message;
    expect(check({ items: [{ 'id/x': 'a' }] }, { items: [{ 'id/x': 'b' }] })).toBe(
      'structuredContent differs: /items/0/id~1x: expected "a", got "b"',
    );
    expect(check({ a: 1 }, undefined)).toBe('structuredContent differs: /: expected {"a":1}, got nothing');
    expect(check({ tags: [] }, { tags: [1, 2, 3, 4, 5] })).toBe(
      'structuredContent differs: /tags/0: expected nothing, got 1; /tags/1: expected nothing, got 2; /tags/2: expected nothing, got 3 (+2 more)',
    );
    expect(check({ a: 'x' }, { a: 'y'.repeat(10_000) })!.length).toBeLessThan(250);
  });

  it('volatile holds for expect.structured: a pid or a timestamp frozen by hand is not a failure', () => {
    const spec = {
      toolName: 'T',
      expect: { structured: { name: 'srv', pid: 41, items: [{ id: 'a', at: '2026-01-01T00:00:00Z' }] } },
      volatile: ['/pid', '/items/*/at'],
    };
    const observed = (name: string) => ({
      isError: false,
      text: '',
      structured: { name, pid: 97, items: [{ id: 'a', at: '2026-11-28T02:00:00Z' }] },
      resultBytes: 10,
    });
    expect(checkExpectations(spec, observed('srv'))).toEqual([]);
    expect(checkExpectations(spec, observed('other')).map((f) => f.check)).toEqual(['structured']);
    expect(checkExpectations({ ...spec, volatile: [] }, observed('srv')).map((f) => f.check)).toEqual(['structured']);
  });

  it('each expectation produces its own failure', () => {
    const failures = checkExpectations(
      {
        toolName: 'T',
        expectedOutputContains: 'severity P1',
        expect: { matches: 'INC-\\d+', structured: { severity: 'P1' }, resultBudgetBytes: 10 },
      },
      { isError: false, text: 'declared with severity P3', structured: { severity: 'P3' }, resultBytes: 200 },
    );
    expect(failures.map((f) => f.code)).toEqual(['expectation-failed', 'expectation-failed', 'expectation-failed', 'expectation-failed']);
    expect(failures.map((f) => f.message).join('\n')).toMatch(
      /contain "severity P1"[\s\S]*match \/INC-\\d\+\/[\s\S]*\/severity: expected "P1", got "P3"[\s\S]*200 bytes/,
    );
  });

  it('isError: a failing call is a probe failure unless the case expects an error', () => {
    expect(
      checkExpectations({ toolName: 'T' }, { isError: true, text: 'not found', structured: undefined, resultBytes: 10 }).map((f) => f.code),
    ).toEqual(['probe-failed']);
    expect(
      checkExpectations(
        { toolName: 'T', expect: { isError: true } },
        { isError: true, text: 'not found', structured: undefined, resultBytes: 10 },
      ),
    ).toEqual([]);
  });
});
