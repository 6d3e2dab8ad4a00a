const DAY_MS = 86_400_000;

/**
 * The removals of deprecated tools that the lifecycle allows (docs/releases.md): the tool was marked
 * deprecated at least `windowDays` before `today`, as the saved reports tell (`since`, the first
 * run that showed the mark). Each with why, for the signal's cap. Pure.
 */
export function calmRemovals(
  removed: readonly string[],
  since: ReadonlyMap<string, string>,
  windowDays: number,
  today: string,
): Map<string, string> {
  const calm = new Map<string, string>();
  for (const tool of removed) {
    if (windowDays === 0) {
      calm.set(tool, 'promotion.deprecationWindowDays is 0: a marked tool may go at once');
      continue;
    }
    const first = since.get(tool);
    if (first === undefined) continue;
    const days = Math.floor((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${first.slice(0, 10)}T00:00:00Z`)) / DAY_MS);
    if (days >= windowDays) {
      calm.set(
        tool,
        `the saved reports show it marked deprecated since ${first.slice(0, 10)}, ${days} days ago (window ${windowDays} days)`,
      );
    }
  }
  return calm;
}
