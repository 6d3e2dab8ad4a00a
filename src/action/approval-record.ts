import { createHash } from 'node:crypto';

/**
 * What an approve label covers, kept between pushes by the comment workflow (action/approval.ts):
 * the keys of the signals present when the label was given (decision.signalKeys). The record is a
 * hidden line at one fixed place of the workflow's own comment, the line after its marker, which
 * comes before anything a server wrote; and it counts only with a commit status the workflow wrote
 * on the commit it was made at, whose description holds the record's digest (docs/security.md).
 */
export interface ApprovalRecord {
  label: string;
  covers: string[];
  /** The head commit the label was applied at: the approval status is on it. */
  sha: string;
  /** The pull request and the comment key it was made for: a record copied elsewhere verifies nowhere. */
  pr: number;
  key: string;
}

const PREFIX = '<!-- mcp-gate:approval ';
const LINE = /^<!-- mcp-gate:approval ([A-Za-z0-9+/]+={0,2}) -->$/;

export const recordLine = (record: ApprovalRecord): string => `${PREFIX}${Buffer.from(JSON.stringify(record)).toString('base64')} -->`;

/** The digest an approval status carries: of the record's fields, in a fixed order. */
export const recordDigest = (record: ApprovalRecord): string =>
  createHash('sha256')
    .update(JSON.stringify([record.label, [...record.covers].sort(), record.sha, record.pr, record.key]))
    .digest('hex');

/**
 * The record of a comment the workflow wrote: its second line only (the first is the marker).
 * Null when that line is not a record (none was made); a problem when it is one that cannot be read.
 */
export function readRecord(body: string | null): { record: ApprovalRecord; line: string } | { problem: string } | null {
  const line = body?.split('\n')[1] ?? '';
  if (!line.startsWith(PREFIX)) return null;
  const found = LINE.exec(line);
  if (!found) return { problem: 'the record in this comment is not one the comment workflow writes' };
  try {
    const value = JSON.parse(Buffer.from(found[1]!, 'base64').toString('utf8')) as Partial<ApprovalRecord> | null;
    if (
      typeof value?.label === 'string' &&
      Array.isArray(value.covers) &&
      value.covers.every((k) => typeof k === 'string') &&
      typeof value.sha === 'string' &&
      /^[0-9a-f]{4,64}$/i.test(value.sha) &&
      Number.isInteger(value.pr) &&
      typeof value.key === 'string'
    )
      return { record: value as ApprovalRecord, line };
  } catch {
    // not JSON: the problem below
  }
  return { problem: 'the record in this comment is not one the comment workflow writes' };
}
