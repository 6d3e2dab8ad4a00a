/**
 * Protocol revisions are named by date (2025-06-18), drafts by year (DRAFT-2026-v1). The sort key
 * is the date, a draft sorting before the year's dated revisions; null for a name without a year.
 */
export function revisionKey(version: string): string | null {
  const found = /(\d{4})(?:-(\d{2})-(\d{2}))?/.exec(version);
  if (!found) return null;
  return `${found[1]}-${found[2] ?? '00'}-${found[3] ?? '00'}`;
}

/** Whether the candidate negotiated a newer revision than the baseline; an unordered name is not newer. */
export function revisionWentUp(before: unknown, after: unknown): boolean {
  const [b, a] = [revisionKey(String(before)), revisionKey(String(after))];
  return b !== null && a !== null && a > b;
}
