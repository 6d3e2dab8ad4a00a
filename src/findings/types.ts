import type { Code, Severity } from './codes.js';

export type Side = 'baseline' | 'candidate';

/** One difference between the two contracts. Plain data: a saved report renders it again. */
export interface Change {
  code: Code;
  severity: Severity;
  tool: string | null;
  /** JSON pointer into the tool definition, e.g. `/inputSchema/properties/severity`. */
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
