import { describe, expect, it } from 'vitest';
import { checkExpectations, subsetMismatches } from '../../src/cases/expect.js';

describe('structured expectations are subset checks', () => {
  it('extra keys in the result are fine; missing or different values are not', () => {
    expect(subsetMismatches({ severity: 'P1' }, { severity: 'P1', incidentId: 'INC-1' })).toEqual([]);
    expect(subsetMismatches({ severity: 'P1' }, { severity: 'P3' })).toEqual([{ path: '$.severity', expected: 'P1', actual: 'P3' }]);
    expect(subsetMismatches({ owner: { team: 'sre' } }, { owner: {} })).toEqual([
      { path: '$.owner.team', expected: 'sre', actual: undefined },
    ]);
    expect(subsetMismatches({ tags: ['a'] }, { tags: ['a', 'b'] })).toHaveLength(1);
    expect(subsetMismatches({ a: 1 }, undefined)).toEqual([{ path: '$', expected: { a: 1 }, actual: undefined }]);
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
      /contain "severity P1"[\s\S]*match \/INC-\\d\+\/[\s\S]*\$\.severity: expected "P1", got "P3"[\s\S]*200 bytes/,
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
