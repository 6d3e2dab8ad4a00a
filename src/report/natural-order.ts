/**
 * Natural order for names: runs of digits compare as numbers, so Action2 comes before Action100;
 * everything else compares by code unit, so the order is the same on every machine and locale.
 */
export function naturalCompare(a: string, b: string): number {
  const left = a.match(/\d+|\D+/g) ?? [];
  const right = b.match(/\d+|\D+/g) ?? [];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const x = left[i]!;
    const y = right[i]!;
    if (x === y) continue;
    const digits = /^\d/.test(x) && /^\d/.test(y);
    if (digits) {
      // By value first (without leading zeros, by length then text: no precision limit), then 007 after 7.
      const [p, q] = [x.replace(/^0+/, ''), y.replace(/^0+/, '')];
      if (p.length !== q.length) return p.length - q.length;
      if (p !== q) return p < q ? -1 : 1;
      return x.length - y.length;
    }
    return x < y ? -1 : 1;
  }
  return left.length - right.length || (a < b ? -1 : a > b ? 1 : 0);
}
