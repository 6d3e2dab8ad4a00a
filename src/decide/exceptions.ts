import type { Exception } from '../config/types.js';
import type { Signal } from './signals.js';

export interface AppliedException extends Exception {
  matched: number;
}

const matches = (e: Exception, s: Signal) =>
  e.code === s.code && (e.tool === undefined || e.tool === s.tool) && (e.fingerprint === undefined || e.fingerprint === s.fingerprint);

/**
 * Approved signals are removed. An expired exception no longer applies and fires
 * `exception-expired`; one that matches nothing fires `exception-stale`, so approvals do not pile up.
 */
export function applyExceptions(
  signals: Signal[],
  exceptions: Exception[],
  today: string,
): { kept: Signal[]; applied: AppliedException[]; raised: Signal[] } {
  const applied: AppliedException[] = [];
  const raised: Signal[] = [];
  let kept = signals;
  for (const exception of exceptions) {
    const hits = kept.filter((s) => matches(exception, s));
    const label = `${exception.code}${exception.tool ? ` on ${exception.tool}` : ''}`;
    if (exception.expires < today) {
      raised.push({
        code: 'exception-expired',
        tool: exception.tool ?? null,
        fingerprint: null,
        message: `exception for ${label} expired on ${exception.expires} (${exception.reason})`,
      });
      continue;
    }
    if (hits.length === 0) {
      raised.push({
        code: 'exception-stale',
        tool: exception.tool ?? null,
        fingerprint: null,
        message: `exception for ${label} matched nothing; remove it`,
      });
      continue;
    }
    applied.push({ ...exception, matched: hits.length });
    kept = kept.filter((s) => !hits.includes(s));
  }
  return { kept, applied, raised };
}
