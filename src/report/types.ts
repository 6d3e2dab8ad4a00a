import type { CaseResult, CaseTotals } from '../cases/types.js';
import type { BaselineFallback, ContractTool, Discovery, ServerIdentity, Features } from '../contract/types.js';
export type { BaselineFallback } from '../contract/types.js';
import type { Decision } from '../decide/decide.js';
import type { ReleaseCheck } from '../decide/version-bump.js';
import type { DiffSummary } from '../diff/summary.js';
import type { Audit } from '../audit/index.js';
import type { Change, Side } from '../findings/types.js';
import type { RoleReport } from '../roles/breakdown.js';
import type { PolicyDrift } from '../config/policy-drift.js';
import type { Containment } from '../connect/containment.js';

export const REPORT_SCHEMA_VERSION = 1;

export interface SideReport {
  profile: string;
  transport: 'stdio' | 'http' | 'sse' | 'snapshot';
  /** False when the side could not be started, initialised or listed. */
  available: boolean;
  error: { phase: string; message: string } | null;
  /**
   * Set when the side's first start failed (it exited, or broke the protocol before discovery
   * ended) and it was started once more, after the other side: why the first start failed. The
   * side is available when the second start worked. Absent in reports of older builds.
   */
  retried?: { phase: string; message: string; alone?: boolean };
  /** The baseline only: what stood in for it when its server could not start (the profile's `fallback`). */
  fallback?: BaselineFallback;
  server: ServerIdentity;
  contractHash: string | null;
  toolCount: number;
  tools: ContractTool[];
  discovery: Discovery;
  /** The last bytes the server wrote to stderr, and how many earlier bytes were dropped. */
  stderr: { tail: string; droppedBytes: number };
  /** Capabilities, prompts, resources and resource templates; absent when not read (see Contract.features). */
  features?: Features;
  cases: CaseTotals;
  caseResults: CaseResult[];
}

/** Wall-clock figures. The only fields that differ between two runs against the same servers. */
export interface Timing {
  totalMs: number;
  stages: Record<'connect' | 'discover' | 'diff' | 'cases' | 'audit' | 'decide' | 'report', number>;
}

/** The machine the run had, as far as it bears on what the report can claim. */
export interface RunEnvironment {
  /**
   * What kept the servers' descendants from outliving the run (connect/containment.ts); null when
   * the gate started no server (snapshots, remote servers).
   */
  containment: Containment | null;
  /**
   * The pair's profiles that ran from a git baseline's built tree that no mount namespace kept
   * read-only (`containment.baselineTrees` is `copied`): each from a checked copy of its own, which
   * a server of the same user could still write. Absent when there is none, and in older reports.
   */
  unprotectedTrees?: string[];
}

export interface Report {
  schemaVersion: typeof REPORT_SCHEMA_VERSION;
  generatedBy: { name: string; version: string };
  startedAt: string;
  finishedAt: string;
  /** The server's name when this run gated one server of a bundle (`servers.<name>`). */
  server?: string;
  config: { file: string | null; datasets: string[]; roles: string[] };
  baseline: SideReport;
  candidate: SideReport;
  diff: { summary: DiffSummary; changes: Change[] };
  /**
   * The version bump the changes call for, against both sides' serverInfo.version
   * (docs/releases.md, "The version bump"). Absent in reports of older builds.
   */
  release?: ReleaseCheck;
  audit: Audit;
  /** Results and surface findings per role (see roles/breakdown.ts). Absent in reports of older builds. */
  roles?: RoleReport[];
  decision: Decision;
  /**
   * Set when the sides could not run at once: `side` failed to start while the other ran (twice;
   * `failed` is the second time) and started alone, so each side was started, read, replayed and
   * sent its witnesses in turn. Absent when they ran at once, and in reports of older builds.
   */
  sidesInTurn?: { side: Side; failed: { phase: string; message: string } };
  /** The gate's own config and datasets compared with the change's base (`--policy-base`); absent when not asked. */
  policy?: PolicyDrift;
  /** Absent in reports of builds before containment was reported. */
  environment?: RunEnvironment;
  /** What a report past MAX_REPORT_BYTES left out (report/trim.ts); absent when nothing was. */
  trimmed?: ReportTrim;
  timing: Timing;
}

/** What a report too large to write whole left out (report/trim.ts; docs/security.md, "The report is at most 32 MiB"). */
export interface ReportTrim {
  maxBytes: number;
  note: string;
  /** Each list cut short: where it is in the report, how many entries were kept, and of how many. */
  lists: { at: string; kept: number; of: number }[];
}

/**
 * Fields that hold times or durations. Removing them (and the file name) leaves a report that is
 * byte-identical between two runs against the same servers.
 */
export const VOLATILE_FIELDS = ['startedAt', 'finishedAt', 'timing', 'durationMs'] as const;
