import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { naturalCompare } from '../../src/report/natural-order.js';
import { property, runs } from '../helpers/property.js';

describe('naturalCompare', () => {
  it('orders runs of digits by value, the rest by code unit', () => {
    const names = ['Action100', 'Action2', 'action1', 'Action10', 'Action007', 'Action7', 'Domain10.Action1', 'Domain9.Action1', 'Action'];
    expect([...names].sort(naturalCompare)).toEqual([
      'Action',
      'Action2',
      'Action7',
      'Action007',
      'Action10',
      'Action100',
      'Domain9.Action1',
      'Domain10.Action1',
      'action1',
    ]);
    expect(naturalCompare('x99999999999999999999', 'x100000000000000000000')).toBeLessThan(0);
  });

  property('is a total order: antisymmetric, and zero only for equal strings', () => {
    const name = fc.stringMatching(/^[a-c0-9.]{0,8}$/);
    fc.assert(
      fc.property(name, name, (a, b) => {
        expect(Math.sign(naturalCompare(a, b)) + Math.sign(naturalCompare(b, a))).toBe(0);
        expect(naturalCompare(a, b) === 0).toBe(a === b);
      }),
      { numRuns: runs() },
    );
    fc.assert(
      fc.property(name, name, name, (a, b, c) => {
        if (naturalCompare(a, b) <= 0 && naturalCompare(b, c) <= 0) expect(naturalCompare(a, c)).toBeLessThanOrEqual(0);
      }),
      { numRuns: runs() },
    );
  });
});
