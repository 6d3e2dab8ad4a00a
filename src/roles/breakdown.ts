import { caseTotals } from '../cases/replay.js';
import type { CaseResult, CaseTotals } from '../cases/types.js';
import type { Contract } from '../contract/types.js';
import { decide, type Policy, type Reason, type Verdict } from '../decide/decide.js';
import { collectSignals } from '../decide/signals.js';
import type { Finding } from '../findings/types.js';
import type { RoleDefinition } from './definitions.js';
import { roleFindings, surfaceView, type SurfaceView } from './surface.js';

/** One role's share of a run: its cases on both sides, what the candidate shows it, and what that asks for. */
export interface RoleReport {
  name: string;
  datasets: string[];
  /** null: the role is not scoped (every tool is allowed). */
  allowedTools: string[] | null;
  maxDestructiveTools: number | null;
  cases: { baseline: CaseTotals; candidate: CaseTotals };
  /** The candidate's surface as this role sees it; null when the candidate is unavailable. */
  surface: SurfaceView | null;
  findings: Finding[];
  /**
   * What this role's own signals ask for: its broken cases, its forbidden tools and its surface
   * findings. Contract-wide changes (the diff, the audit) weigh on the run's verdict, not here.
   */
  verdict: Verdict;
  reasons: Reason[];
}

const hasRole = (result: CaseResult, role: string): boolean => (result.roles ?? [result.role]).includes(role);

/** The per-role breakdown and every role finding of the run (to be judged with the run's other findings). */
export function roleBreakdown(
  roles: RoleDefinition[],
  sides: { baseline: Contract; candidate: Contract | null },
  cases: { baseline: CaseResult[]; candidate: CaseResult[] },
  policy: Policy,
  today: string,
): { roles: RoleReport[]; findings: Finding[] } {
  const reports = roles.map((role): RoleReport => {
    const findings = roleFindings(role, sides.baseline, sides.candidate);
    const candidateCases = cases.candidate.filter((r) => hasRole(r, role.name));
    const decision = decide(collectSignals([], candidateCases, findings), policy, today);
    return {
      name: role.name,
      datasets: role.datasets,
      allowedTools: role.surface?.allowedTools ?? null,
      maxDestructiveTools: role.surface?.maxDestructiveTools ?? null,
      cases: { baseline: caseTotals(cases.baseline.filter((r) => hasRole(r, role.name))), candidate: caseTotals(candidateCases) },
      surface: sides.candidate ? surfaceView(role, sides.candidate) : null,
      findings,
      verdict: decision.verdict,
      reasons: decision.reasons,
    };
  });
  return { roles: reports, findings: reports.flatMap((r) => r.findings) };
}
