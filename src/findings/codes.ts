import { ANNOTATION_CODES } from './codes/annotations.js';
import { AUDIT_CODES } from './codes/audit.js';
import { FEATURE_CODES } from './codes/features.js';
import { INPUT_CODES } from './codes/input.js';
import type { CodeMeta, Severity } from './codes/meta.js';
import { OUTPUT_CODES } from './codes/output.js';
import { GOVERNANCE_CODES, RUN_CODES } from './codes/run.js';
import { RELEASE_CODES } from './codes/release.js';
import { TEXT_CODES } from './codes/text.js';
import { TOOL_CODES } from './codes/tools.js';

export type { Action, Area, ChangeFacts, CodeMeta, Severity } from './codes/meta.js';

/**
 * Every finding code the gate can emit, with its facts (codes/meta.ts): one entry per code, in
 * files by area. Codes are the public vocabulary: users write them in `promotion.rules` and
 * `exceptions`, so they never change spelling. The order here is the order reasons and changes
 * are listed in.
 */
export const CODES = {
  ...TOOL_CODES,
  ...RELEASE_CODES,
  ...INPUT_CODES,
  ...OUTPUT_CODES,
  ...ANNOTATION_CODES,
  ...TEXT_CODES,
  ...FEATURE_CODES,
  ...RUN_CODES,
  ...AUDIT_CODES,
  ...GOVERNANCE_CODES,
} as const satisfies Record<string, CodeMeta>;

export type Code = keyof typeof CODES;

/** The codes the diff emits: each has a severity and a message of its own. */
export type ChangeCode = {
  [C in Code]: (typeof CODES)[C] extends { message: unknown } ? C : never;
}[Code];

export const isCode = (value: string): value is Code => Object.hasOwn(CODES, value);

/** Codes in declaration order: the order reasons and changes are listed in. */
export const CODE_ORDER: readonly Code[] = Object.keys(CODES) as Code[];
export const codeRank = (code: string): number => {
  const rank = CODE_ORDER.indexOf(code as Code);
  return rank === -1 ? CODE_ORDER.length : rank;
};

/** The facts of a code the diff emits. */
export const changeMeta = (code: ChangeCode): Required<Pick<CodeMeta, 'severity' | 'message'>> & CodeMeta => CODES[code] as never;

/** A change code's severity for these facts. */
export function severityOf(code: ChangeCode, facts: Parameters<NonNullable<CodeMeta['message']>>[0]): Severity {
  const { severity } = changeMeta(code);
  return typeof severity === 'function' ? severity(facts) : severity;
}
