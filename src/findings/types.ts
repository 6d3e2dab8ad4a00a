import type { ChangeCode, FindingCode, Severity } from './codes.js';
import type { Subject } from './subject.js';

export type Side = 'baseline' | 'candidate';

/**
 * Where something a person keeps in the repository says what a change, a finding or a case is
 * about: a case's `id` in its dataset, a tool in a committed snapshot, a role's scope. Recorded when
 * the file is read, so a format places it without reading any file again.
 */
export interface Source {
  /** Relative to the working directory of the run. */
  file: string;
  /** 1-based. */
  line: number;
}

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
  /** The instance search's evidence for a schema change (src/witness/): absent on other changes and in older reports. */
  witness?: Witness;
  /** What the run's results show of an output field's change (diff/observed-outputs.ts): absent on other changes and in older reports. */
  results?: ResultEvidence;
  /** Where the baseline's snapshot file writes its subject; absent for a live baseline and in older reports. */
  source?: Source;
  /** What a second session at the baseline's revision showed, on a change of protocol era (contract/era-check.ts); absent otherwise, and in older reports. */
  eraCheck?: EraCheck;
}

/**
 * An output field no longer declared (or no longer required), as the results of its tool held it on
 * each side. `still-returned`: every candidate result that could hold it does, so it is held, not
 * rolled back. `only-null`: the baseline's results held it only as null (`never`: not at all) and the
 * candidate's leave it out, part of a fix for `fixes`: held too. `gone`: the candidate's results lack
 * it where the baseline's carried a value (or a case reads it, `read`): the break stands. `unseen`:
 * no result of the tool holds a place for it; judged from the schemas alone.
 */
export interface ResultEvidence {
  outcome: 'still-returned' | 'only-null' | 'gone' | 'unseen';
  /** Results of the tool answered without an error, on each side. */
  baseline: number;
  candidate: number;
  read?: true;
  never?: true;
  /** `unseen` only: the candidate's schema still lets the field come (optional, or an open object), so it is held. */
  admitted?: true;
  /** The finding code the change is part of a fix for (findings/codes `resolves`). */
  fixes?: string;
}

/**
 * A change of protocol era, asked of the candidate at the baseline's revision (contract/era-check.ts).
 * `served`: it answered that revision and listed the contract the gate judged, so the baseline's
 * clients still connect; `not-served`: it refused that revision or answered another; `differs`: it
 * answered, but listed another contract; `not-checked`: nothing could be asked (a snapshot, the
 * run's deadline), so the era move is judged from the revisions alone.
 */
export interface EraCheck {
  outcome: 'served' | 'not-served' | 'differs' | 'not-checked';
  /** The revision asked for: the one the baseline negotiated. */
  revision: string;
  /** What was tried, in words. */
  tried: string;
  /** What the candidate answered, bounded (server text: inert in every format), or why nothing was asked. */
  answer: string;
}

/**
 * Evidence for a schema change. `found`: an instance one side's schema accepts and the other's
 * refuses (input: an argument object the baseline took and the candidate refuses; output: a result
 * the candidate may return that the baseline's schema refused). `unconfirmed`: the search spent its
 * budget without one; `unsearchable`: the schemas cannot be searched, and `note` says why.
 */
export interface Witness {
  /**
   * `proven`: no instance tells the schemas apart, and `note` says the proof (normal-form equality, a
   * structural rule, patterns compared as languages); the change is calm. `probe`: a call that sends
   * a removed argument, which both schemas take (diff/confirm-probe.ts): only the live server tells
   * whether it still serves it. Absent in older reports.
   */
  status: 'found' | 'unconfirmed' | 'unsearchable' | 'proven' | 'probe';
  side: 'input' | 'output';
  /** The instance, when found. */
  instance?: unknown;
  /** Why the refusing schema refuses it (ajv's first error), when found. */
  refusal?: string;
  /** Instances judged. */
  tried: number;
  /** What was tried, or why nothing could be. */
  note?: string;
  /**
   * Every refused call the search found passes a string that starts with '-', which a command line
   * reads as an option (a second search that spared such values found none): argument-injection
   * hardening, held rather than rolled back. Absent otherwise, and in older reports.
   */
  optionLike?: true;
  /**
   * The witness sent to the live servers (an input witness only, where the gate may call the tool):
   * what each side answered and what that makes of the break. Absent where no server was live or
   * no call could move the verdict, and in older reports.
   */
  live?: LiveCheck;
}

/**
 * A witness sent through tools/call to the candidate and the baseline (cases/witness-calls.ts).
 * `refuted`: the candidate answered without an error, so the break is held at most. `confirmed`:
 * the candidate refused it as invalid input and the baseline answered it. `unconfirmed`: any other
 * answer (an error for another reason, no answer, a baseline that refused it too); the break
 * stands. `already-refused`: both refused it as invalid input, the baseline naming the argument the
 * change is about, so its listed schema did not say what it took: the break is held at most.
 * `same-failure`: both failed on their way to another host with the same error, so the candidate
 * took the arguments: the break is held at most. `default-kept`: a call leaving out an argument now
 * required failed on both sides with the same error, naming the default the baseline declared for
 * it, so the candidate still fills it in: the break is held at most. `ignored`: a removed argument's
 * probe sent on a case's call, which the candidate answered exactly as it answers the case's call
 * without the argument, where the baseline's answer changed with it (cases/witness-grounds.ts).
 * `not-called`: `note` says why (consent, `limits.witnessCalls`, no live server).
 */
export interface LiveCheck {
  outcome: 'confirmed' | 'refuted' | 'already-refused' | 'same-failure' | 'default-kept' | 'ignored' | 'unconfirmed' | 'not-called';
  note?: string;
  /**
   * The case whose call (both sides answered it without an error) the witness was sent on, with the
   * witness's value for the argument the change is about (cases/witness-grounds.ts); absent where
   * the witness was sent as the search built it.
   */
  case?: string;
  candidate?: LiveAnswer;
  baseline?: LiveAnswer;
}

/** One side's answer to a witness: its kind, and its text made inert and bounded. */
export interface LiveAnswer {
  /** `result`: answered without an error; `error`: isError or a JSON-RPC error; `failed`: no answer read (timeout, exit, over the byte cap). */
  kind: 'result' | 'error' | 'failed';
  /** It reads as input validation (the SDK's "Input validation error", JSON-RPC -32602, pydantic's); on a `result`, an error written as data. */
  validation?: boolean;
  /**
   * What it said, inert, at most 300 characters. The baseline's text is kept only for an error: the
   * witness is chosen by the candidate's schema, so a result of the baseline is its data, which the
   * report (read by the pull request's author) must not carry. Absent then.
   */
  text?: string;
}

/**
 * Something a check observed on one side: a discovery problem, an audit check, a role's surface, the
 * gate's own policy, the version check. Plain data, made by `finding()` (findings/finding.ts): its
 * code's facts (severity, default action, message, noun) come from findings/codes; `tool` is derived
 * from `subject`.
 */
export interface Finding {
  code: FindingCode;
  severity: Severity;
  side: Side;
  /** What it is about: a tool (or a place in its definition), or the server. Reports written before it existed lack it (report/read.ts restores it). */
  subject: Subject;
  tool: string | null;
  message: string;
  /** Audit findings only: present on the candidate but not on the baseline. */
  regression?: boolean;
  /**
   * Audit findings only: `new` on the candidate, `still` on both sides, or `fixed` (a baseline
   * finding the candidate no longer has where it was looked for). Older reports lack it.
   */
  direction?: 'new' | 'still' | 'fixed';
  /** The client profile that refuses the tool or the result (`audit.clients`), for the client-* findings. */
  client?: string;
  /** The role it concerns, for role findings. */
  role?: string;
  /** The case whose probe produced it, for findings on live results. */
  caseId?: string;
  /** JSON pointer into the result, for findings that compare the two sides' results or that a result's schema refused. */
  path?: string;
  /** The JSON Schema keyword a result failed (`type`, `required`, `enum`…), for structured-content-invalid. */
  keyword?: string;
  /**
   * Where it comes from in the repository: the case whose probe showed it, the dataset that scopes
   * the role, the baseline snapshot's entry for its tool. Absent where none is (and in older reports).
   */
  source?: Source;
}
