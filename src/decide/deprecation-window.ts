import type { Code } from '../findings/codes.js';
import type { Change } from '../findings/types.js';

const DAY_MS = 86_400_000;

/** The removals the deprecation lifecycle judges: held by default, calm past the window (docs/releases.md). */
export const REMOVED_AFTER_DEPRECATION: ReadonlySet<Code> = new Set<Code>([
  'tool-removed-after-deprecation',
  'argument-removed-after-deprecation',
  'prompt-removed-after-deprecation',
  'prompt-argument-removed-after-deprecation',
]);

/**
 * What a lifecycle removal is keyed by, in the saved reports' history and in the calm removals: its
 * tool (null for a prompt) and pointer, as JSON, so no name a server chooses passes for another's.
 */
export const removalKey = (c: Pick<Change, 'tool' | 'path'>): string => JSON.stringify([c.tool, c.path]);

/**
 * The removals of deprecated things that the lifecycle allows (docs/releases.md): the thing was
 * marked deprecated at least `windowDays` before `today`, as the saved reports tell (`since`, the
 * first run that showed the mark). Each with why, for the signal's cap. Pure.
 */
export function calmRemovals(
  removed: readonly string[],
  since: ReadonlyMap<string, string>,
  windowDays: number,
  today: string,
): Map<string, string> {
  const calm = new Map<string, string>();
  for (const key of removed) {
    if (windowDays === 0) {
      calm.set(key, 'promotion.deprecationWindowDays is 0: what is marked may go at once');
      continue;
    }
    const first = since.get(key);
    if (first === undefined) continue;
    const days = Math.floor((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${first.slice(0, 10)}T00:00:00Z`)) / DAY_MS);
    if (days >= windowDays) {
      calm.set(
        key,
        `the saved reports show it marked deprecated since ${first.slice(0, 10)}, ${days} days ago (window ${windowDays} days)`,
      );
    }
  }
  return calm;
}
