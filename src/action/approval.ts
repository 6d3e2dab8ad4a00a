import { approveKeys, type Decision } from '../decide/decide.js';
import { markdownCode } from '../base/inert.js';
import { readRecord, recordDigest, recordLine, type ApprovalRecord } from './approval-record.js';
import { labelRefusal } from './approvers.js';
import type { CommentsApi } from './github-api.js';

/**
 * What an approve label means on this run, applied by the comment workflow (the gate job holds no
 * token and reads no labels). The label approves the findings present when it was given: the
 * first comment written while it is on records their keys (approval-record.ts), with a commit
 * status that authenticates the record, and later runs are approved only if they bring nothing
 * else. A comment written without the label carries no record, so removing the label and adding
 * it again approves what is there then. A record that cannot be verified approves nothing, and so
 * does a label added by someone who may not approve (approvers.ts).
 */
export type ApprovalState =
  | { kind: 'off' }
  /** On, but not taken: the reason is shown. */
  | { kind: 'ignored'; why: string }
  /** On, and no record yet: the label was just given, and approves what is there now. */
  | { kind: 'fresh' }
  | { kind: 'recorded'; record: ApprovalRecord; line: string }
  | { kind: 'unverified'; why: string; line: string };

/** Where a label's approval is kept: the pull request, the comment key, the gate run's head commit. */
export interface ApprovalPlace {
  pr: number;
  key: string;
  sha: string;
  /** The status context that authenticates the record (see approvalContext). */
  context: string;
}

/** The status context of the records of a comment key: one per key, like the `mcp-gate` status. */
export const approvalContext = (explicitKey: string | null): string =>
  explicitKey ? `mcp-gate-approval/${explicitKey}` : 'mcp-gate-approval';

/** The description of the status that authenticates a record. */
export const approvalStatusText = (record: ApprovalRecord): string => `approval record ${recordDigest(record)}`;

/** Written in place of a record that failed, so the label keeps approving nothing until it is given again. */
const VOID_LINE = '<!-- mcp-gate:approval void -->';

export async function approvalState(
  api: CommentsApi,
  { label, approvers }: { label: string; approvers: string[] | null },
  place: ApprovalPlace,
  markers: string[],
): Promise<ApprovalState> {
  const labels = await api.labels(place.pr);
  if (!labels.includes(label)) return { kind: 'off' };
  const refused = await labelRefusal(api, place.pr, label, approvers);
  if (refused) return { kind: 'ignored', why: refused };
  const body = await api.ownComment(place.pr, markers);
  if (body?.split('\n')[1] === VOID_LINE)
    return { kind: 'unverified', why: 'an earlier record of it could not be verified', line: VOID_LINE };
  const found = readRecord(body);
  if (!found) return { kind: 'fresh' };
  if ('problem' in found) return { kind: 'unverified', why: found.problem, line: VOID_LINE };
  const { record, line } = found;
  if (record.label !== label || record.pr !== place.pr || record.key !== place.key)
    return { kind: 'unverified', why: 'the record in this comment was made for another label, pull request or comment key', line };
  const identity = await api.identity();
  const expected = approvalStatusText(record);
  const statuses = await api.statuses(record.sha);
  if (!statuses.some((s) => s.context === place.context && s.creator === identity && s.description === expected))
    return {
      kind: 'unverified',
      why: `no ${markdownCode(place.context)} status written by ${markdownCode(identity)} on ${markdownCode(record.sha.slice(0, 12))} carries the record's digest`,
      line,
    };
  return { kind: 'recorded', record, line };
}

/** The decision with the label applied, the record line the comment carries, a new record to authenticate, and what to say. */
export interface Applied {
  decision: Decision;
  line: string | null;
  made: ApprovalRecord | null;
  note: string | null;
}

/**
 * The gate's decision with the label applied (decide/decide.ts approveKeys), from the keys the
 * report carries. A report of a gate too old to carry them is approved by its reasons' codes.
 */
export function applyApproval(decision: Decision, label: string, state: ApprovalState, place: ApprovalPlace): Applied {
  const keys = decision.signalKeys ?? decision.reasons.map((r) => r.code);
  switch (state.kind) {
    case 'off':
      return { decision, line: null, made: null, note: null };
    case 'ignored':
      return { decision, line: null, made: null, note: `The ${markdownCode(label)} label approves nothing on this run: ${state.why}.` };
    case 'unverified':
      return {
        decision,
        line: state.line,
        made: null,
        note: `The ${markdownCode(label)} label approves nothing on this run: ${state.why}. What clears this: remove the label and add it again.`,
      };
    case 'fresh': {
      // Even a Promote records what it covers (nothing), so a finding pushed later is not approved unseen.
      const made: ApprovalRecord = { label, covers: [...keys].sort(), sha: place.sha, pr: place.pr, key: place.key };
      return { decision: approveKeys(decision, keys, label, null), line: recordLine(made), made, note: null };
    }
    case 'recorded':
      return { decision: approveKeys(decision, keys, label, state.record.covers), line: state.line, made: null, note: null };
  }
}
