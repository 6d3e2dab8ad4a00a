import { it } from 'vitest';

/**
 * How many runs the property tests make, as a multiple of each test's own count:
 * `MCPGATE_PROPERTY_RUNS=1` (the default) keeps every count as written, `10` makes ten times as many
 * (a soak), `0.1` a tenth, and `0` skips them, with the sweeps over recorded corpora (the fast
 * project). One variable, so a soak or a quick run touches no test file.
 */
const PROPERTY_SCALE = scaleOf(process.env.MCPGATE_PROPERTY_RUNS);

function scaleOf(text: string | undefined): number {
  if (text === undefined || text.trim() === '') return 1;
  const scale = Number(text);
  if (!Number.isFinite(scale) || scale < 0)
    throw new Error(`MCPGATE_PROPERTY_RUNS is a multiple of each property test's runs (0 or more), not ${JSON.stringify(text)}`);
  return scale;
}

/** A property test's count of runs (fast-check's `numRuns`), scaled: at least one. fast-check's own default is 100. */
export const runs = (count = 100): number => Math.max(1, Math.round(count * PROPERTY_SCALE));

/** A test of generated inputs (fast-check): its time is its count of runs, so it is skipped when the scale is 0. */
export const property = it.skipIf(PROPERTY_SCALE === 0);

const SWEEP_TIMEOUT_MS = 600_000;

/**
 * A test that sweeps a recorded corpus (every pair of recorded releases, every corpus snapshot): as
 * long as a property run, and skipped with them. Its work grows with every set recorded, so its hang
 * guard is the property runs' (diff-properties.test.ts), not the default: a guard, never a speed check.
 */
export const sweep = (name: string, body: () => void | Promise<void>, timeout = SWEEP_TIMEOUT_MS): void =>
  it.skipIf(PROPERTY_SCALE === 0)(name, body, timeout);

/**
 * At most `count` of a sweep's items, scaled like the property runs and spread evenly over them in
 * their order. A sweep over every recorded release grows with each set recorded; sampled, it keeps
 * its cost, and a soak (`MCPGATE_PROPERTY_RUNS=10`) still walks them all.
 */
export function sampled<T>(items: readonly T[], count: number): T[] {
  const n = Math.max(1, Math.round(count * PROPERTY_SCALE));
  if (n >= items.length) return [...items];
  return Array.from({ length: n }, (_, k) => items[Math.floor((k * items.length) / n)]!);
}
