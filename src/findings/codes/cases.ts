import type { FailureMeta } from './meta.js';

/**
 * Why a frozen case fails (`caseResults[].failures[].code`): what the contract lacks that the case
 * needs, or what a probe got. A case is judged as a whole, `case-broken` or `case-already-failing`
 * (run.ts), so no rule names these; the case writes each failure's message (src/cases/). Two more
 * codes are reasons a case fails and judged on their own too: forbidden-tool-exposed and
 * result-too-large.
 */
export const CASE_FAILURE_CODES = {
  'required-tool-missing': { area: 'cases', caseFailure: true, title: 'A tool the case requires is not listed' },
  'required-prompt-missing': { area: 'cases', caseFailure: true, title: 'A prompt the case requires is not listed' },
  'required-resource-template-missing': {
    area: 'cases',
    caseFailure: true,
    title: 'A resource template the case requires is not listed',
  },
  'required-argument-missing': {
    area: 'cases',
    caseFailure: true,
    title: 'An argument the case requires is missing or no longer required',
  },
  'read-only-hint-mismatch': { area: 'cases', caseFailure: true, title: "A tool's effective readOnlyHint is not what the case requires" },
  'destructive-hint-mismatch': {
    area: 'cases',
    caseFailure: true,
    title: "A tool's effective destructiveHint is not what the case requires",
  },
  'probe-failed': { area: 'cases', caseFailure: true, title: 'A probe got no usable answer, or an error result' },
  'expectation-failed': { area: 'cases', caseFailure: true, title: "A probe's result does not meet the case's expect" },
} as const satisfies Record<string, FailureMeta>;
