import type { CaseTotals } from '../cases/types.js';

/**
 * A side's pass rate over the cases that ran. A skipped case (a snapshot side, a tool the gate may
 * not call) neither passed nor failed, so it is counted apart and never drags the rate down: three
 * skipped cases read "none run (3 skipped)", not "0% (0/3)".
 */
export function passRateText(cases: CaseTotals): string {
  const ran = cases.passed + cases.failed;
  const skipped = cases.skipped ? `${cases.skipped} skipped` : '';
  if (!cases.total) return 'n/a (no cases)';
  if (!ran) return `none run (${skipped})`;
  return `${Math.round((cases.passed / ran) * 100)}% (${cases.passed}/${ran}${skipped && `, ${skipped}`})`;
}
