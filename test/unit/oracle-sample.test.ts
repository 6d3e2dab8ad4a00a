import { describe, expect, it } from 'vitest';
import { judgePair } from '../oracle/judge.js';
import { buildPairs } from '../oracle/pairs.js';
import { summarize } from '../oracle/report.js';
import { DEFAULT_SEED } from '../oracle/main.js';

/**
 * A fixed sample of `npm run oracle` (test/oracle): every mutation class, both sides and both
 * directions, one mutation each, judged by ajv's instance search against the gate's verdict. The
 * full run (over 10,000 pairs) is a script; this holds the same figures on a sample that runs in
 * seconds, and fails with the classes that disagree.
 */
describe('the schema diff held to the instance oracle (a fixed sample of npm run oracle)', () => {
  const pairs = buildPairs({ seed: DEFAULT_SEED, perClass: 1 });
  const outcomes = pairs.map(judgePair);
  const summary = summarize(pairs, outcomes);
  const failing = (category: string) =>
    outcomes
      .filter((o) => o.category === category && !o.policy)
      .map((o) => `${pairs[o.id]!.cls} / ${pairs[o.id]!.side} / ${pairs[o.id]!.dir}`);

  it('applies every class, and the search finds every witness known by construction', () => {
    expect(new Set(pairs.map((p) => p.cls)).size).toBe(summary.classes);
    expect(summary.searchMisses).toBe(0);
    expect(summary.contradicted).toBe(0);
  });

  it('passes nothing in silence outside documented policy, but for the search gaps the README lists', () => {
    // Witnesses the gate's own search does not reach yet (README, "How the judgement is tested"):
    // a pattern made stricter by anchors, contains bounds inside a recursive $ref, a `not` that
    // grows, multipleOf on the items of a nested list. The list only shrinks.
    const KNOWN_GAPS = [
      'multipleOf-add / input / fwd',
      'pattern-anchor / input / fwd',
      'pattern-anchor / output / back',
      'minContains-add / input / fwd',
      'maxContains-add / input / fwd',
      'not-widen / input / fwd',
    ];
    expect(failing('silent').filter((row) => !KNOWN_GAPS.includes(row))).toEqual([]);
  });

  it('agrees on at least 98.5% of the sample, says breaking only with a witness, and holds at most 10% of the calm pairs', () => {
    expect(summary.agreement).toBeGreaterThanOrEqual(0.985);
    expect(failing('false-alarm').length).toBeLessThanOrEqual(1);
    expect(summary.calmHeld / Math.max(1, summary.calm)).toBeLessThanOrEqual(0.1);
  });
});
