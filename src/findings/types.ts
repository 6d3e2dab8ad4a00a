import type { ChangeCode, Code, Severity } from './codes.js';
import type { Subject } from './subject.js';

export type Side = 'baseline' | 'candidate';

/**
 * One difference between the two contracts. Plain data: a saved report renders it again. Its code's
 * facts (severity, default action, message) come from findings/codes; `tool` and `path` are derived
 * from `subject` (findings/subject.ts) and kept for readers of the report.
 */
export interface Change {
  code: ChangeCode;
  severity: Severity;
  /** What the change is about. Reports written before it existed lack it (report/read.ts restores it). */
  subject: Subject;
  tool: string | null;
  /** JSON pointer into the tool definition (`/inputSchema/properties/severity`) or the server's features (`/prompts/x`). */
  path: string;
  before: unknown;
  after: unknown;
  message: string;
  /** Stable hash of code, tool, path, before and after; approvals match on it. */
  fingerprint: string;
}

/** Something observed on one side: a discovery problem, a case outcome, an audit check. */
export interface Finding {
  code: Code;
  severity: Severity;
  side: Side;
  tool: string | null;
  message: string;
  /** Audit findings only: present on the candidate but not on the baseline. */
  regression?: boolean;
  /** The role it concerns, for role findings. */
  role?: string;
  /** The case whose probe produced it, for findings on live results. */
  caseId?: string;
  /** JSON pointer into the result, for findings that compare the two sides' results. */
  path?: string;
}
