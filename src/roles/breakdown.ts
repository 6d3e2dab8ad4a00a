import { caseTotals } from '../cases/replay.js';
import type { CaseResult, CaseTotals } from '../cases/types.js';
import type { Contract } from '../contract/types.js';
import type { RoleDecision } from '../decide/decide.js';
import { rolesOf } from '../decide/signals.js';
import type { Finding } from '../findings/types.js';
import type { RoleDefinition } from './definitions.js';
import { roleFindings, surfaceView, type SurfaceView } from './surface.js';

/** One role's share of a run: its cases on both sides, what the candidate shows it, and what that asks for. */
export interface RoleReport extends RoleShare, RoleDecision {}

/**
 * A role's facts, before anything is decided. The decision of the run gives each role its verdict
 * and reasons from the same pass (decide/decide.ts decideByRole): what this role's own signals ask
 * for, its broken cases, its forbidden tools and its surface findings. Contract-wide changes (the
 * diff, the audit) weigh on the run's verdict, not here.
 */
export interface RoleShare {
  name: string;
  datasets: string[];
  /** null: the role is not scoped (every tool is allowed). */
  allowedTools: string[] | null;
  maxDestructiveTools: number | null;
  cases: { baseline: CaseTotals; candidate: CaseTotals };
  /** The candidate's surface as this role sees it; null when the candidate is unavailable. */
  surface: SurfaceView | null;
  findings: Finding[];
}

const hasRole = (result: CaseResult, role: string): boolean => rolesOf(result).includes(role);

/** Each role's share of the run, and every role finding (to be judged with the run's other findings). */
export function roleBreakdown(
  roles: RoleDefinition[],
  sides: { baseline: Contract; candidate: Contract | null },
  cases: { baseline: CaseResult[]; candidate: CaseResult[] },
): { roles: RoleShare[]; findings: Finding[] } {
  const shares = roles.map((role): RoleShare => ({
    name: role.name,
    datasets: role.datasets,
    allowedTools: role.surface?.allowedTools ?? null,
    maxDestructiveTools: role.surface?.maxDestructiveTools ?? null,
    cases: {
      baseline: caseTotals(cases.baseline.filter((r) => hasRole(r, role.name))),
      candidate: caseTotals(cases.candidate.filter((r) => hasRole(r, role.name))),
    },
    surface: sides.candidate ? surfaceView(role, sides.candidate) : null,
    findings: roleFindings(role, sides.baseline, sides.candidate),
  }));
  return { roles: shares, findings: shares.flatMap((r) => r.findings) };
}

/** The role's share with what the run's decision gives it, in the report's order of keys. */
export const roleReport = (share: RoleShare, decided: RoleDecision): RoleReport => ({
  ...share,
  verdict: decided.verdict,
  reasons: decided.reasons,
});
