import type { Problem } from '../base/problems.js';
import type { FailureCode } from '../findings/codes.js';
import type { Source } from '../findings/types.js';
/** A dataset as written in datasets/*.cases.yaml (field names of the original design). */
interface Expectation {
  isError?: boolean;
  contains?: string[];
  matches?: string;
  structured?: Record<string, unknown>;
  /** What the result may cost the model, in bytes (formerly `maxResultBytes`, still read). */
  resultBudgetBytes?: number;
}

export interface RequiredTool {
  toolName: string;
  requiredArguments?: string[];
  requireReadOnlyHint?: boolean;
  requireDestructiveHint?: boolean;
  probeArguments?: Record<string, unknown>;
  expectedOutputContains?: string;
  expect?: Expectation;
  /** JSON pointers into the result (`*` for any key or index) that may differ between runs, left out when the two sides' results are compared. */
  volatile?: string[];
}

/** What the text of a prompt's messages, or of a resource's contents, must hold. */
export interface FeatureExpectation {
  contains?: string[];
  matches?: string;
  /** Resources only: the MIME type one of the contents must have. */
  mimeType?: string;
}

export interface RequiredPrompt {
  name: string;
  /** Arguments the live prompt must mark required. */
  requiredArguments?: string[];
  /** When present, the prompt is fetched with prompts/get and these arguments. */
  arguments?: Record<string, string>;
  expect?: FeatureExpectation;
}

/** A resource by `uri`, or by a `uriTemplate` the server must list, filled with `variables`. */
export interface RequiredResource {
  uri?: string;
  uriTemplate?: string;
  variables?: Record<string, string>;
  expect?: FeatureExpectation;
}

export interface Case {
  id: string;
  userTask: string;
  /** Empty when the file leaves it out (a case of prompts or resources only). */
  requiredTools: RequiredTool[];
  requiredPrompts?: RequiredPrompt[];
  requiredResources?: RequiredResource[];
  forbiddenTools?: string[];
  sideEffects?: 'allowed' | 'forbidden';
  /** Further roles this case stands for, beside its dataset's role. */
  roles?: string[];
  /** Where its `id` is written (set by the loader; absent for cases built in code). */
  source?: Source;
}

/** What a role may see: the object form of a dataset's `role`. */
export interface RoleSurface {
  /** Exact tool names or globs (`*` any run of characters, `?` one); null: every tool is allowed. */
  allowedTools: string[] | null;
  /** Effectively destructive tools tolerated in the role's allowed surface; null: no cap. */
  maxDestructiveTools: number | null;
  /** Where the dataset scopes the role (its `role:`); absent for datasets built in code. */
  source?: Source;
}

export interface Dataset {
  /** Path as shown to people (relative to the working directory). */
  file: string;
  /** The role's name (the string form of `role`, or its `name`). */
  role: string;
  /** Set when `role` is the object form. */
  surface?: RoleSurface;
  cases: Case[];
  /** The line of a path inside the file, for messages; absent for datasets built in code. */
  lineOf?: (path: (string | number)[]) => number | null;
  /** What is worth fixing in the file but does not stop a run (a deprecated key). */
  notes?: Problem[];
}

/** Why a case failed: one of the case failure codes (findings/codes/cases.ts, docs/codes.md). */
export interface CaseFailure {
  code: FailureCode;
  tool: string | null;
  message: string;
  /**
   * What exactly failed: the expectation for `expectation-failed` (`isError`, `contains:<text>`,
   * `matches`, `structured`, `resultBudgetBytes`), the argument for `required-argument-missing`. With
   * the code and the tool, it is what "the same failure on both sides" means.
   */
  check?: string;
  /** Candidate failures only: false when the baseline's same case has this failure too. */
  regression?: boolean;
}

export interface Probe {
  /** The tool called; for a prompt or a resource, its name or URI (see `kind`). */
  tool: string;
  /** Absent for a tools/call probe. */
  kind?: 'prompt' | 'resource';
  status: 'called' | 'skipped' | 'failed';
  /** Why a probe was skipped or failed to complete. */
  reason: string | null;
  isError: boolean | null;
  durationMs: number | null;
  resultBytes: number | null;
  textBytes: number | null;
}

export interface CaseResult {
  id: string;
  /** The dataset's role. */
  role: string;
  /** Every role the case counts for: the dataset's role first, then the case's own `roles`. */
  roles?: string[];
  dataset: string;
  /** Where the case's `id` is written in its dataset. Absent in older reports. */
  source?: Source;
  status: 'passed' | 'failed' | 'skipped';
  passed: boolean;
  failures: CaseFailure[];
  probes: Probe[];
  /**
   * Candidate results only, when the case failed: false when the baseline fails the case the same
   * way (every candidate failure is one the baseline has too), so the failure is pre-existing and
   * `case-already-failing`, not `case-broken`. Absent on the baseline and in older reports.
   */
  regression?: boolean;
}

export interface CaseTotals {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  /** passed / total, or null when there are no cases. Skipped cases count against it. */
  passRate: number | null;
}

/** One live tool result, as a case hands it to the audit: kept in memory (the report keeps only its sizes). */
export interface Observation {
  caseId: string;
  tool: string;
  args: Record<string, unknown>;
  result: unknown;
  resultBytes: number;
  /**
   * What the model reads: the text content of a tool result, the contents of a resource. Size
   * findings count this; `resultBytes` (structuredContent included) is reported beside it. Absent
   * for a result dropped unread, whose whole size is all there is.
   */
  modelBytes?: number;
  /** A resource read by a case, not a tool call: only its size is audited. */
  kind?: 'resource';
  /** A case's own budget (`expect.resultBudgetBytes`), over the config's. */
  resultBudgetBytes?: number;
  /** JSON pointers (`*` for any key or index) whose values may differ between runs: left out of the comparison. */
  volatile?: string[];
  /** What the case reads of the result (`expect.structured`): a field it names is one a caller relies on. */
  structured?: Record<string, unknown>;
  /** The next page the result claimed, asked for once (cases/next-page.ts): its arguments and result. */
  nextPage?: { args: Record<string, unknown>; result: unknown };
  /** The case's place in its dataset: where a finding on this result comes from. */
  source?: Source;
}
