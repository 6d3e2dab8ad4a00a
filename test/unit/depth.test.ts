import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalJsonWithin } from '../../src/contract/canonical.js';
import { depthOf, MAX_DEFINITION_DEPTH } from '../../src/contract/normalize.js';
import { property, runs } from '../helpers/property.js';

// depthOf bounds every later walk (hash, diff, audit, report) of definitions and results: it must
// measure exactly up to its limit, and stay within the stack for values nested far past it.

/** The plain recursive measure, for values that fit on the stack. */
const reference = (value: unknown): number =>
  value !== null && typeof value === 'object' ? 1 + Math.max(0, ...Object.values(value).map(reference)) : 0;

const nested = (levels: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

describe('depthOf', () => {
  property('is the nesting depth of any JSON value, capped at its limit', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 12 }), fc.integer({ min: 1, max: 14 }), (value, limit) => {
        expect(depthOf(value, limit)).toBe(Math.min(reference(value), limit));
      }),
      { numRuns: runs() },
    );
  });

  it('stops at the limit for a value nested 200,000 levels, without overflowing the stack', () => {
    expect(depthOf(nested(200_000), MAX_DEFINITION_DEPTH + 1)).toBe(MAX_DEFINITION_DEPTH + 1);
    expect(depthOf(nested(MAX_DEFINITION_DEPTH), MAX_DEFINITION_DEPTH + 1)).toBe(MAX_DEFINITION_DEPTH);
    expect(depthOf({ a: [1, { b: null }], c: 'x' }, 10)).toBe(3);
  });
});

describe('canonicalJsonWithin: one walk that measures and sorts a definition', () => {
  property('is canonicalJson for a value within the limit, and null exactly when depthOf says it is deeper', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 12 }), fc.integer({ min: 1, max: 14 }), (value, limit) => {
        const within = canonicalJsonWithin(value, limit);
        if (depthOf(value, limit + 1) > limit) expect(within).toBeNull();
        else expect(within).toBe(canonicalJson(value));
      }),
      { numRuns: runs() },
    );
  });

  it('at the bound of a tool definition, and for a value nested 200,000 levels, without overflowing the stack', () => {
    expect(canonicalJsonWithin(nested(MAX_DEFINITION_DEPTH), MAX_DEFINITION_DEPTH)).toBe(canonicalJson(nested(MAX_DEFINITION_DEPTH)));
    expect(canonicalJsonWithin(nested(MAX_DEFINITION_DEPTH + 1), MAX_DEFINITION_DEPTH)).toBeNull();
    expect(canonicalJsonWithin(nested(200_000), MAX_DEFINITION_DEPTH)).toBeNull();
    // A deep value under a key canonicalJson leaves out is measured all the same, as depthOf measures it.
    const hidden = JSON.parse(`{"__proto__": ${JSON.stringify(nested(MAX_DEFINITION_DEPTH))}}`) as unknown;
    expect(depthOf(hidden, MAX_DEFINITION_DEPTH + 1)).toBe(MAX_DEFINITION_DEPTH + 1);
    expect(canonicalJsonWithin(hidden, MAX_DEFINITION_DEPTH)).toBeNull();
  });
});
