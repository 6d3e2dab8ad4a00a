import type { Finding } from '../findings/types.js';
import { ERROR_ANSWER } from './expect.js';
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
 */
export function markRegressions(baseline: CaseResult[], candidate: CaseResult[]): CaseResult[] {
  const before = new Map(baseline.map((r) => [`${r.dataset}\u0000${r.id}`, r]));
  return candidate.map((result) => {
    if (result.status !== 'failed') return result;
    const old = before.get(`${result.dataset}\u0000${result.id}`);
    const known = new Set(old?.status === 'failed' ? old.failures.map(failureKey) : []);
    const failures = result.failures.map((f) => ({ ...f, regression: !known.has(failureKey(f)) }));
    return { ...result, failures, regression: failures.some((f) => f.regression) };
  });
}

/**
 * A probe that now answers `isError` where the baseline's same probe returned its error as data
 * (`error-not-flagged` on the baseline): the same failure, flagged now, as the write-ups ask ("set
 * isError, or the model reads your 404 as data"). That is the fix, listed as fixed by the audit, not
 * a case this release broke: the failure is `regression: false` and says why.
 */
export function markFlaggedErrors(candidate: CaseResult[], findings: Finding[]): CaseResult[] {
  const unflagged = new Set(
    findings.filter((f) => f.side === 'baseline' && f.code === 'error-not-flagged').map((f) => `${f.caseId}\u0000${f.tool}`),
  );
  if (!unflagged.size) return candidate;
  return candidate.map((result) => {
    if (result.status !== 'failed' || result.regression === false) return result;
    const failures = result.failures.map((f) =>
      f.regression !== false &&
      f.code === 'probe-failed' &&
      f.message.startsWith(ERROR_ANSWER) &&
      unflagged.has(`${result.id}\u0000${f.tool}`)
        ? {
            ...f,
            regression: false,
            message: `${f.message} (the baseline returned this error as data, without isError: error-not-flagged, fixed)`,
          }
        : f,
    );
    return { ...result, failures, regression: failures.some((f) => f.regression) };
  });
}
