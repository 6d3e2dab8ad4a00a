import { ANNOTATION_CODES } from './codes/annotations.js';
import { AUDIT_CONTRACT_CODES } from './codes/audit-contract.js';
import { AUDIT_LESSON_CODES } from './codes/audit-lessons.js';
import { AUDIT_RESULT_CODES } from './codes/audit-results.js';
import { CASE_FAILURE_CODES } from './codes/cases.js';
import { FEATURE_CODES } from './codes/features.js';
import { INPUT_CODES } from './codes/input.js';
import type { Action, ChangeFacts, CodeMeta, FindingMeta, Resolves, Severity } from './codes/meta.js';
import { OUTPUT_CODES } from './codes/output.js';
import { GOVERNANCE_CODES, RUN_CODES } from './codes/run.js';
import { RELEASE_CODES, RELEASE_FINDING_CODES } from './codes/release.js';
import { TEXT_CODES } from './codes/text.js';
import { TOOL_CODES } from './codes/tools.js';

export type { Action, Area, ChangeFacts, CodeMeta, Severity } from './codes/meta.js';

/**
 * Every code the gate can emit, with its facts (codes/meta.ts): one entry per code, in files by
 * area. Codes are the public vocabulary: users write them in `promotion.rules` and `exceptions`, so
 * they never change spelling. The order here is the order reasons and changes are listed in.
 */
export const CODES = {
  ...TOOL_CODES,
  ...RELEASE_CODES,
  ...RELEASE_FINDING_CODES,
  ...INPUT_CODES,
  ...OUTPUT_CODES,
  ...ANNOTATION_CODES,
  ...TEXT_CODES,
  ...FEATURE_CODES,
  ...CASE_FAILURE_CODES,
  ...RUN_CODES,
  ...AUDIT_RESULT_CODES,
  ...AUDIT_CONTRACT_CODES,
  ...AUDIT_LESSON_CODES,
  ...GOVERNANCE_CODES,
} as const satisfies Record<string, CodeMeta>;

export type Code = keyof typeof CODES;
type Entry<C extends Code> = (typeof CODES)[C];

/** The codes policy judges: every code but the reasons a case fails, which it judges as the case. */
export type JudgedCode = { [C in Code]: Entry<C> extends { action: Action } ? C : never }[Code];

/** The codes the checks emit (`finding()`): each has a severity, a message from its facts, and a noun. */
export type FindingCode = { [C in Code]: Entry<C> extends { noun: unknown } ? C : never }[Code];

/** The codes the diff emits (`change()`): each has a severity and a message of its own. */
export type ChangeCode = {
  [C in Code]: Entry<C> extends { noun: unknown } ? never : Entry<C> extends { message: unknown } ? C : never;
}[Code];

/** Why a case fails (`CaseFailure`), some judged on their own too. */
export type FailureCode = { [C in Code]: Entry<C> extends { caseFailure: true } ? C : never }[Code];

/** What a finding of this code is made from: the type its message takes. */
export type FindingFacts<C extends FindingCode> = Entry<C>['message'] extends (facts: infer F) => string ? F : never;

export const isCode = (value: string): value is Code => Object.hasOwn(CODES, value);
/** A code that `promotion.rules` and `exceptions` may name. */
export const isJudgedCode = (value: string): value is JudgedCode => isCode(value) && 'action' in CODES[value];

/** Codes in declaration order: the order reasons and changes are listed in. */
export const CODE_ORDER: readonly Code[] = Object.keys(CODES) as Code[];
export const JUDGED_CODES: readonly JudgedCode[] = CODE_ORDER.filter(isJudgedCode);
export const codeRank = (code: string): number => {
  const rank = CODE_ORDER.indexOf(code as Code);
  return rank === -1 ? CODE_ORDER.length : rank;
};

/** The facts of a code the diff emits. */
export const changeMeta = (code: ChangeCode): Extract<CodeMeta, { message: (c: ChangeFacts) => string }> => CODES[code] as never;

/** A change code's severity for these facts. */
export function severityOf(code: ChangeCode, facts: ChangeFacts): Severity {
  const { severity } = changeMeta(code);
  return typeof severity === 'function' ? severity(facts) : severity;
}

/** The facts of a code a check emits; undefined for a code this build does not know (a report of another build). */
export const findingMeta = (code: string): FindingMeta | undefined =>
  isCode(code) && 'noun' in CODES[code] ? (CODES[code] as FindingMeta) : undefined;

/** The baseline findings a code is the fix of (codes/meta.ts `resolves`): none for most codes. */
export const resolvesOf = (code: string): Resolves => (isCode(code) && 'resolves' in CODES[code] ? (CODES[code].resolves as Resolves) : {});
