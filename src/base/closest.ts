/**
 * The real name a typo most likely meant: the closest by edit distance (case-insensitive), when
 * that distance is at most 2, or at most a fifth of the longer name, or when one name is the start
 * of the other (`resolve-library` for `resolve-library-id`). Null when nothing is that close.
 */
export function closest(name: string, known: string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  const wanted = name.toLowerCase();
  for (const candidate of known) {
    const other = candidate.toLowerCase();
    const gap = Math.abs(wanted.length - other.length);
    // One name the start of the other: the distance is the length gap, no table needed.
    if (Math.min(wanted.length, other.length) >= 4 && (other.startsWith(wanted) || wanted.startsWith(other))) {
      if (gap < bestDistance) [best, bestDistance] = [candidate, gap];
      continue;
    }
    const limit = Math.min(Math.max(2, Math.floor(Math.max(wanted.length, other.length) / 5)), bestDistance - 1);
    if (gap > limit) continue;
    const d = distance(wanted, other, limit);
    if (d <= limit) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** Edit distance, or limit + 1 as soon as it must exceed `limit`: a dataset is checked against every tool of large servers. */
function distance(a: string, b: string, limit: number): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      least = Math.min(least, current[j]!);
    }
    if (least > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}
