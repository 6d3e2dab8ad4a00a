import type { Subject } from '../subject.js';

/**
 * The facts every finding code carries, in one place: which part of the contract or the run it is
 * about (its area), how severe it is for callers, what `decide/` does when it fires and no rule
 * overrides that (its default action), a short title for reasons, and, for the codes the diff
 * emits, the sentence its message starts with. A saved report renders again from these alone.
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

export interface CodeMeta {
  area: Area;
  /** What `decide/` does when the code fires and no rule overrides it. */
  action: Action;
  /** What a short label for a reason says, before counts. */
  title: string;
  /**
   * Codes the diff emits: how severe the change is for callers (a function where the facts decide,
   * as for a protocol revision that goes up or down) and the sentence its message starts with.
   * Codes of findings (cases, audit, discovery...) have neither: their checks write the message.
   */
  severity?: Severity | ((c: ChangeFacts) => Severity);
  message?: (c: ChangeFacts) => string;
}

/** A value in a message: strings quoted, anything else as JSON, nothing as `absent`. */
export const show = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? 'absent'));

/** The tool a change names, for messages of tool codes. */
export const toolName = (c: ChangeFacts): string => (c.subject.kind === 'tool' ? c.subject.tool : '');
