/**
 * The hidden line of the gate's PR comment that records what an approve label covers (the signals
 * present when it was given; see decide/decide.ts approveCovering). The comment is the gate's
 * memory between pushes; the action reads it only from a comment its own token wrote.
 */
const RECORD = /<!-- mcp-gate:approval ([A-Za-z0-9+/=]+) -->/;

/** The hidden line of a comment that records what an approval covers. */
export const approvalRecord = (label: string, covers: string[]): string =>
  `<!-- mcp-gate:approval ${Buffer.from(JSON.stringify({ label, covers })).toString('base64')} -->`;

export function readApprovalRecord(body: string | null, label: string): string[] | null {
  const found = body ? RECORD.exec(body) : null;
  if (!found) return null;
  try {
    const record = JSON.parse(Buffer.from(found[1]!, 'base64').toString('utf8')) as { label?: unknown; covers?: unknown };
    return record.label === label && Array.isArray(record.covers) ? record.covers.filter((k): k is string => typeof k === 'string') : null;
  } catch {
    return null;
  }
}
