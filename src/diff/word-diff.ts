/**
 * Word-level diffs of description text: the hunks (for judging a wording edit, diff/wording.ts) and a
 * compact rendering (`[-old words-] [+new words+]` around unchanged text, long unchanged runs elided).
 */
export type Hunk = { same: string[] } | { removed: string[]; added: string[] };

/**
 * The LCS table is bounded: the common prefix and suffix are taken off first (a wording fix in a
 * long description leaves a short middle), and a middle over this many cells is not diffed.
 */
const MAX_CELLS = 1_000_000;

export const words = (text: string): string[] => text.split(/\s+/).filter(Boolean);

/** The hunks from `before` to `after`, or null when the changed middle is too large to diff. */
export function wordHunks(before: string, after: string): Hunk[] | null {
  const a = words(before);
  const b = words(after);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const x = a.slice(prefix, a.length - suffix);
  const y = b.slice(prefix, b.length - suffix);
  if ((x.length + 1) * (y.length + 1) > MAX_CELLS) return null;
  const width = y.length + 1;
  const lcs = new Int32Array((x.length + 1) * width);
  for (let i = x.length - 1; i >= 0; i--) {
    for (let j = y.length - 1; j >= 0; j--) {
      lcs[i * width + j] = x[i] === y[j] ? lcs[(i + 1) * width + j + 1]! + 1 : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  const hunks: Hunk[] = [];
  const push = (kind: 'same' | 'removed' | 'added', word: string) => {
    const last = hunks[hunks.length - 1];
    if (kind === 'same') {
      if (last && 'same' in last) last.same.push(word);
      else hunks.push({ same: [word] });
    } else if (last && !('same' in last)) last[kind].push(word);
    else hunks.push(kind === 'removed' ? { removed: [word], added: [] } : { removed: [], added: [word] });
  };
  for (const word of a.slice(0, prefix)) push('same', word);
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      push('same', x[i]!);
      i++;
      j++;
    } else if (j < y.length && (i >= x.length || lcs[i * width + j + 1]! >= lcs[(i + 1) * width + j]!)) push('added', y[j++]!);
    else push('removed', x[i++]!);
  }
  for (const word of a.slice(a.length - suffix)) push('same', word);
  return hunks;
}

/** The compact rendering of `wordHunks`, or the word counts alone when the texts are too large to diff. */
export function wordDiff(before: string, after: string): string {
  const hunks = wordHunks(before, after);
  if (!hunks) return `[-${words(before).length} words-] [+${words(after).length} words+]`;
  const keep = 3;
  return hunks
    .map((hunk, n) => {
      if (!('same' in hunk))
        return [hunk.removed.length ? `[-${hunk.removed.join(' ')}-]` : '', hunk.added.length ? `[+${hunk.added.join(' ')}+]` : '']
          .filter(Boolean)
          .join(' ');
      const same = hunk.same;
      const first = n === 0;
      const last = n === hunks.length - 1;
      if (first && last) return '';
      if (same.length <= keep * 2 || (first && same.length <= keep) || (last && same.length <= keep)) return same.join(' ');
      if (first) return `… ${same.slice(-keep).join(' ')}`;
      if (last) return `${same.slice(0, keep).join(' ')} …`;
      return `${same.slice(0, keep).join(' ')} … ${same.slice(-keep).join(' ')}`;
    })
    .join(' ');
}
