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

  it('passes nothing in silence outside documented policy', () => {
    expect(failing('silent')).toEqual([]);
  });

  it('agrees on at least 99.5% of the sample, says breaking only with a witness, and holds at most 15% of the calm pairs', () => {
    expect(summary.agreement).toBeGreaterThanOrEqual(0.995);
    expect(failing('false-alarm').length).toBeLessThanOrEqual(2);
    // Held calm pairs are output changes held by documented policy (output-hold), which the search
    // does not let go: a witness it misses there would be a silent pass.
    expect(summary.calmHeld / Math.max(1, summary.calm)).toBeLessThanOrEqual(0.15);
  });
});
