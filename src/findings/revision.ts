/**
 * Protocol revisions are named by date (2025-06-18), drafts by year (DRAFT-2026-v1). The sort key
 * is the date, a draft sorting before the year's dated revisions; null for a name without a year.
 */
export function revisionKey(version: string): string | null {
  const found = /(\d{4})(?:-(\d{2})-(\d{2}))?/.exec(version);
  if (!found) return null;
  return `${found[1]}-${found[2] ?? '00'}-${found[3] ?? '00'}`;
}

/**
 * The two eras of the protocol: `legacy` revisions (up to 2025-11-25) open a session with the
 * `initialize` handshake; `modern` ones (2026-07-28 and later) are stateless and start with
 * `server/discover`, or with nothing at all.
 */
export type ProtocolEra = 'modern' | 'legacy';

/** The first revision of the modern era. */
export const FIRST_MODERN_REVISION = '2026-07-28';

/** The era a negotiated revision belongs to; null for a name the gate cannot date (or a draft). */
export function eraOf(version: unknown): ProtocolEra | null {
  if (typeof version !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(version)) return null;
  return version >= FIRST_MODERN_REVISION ? 'modern' : 'legacy';
}

/** Whether two negotiated revisions lie in different eras (both must be dated). */
export function erasDiffer(before: unknown, after: unknown): boolean {
  const [b, a] = [eraOf(before), eraOf(after)];
  return b !== null && a !== null && b !== a;
}

/** Whether the candidate negotiated a newer revision than the baseline; an unordered name is not newer. */
export function revisionWentUp(before: unknown, after: unknown): boolean {
  const [b, a] = [revisionKey(String(before)), revisionKey(String(after))];
  return b !== null && a !== null && a > b;
}
