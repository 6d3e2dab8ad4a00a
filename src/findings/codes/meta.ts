import type { Subject } from '../subject.js';

/**
 * The facts every code carries, in one place: which part of the contract or the run it is about
 * (its area), what `decide/` does when it fires and no rule overrides that (its default action), a
 * short title for reasons and, for the codes the diff and the checks emit, how severe it is for
 * callers and the message it is told with. A saved report renders again from these alone.
 */
export type Action = 'rollback' | 'hold' | 'ignore';
export type Severity = 'breaking' | 'dangerous' | 'safe';
export type Area =
  | 'tools'
  | 'input'
  | 'output'
  | 'annotations'
  | 'text'
  | 'prompts'
  | 'resources'
  | 'capabilities'
  | 'cases'
  | 'discovery'
  | 'audit'
  | 'roles'
  | 'bundle'
  | 'policy'
  | 'release';

/** What a change's message and severity are made from. */
export interface ChangeFacts {
  subject: Subject;
  before: unknown;
  after: unknown;
}

/**
 * Where a change or finding of this code is the fix of a baseline finding, on the same probe: `probe`
 * anywhere in that probe's result (an error now flagged, whatever else its text became), `place` only
 * at the place the baseline's finding was about (a null key removed fixes the null keys; a field with
 * data removed from the same items fixes nothing). docs/audit.md, "The fixes the audit asks for".
 */
export type Resolves = Readonly<Record<string, 'probe' | 'place'>>;

/** A code that policy judges: rules and exceptions name it, and a reason lists it. */
interface Judged {
  area: Area;
  /** What `decide/` does when the code fires and no rule overrides it. */
  action: Action;
  /** What a short label for a reason says, before counts. */
  title: string;
  /** Also a reason a case fails (a `CaseFailure` code), beside what it is on its own. */
  caseFailure?: true;
  /**
   * The baseline findings (their codes) this code is the fix of, or the mirror of. A finding that
   * resolves one is that finding fixed, not raised; a change that does is held at most, its reason
   * saying "part of a fix for" it. Nothing else is spared: a result fixed one way can regress another.
   */
  resolves?: Resolves;
}

/**
 * A code the diff emits (`change()`, diff/change.ts): how severe the change is for callers (a
 * function where the facts decide, as for a protocol revision that goes up or down) and the
 * sentence its message starts with.
 */
export interface ChangeMeta extends Judged {
  severity: Severity | ((c: ChangeFacts) => Severity);
  message: (c: ChangeFacts) => string;
}

/**
 * A code a check emits (`finding()`, findings/finding.ts): its severity and its message, both from
 * the facts the check found (each code declares their type on `message`), and what one of them is
 * called, and many, where findings are counted: "Fixed in this release: 7 hidden next-page signals".
 */
export interface FindingMeta extends Judged {
  severity: Severity | ((facts: never) => Severity);
  message: (facts: never) => string;
  noun: readonly [one: string, many: string];
  /** Reported for what it tells, never judged: never a regression, never counted as still there (the tool definitions' cost). */
  informational?: true;
  /**
   * What the check looks for, where its title does not say it all: a sentence or two of markdown for
   * docs/audit.md, whose list of checks is written from the code table (scripts/write-docs.mjs).
   */
  doc?: string;
}

/**
 * A reason a frozen case fails, and only that: a case is judged as a whole (`case-broken`,
 * `case-already-failing`), so no rule names it. The case writes the failure's message.
 */
export interface FailureMeta {
  area: 'cases';
  title: string;
  caseFailure: true;
}

/** Judged codes whose messages are written where they fire (decide/, bundle/): broken cases, collisions, exceptions. */
export type SignalMeta = Judged;

export type CodeMeta = ChangeMeta | FindingMeta | SignalMeta | FailureMeta;

/** A value in a message: strings quoted, anything else as JSON, nothing as `absent`. */
export const show = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? 'absent'));

/** The tool a change names, for messages of tool codes. */
export const toolName = (c: ChangeFacts): string => (c.subject.kind === 'tool' ? c.subject.tool : '');

/** "1 prompt", "3 prompts": a count and the noun that fits it. */
export const counted = (count: number, [one, many]: readonly [string, string]): string => `${count} ${count === 1 ? one : many}`;
