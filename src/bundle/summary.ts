import { decide, type Policy, type Verdict } from '../decide/decide.js';
import type { Report } from '../report/types.js';
import { GATE_NAME, GATE_VERSION } from '../base/version.js';
import { BUNDLE_SCHEMA_VERSION, type BundleSummary, type ServerSummary } from '../report/bundle-summary.js';
import { collisions, collisionSignals } from './collisions.js';

/** One server's outcome as the summary takes it: a report, or the reason there is none. */
export type ServerOutcome =
  | { name: string; report: Report; reportPath: string | null }
  | { name: string; report: null; error: string; baseline: string | null; candidate: string | null };

const STRENGTH: Record<Verdict, number> = { Promote: 0, Hold: 1, Rollback: 2 };
const worst = (verdicts: Verdict[]): Verdict => verdicts.reduce<Verdict>((a, v) => (STRENGTH[v] > STRENGTH[a] ? v : a), 'Promote');

/**
 * Server outcomes -> the bundle summary. Pure, and the one place `run` and `merge` both go
 * through. An undecided server leaves the bundle undecided (exit 3), unless another server is
 * already Rollback: no outcome of the missing one could make the bundle better than that.
 */
export function summarizeBundle(
  outcomes: ServerOutcome[],
  policy: Policy,
  meta: { startedAt: string; finishedAt: string; config: string | null },
): BundleSummary {
  const servers = [...outcomes].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map(serverSummary);
  const found = collisions(
    outcomes.flatMap((o) =>
      o.report
        ? [{ name: o.name, baseline: o.report.baseline.tools.map((t) => t.name), candidate: o.report.candidate.tools.map((t) => t.name) }]
        : [],
    ),
  );
  const own = decide(collisionSignals(found), policy, meta.startedAt.slice(0, 10));
  const verdict = worst([own.verdict, ...servers.flatMap((s) => (s.verdict ? [s.verdict] : []))]);
  const decided = servers.every((s) => s.status === 'decided') || verdict === 'Rollback';
  return {
    schemaVersion: BUNDLE_SCHEMA_VERSION,
    kind: 'bundle',
    generatedBy: { name: GATE_NAME, version: GATE_VERSION },
    startedAt: meta.startedAt,
    finishedAt: meta.finishedAt,
    config: meta.config,
    verdict: decided ? verdict : null,
    decided,
    servers,
    collisions: found,
    decision: { verdict: own.verdict, reasons: own.reasons, exceptionsApplied: own.exceptionsApplied },
  };
}

function serverSummary(outcome: ServerOutcome): ServerSummary {
  if (!outcome.report) {
    return {
      name: outcome.name,
      status: 'undecided',
      verdict: null,
      baseline: outcome.baseline,
      candidate: outcome.candidate,
      reasons: [],
      error: outcome.error,
      report: null,
    };
  }
  const { decision, baseline, candidate } = outcome.report;
  return {
    name: outcome.name,
    status: 'decided',
    verdict: decision.verdict,
    baseline: baseline.profile,
    candidate: candidate.profile,
    reasons: decision.reasons,
    error: null,
    report: outcome.reportPath,
    ...(decision.approval && { approval: decision.approval }),
    ...(decision.staleApproval && { staleApproval: decision.staleApproval }),
  };
}
