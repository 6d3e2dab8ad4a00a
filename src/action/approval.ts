import { approveKeys, type Decision } from '../decide/decide.js';
import { readApprovalRecord } from '../report/approval-record.js';
import type { CommentsApi } from './github.js';

/**
 * What an approve label means on this run, applied by the comment workflow (the gate job holds no
 * token and reads no labels). Labels are read from the API when the comment workflow runs. The
 * label approves the findings present when it was given: the first comment written while it is on
 * the pull request records them (APPROVAL_RECORD), and later runs are approved only if they bring
 * nothing else. A comment written without the label carries no record, so removing the label and
 * adding it again approves what is there then.
 */
export interface ApprovalState {
  labels: string[];
  /** What the approval covers: null when no record exists yet (the label was just given); the record's keys otherwise. */
  covers: string[] | null;
}

export async function approvalState(api: CommentsApi, pr: number, label: string, markers: string[]): Promise<ApprovalState> {
  const labels = await api.labels(pr);
  if (!labels.includes(label)) return { labels, covers: [] };
  return { labels, covers: readApprovalRecord(await api.ownComment(pr, markers), label) };
}

/**
 * The gate's decision with the label applied (decide/decide.ts approveKeys), from the keys the
 * report carries. A report of a gate too old to carry them is approved by its reasons' codes.
 */
export function applyApproval(decision: Decision, label: string, state: ApprovalState): Decision {
  if (!state.labels.includes(label)) return decision;
  const keys = decision.signalKeys ?? decision.reasons.map((r) => r.code);
  return approveKeys(decision, keys, label, state.covers);
}
