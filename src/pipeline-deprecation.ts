import type { GateConfig } from './config/types.js';
import { calmRemovals, REMOVED_AFTER_DEPRECATION, removalKey } from './decide/deprecation-window.js';
import type { Change } from './findings/types.js';
import { deprecatedSince } from './report/history/deprecations.js';
import { savedReports } from './report/history/saved.js';

/**
 * The "remove" step of the deprecation lifecycle (docs/releases.md): a tool, an argument or a prompt
 * the baseline marked deprecated and the candidate removed is held until the saved reports show the
 * mark at least `promotion.deprecationWindowDays` old; each such change says which it is. The saved
 * reports are read only when there is such a change.
 */
export function deprecationLifecycle(
  changes: Change[],
  config: GateConfig,
  today: string,
  server: string | undefined,
): { changes: Change[]; calm: Map<string, string> } {
  const removed = new Map(changes.filter((c) => REMOVED_AFTER_DEPRECATION.has(c.code)).map((c) => [removalKey(c), c.subject]));
  if (!removed.size) return { changes, calm: new Map() };
  const window = config.promotion.deprecationWindowDays ?? 0;
  const since = window === 0 ? new Map<string, string>() : deprecatedSince(savedReports(config.reports.dir), removed, server);
  const calm = calmRemovals([...removed.keys()], since, window, today);
  const noted = changes.map((c) => {
    if (!REMOVED_AFTER_DEPRECATION.has(c.code)) return c;
    const why = calm.get(removalKey(c));
    const first = since.get(removalKey(c));
    const note = why
      ? `Its removal is calm: ${why}.`
      : first
        ? `Held: the saved reports show the mark only since ${first.slice(0, 10)}, under the ${window}-day window (promotion.deprecationWindowDays).`
        : `Held: no saved report in reports.dir shows the mark ${window} days ago (promotion.deprecationWindowDays).`;
    return { ...c, message: `${c.message} ${note}` };
  });
  return { changes: noted, calm };
}
