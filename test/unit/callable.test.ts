import { describe, expect, it } from 'vitest';
import { callRefusal, hintContradiction } from '../../src/contract/callable.js';
import { lookalikeGroups, lookalikeKey } from '../../src/contract/lookalike.js';
import type { ContractTool } from '../../src/contract/types.js';

/** The one rule record and case probes share: which tools the gate never calls, whatever the consent. */
const tool = (name: string, annotations: Record<string, unknown> | null) => ({ name, annotations }) as ContractTool;
const listed = (duplicates?: string[]) => ({ discovery: { pages: 1, durationMs: 0, errors: [], ...(duplicates && { duplicates }) } });

describe('callRefusal', () => {
  it('refuses a name listed more than once, whatever its first definition says', () => {
    const readOnly = tool('Files.Read', { readOnlyHint: true });
    expect(callRefusal(readOnly, listed(['Files.Read']))).toMatch(/^Files\.Read is listed more than once in tools\/list/);
    expect(callRefusal(readOnly, listed(['Other']))).toBeNull();
    expect(callRefusal(readOnly, listed())).toBeNull(); // a snapshot from before duplicates were kept
  });

  it.each([
    [{ readOnlyHint: true, destructiveHint: true }, 'readOnlyHint: true with destructiveHint: true'],
    [{ readOnlyHint: true, idempotentHint: false }, 'readOnlyHint: true with idempotentHint: false'],
    [
      { readOnlyHint: true, destructiveHint: true, idempotentHint: false },
      'readOnlyHint: true with destructiveHint: true and idempotentHint: false',
    ],
  ])('refuses hints that contradict each other as sent: %o', (annotations, contradiction) => {
    expect(hintContradiction(annotations)).toBe(contradiction);
    expect(callRefusal(tool('T', annotations), listed())).toContain(`(${contradiction})`);
  });

  it.each([
    [null],
    [{}],
    [{ readOnlyHint: true }],
    [{ readOnlyHint: true, destructiveHint: false, idempotentHint: true }],
    // Not read-only: destructive and not idempotent is a plain (risky) tool, left to consent.
    [{ readOnlyHint: false, destructiveHint: true, idempotentHint: false }],
    // Only booleans count: a string is no hint at all, and the spec default (not read-only) applies.
    [{ readOnlyHint: 'true', destructiveHint: true }],
  ])('calls nothing a contradiction that is not one: %o', (annotations) => {
    expect(callRefusal(tool('T', annotations), listed())).toBeNull();
  });
});

describe('lookalikeGroups: names a dispatch, a model or a person could take for one another', () => {
  it('groups names that differ only in case, width, spacing or invisible characters', () => {
    expect(lookalikeGroups(['Wipe', 'wipe', 'wi\u200bpe', 'wipe ', 'ｗｉｐｅ', 'WIPE\u00ad', 'list'])).toEqual([
      ['WIPE\u00ad', 'Wipe', 'wipe', 'wipe ', 'wi\u200bpe', 'ｗｉｐｅ'],
    ]);
    expect(lookalikeKey('Stra\u00dfe')).toBe(lookalikeKey('STRASSE'));
  });

  it('keeps names apart that a reader tells apart', () => {
    expect(lookalikeGroups(['wipe', 'wipe_all', 'wipe-all', 'wipe.all', 'w1pe'])).toEqual([]);
  });
});
