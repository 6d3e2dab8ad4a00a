import type { Exception } from '../config/types.js';
import type { Signal } from './signals.js';

export interface AppliedException extends Exception {
  matched: number;
}

const matches = (e: Exception, s: Signal) =>
  e.code === s.code && (e.tool === undefined || e.tool === s.tool) && (e.fingerprint === undefined || e.fingerprint === s.fingerprint);

/** What the exceptions left of some signals: those kept, the exceptions that removed any, and what they raised. */
export interface Excepted {
  kept: Signal[];
  applied: AppliedException[];
  raised: Signal[];
}

/**
 * Approved signals are removed. An expired exception no longer applies and fires
 * `exception-expired`; one that matches nothing fires `exception-stale`, so approvals do not pile up.
 *
 * A signal is removed by the first exception in the list that matches it and has not expired,
 * whichever other signals there are. So the exceptions are matched once, for the whole run, and
 * `within` gives what they leave of a part of it (a role's signals) without matching again: the
 * same as applying them to that part alone.
 */
export function applyExceptions(
  signals: Signal[],
  exceptions: Exception[],
  today: string,
): Excepted & { within: (part: (s: Signal) => boolean) => Excepted } {
  const live = exceptions.map((e) => e.expires >= today);
  const removedBy = new Map<Signal, number>();
  for (const signal of signals) {
    const first = exceptions.findIndex((e, i) => live[i] && matches(e, signal));
    if (first !== -1) removedBy.set(signal, first);
  }
  const within = (part: (s: Signal) => boolean): Excepted => {
    const applied: AppliedException[] = [];
    const raised: Signal[] = [];
    exceptions.forEach((exception, i) => {
      const label = `${exception.code}${exception.tool ? ` on ${exception.tool}` : ''}`;
      if (!live[i]) {
        raised.push({
          code: 'exception-expired',
          tool: exception.tool ?? null,
          fingerprint: null,
          message: `exception for ${label} expired on ${exception.expires} (${exception.reason})`,
        });
        return;
      }
      const matched = signals.filter((s) => removedBy.get(s) === i && part(s)).length;
      if (matched === 0) {
        raised.push({
          code: 'exception-stale',
          tool: exception.tool ?? null,
          fingerprint: null,
          message: `exception for ${label} matched nothing; remove it`,
        });
        return;
      }
      applied.push({ ...exception, matched });
    });
    return { kept: signals.filter((s) => !removedBy.has(s) && part(s)), applied, raised };
  };
  return { ...within(() => true), within };
}
