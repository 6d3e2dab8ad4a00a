/**
 * A compact word-level diff: `[-old words-] [+new words+]` around unchanged text, with long
 * unchanged runs elided. LCS over words, bounded so huge descriptions cannot cost quadratic time.
 */
const MAX_WORDS = 400;

export function wordDiff(before: string, after: string): string {
  const a = before.split(/\s+/).filter(Boolean);
  const b = after.split(/\s+/).filter(Boolean);
  if (a.length > MAX_WORDS || b.length > MAX_WORDS) return `[-${a.length} words-] [+${b.length} words+]`;
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const parts: string[] = [];
  let same: string[] = [];
  let removed: string[] = [];
  let added: string[] = [];
  const flushEdits = () => {
    if (removed.length) parts.push(`[-${removed.join(' ')}-]`);
    if (added.length) parts.push(`[+${added.join(' ')}+]`);
    removed = [];
    added = [];
  };
  const flushSame = (last: boolean) => {
    if (!same.length) return;
    const first = parts.length === 0;
    const keep = 3;
    if (same.length <= keep * 2 || (first && same.length <= keep) || (last && same.length <= keep)) parts.push(same.join(' '));
    else if (first) parts.push(`… ${same.slice(-keep).join(' ')}`);
    else if (last) parts.push(`${same.slice(0, keep).join(' ')} …`);
    else parts.push(`${same.slice(0, keep).join(' ')} … ${same.slice(-keep).join(' ')}`);
    same = [];
  };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      flushEdits();
      same.push(a[i]!);
      i++;
      j++;
    } else {
      flushSame(false);
      if (j < b.length && (i >= a.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) added.push(b[j++]!);
      else removed.push(a[i++]!);
    }
  }
  flushEdits();
  flushSame(true);
  return parts.join(' ');
}
