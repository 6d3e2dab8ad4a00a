import type { CaseFailure, CaseResult } from './types.js';

/** What makes two failures the same: the code, the tool and the check, never the message (it quotes live output). */
const failureKey = (f: CaseFailure) => `${f.code}\u0000${f.tool ?? ''}\u0000${f.check ?? ''}`;

/**
 * Judges the candidate's cases as regressions, as the audit is judged. Each failure of a failed
 * candidate case is `regression: false` when the baseline's same case (same dataset and id) failed
 * the same way (code, tool, check), and the case is `regression: false` when all of its failures
 * are. Otherwise (the baseline passed, was skipped, was not reached, or failed some other way) it is
 * a regression. A case that fails on both sides the same way is the server's old state, or the
 * world's (an external API down for both), not this release's doing.
 *
 * `errorsAsData` names the probes (`caseId|tool`) whose baseline answer was an error written as
 * data (the audit's error-not-flagged): there the candidate's isError is the same error, flagged
 * now, so the case never passed in truth and its failure is not a regression (docs/verdicts.md).
 */
export function markRegressions(
  baseline: CaseResult[],
  candidate: CaseResult[],
  errorsAsData: ReadonlySet<string> = new Set(),
): CaseResult[] {
  const before = new Map(baseline.map((r) => [`${r.dataset}\u0000${r.id}`, r]));
  return candidate.map((result) => {
    if (result.status !== 'failed') return result;
    const old = before.get(`${result.dataset}\u0000${result.id}`);
    const known = new Set(old?.status === 'failed' ? old.failures.map(failureKey) : []);
    const failures = result.failures.map((f) => {
      if (f.code === 'probe-failed' && f.check === 'isError' && errorsAsData.has(`${result.id}|${f.tool ?? ''}`))
        return {
          ...f,
          regression: false,
          message: `${f.message} (the baseline answered this probe with an error too, written as data without isError)`,
        };
      return { ...f, regression: !known.has(failureKey(f)) };
    });
    return { ...result, failures, regression: failures.some((f) => f.regression) };
  });
}
