import { isDestructive } from '../contract/annotations.js';
import type { Contract } from '../contract/types.js';
import { finding } from '../findings/finding.js';
import { onTool } from '../findings/subject.js';
import type { Finding } from '../findings/types.js';
import type { RoleDefinition } from './definitions.js';
import { toolMatcher } from './glob.js';

/** What one side exposes to a scoped role: tools inside its allowlist, tools outside it, and the destructive ones inside. */
export interface SurfaceView {
  allowed: string[];
  outside: string[];
  destructive: string[];
}

/**
 * A server has one tool surface and every agent that connects sees all of it, so a role's surface
 * is the whole contract; the allowlist says which part of it the role should see.
 */
export function surfaceView(role: RoleDefinition, contract: Contract): SurfaceView {
  const allowedTools = role.surface?.allowedTools;
  const allows = allowedTools ? toolMatcher(allowedTools) : () => true;
  const tools = contract.tools;
  return {
    allowed: tools.filter((t) => allows(t.name)).map((t) => t.name),
    outside: tools.filter((t) => !allows(t.name)).map((t) => t.name),
    destructive: tools.filter((t) => allows(t.name) && isDestructive(t.effectiveAnnotations)).map((t) => t.name),
  };
}

/**
 * The role findings of the candidate. A tool outside the allowlist is `role-surface-leak`; it is a
 * regression only when the baseline did not expose that tool already, so old exposure is reported,
 * not judged (the same rule as the audit). Too many destructive tools inside the allowlist is
 * `role-destructive-limit`, judged when the candidate has more of them than the baseline.
 */
export function roleFindings(role: RoleDefinition, baseline: Contract, candidate: Contract | null): Finding[] {
  if (!role.surface || !candidate) return [];
  const before = surfaceView(role, baseline);
  const after = surfaceView(role, candidate);
  const findings: Finding[] = [];
  // Where the dataset scopes the role: where a person changes the allowlist or the cap.
  const scope = role.surface.source ? { source: role.surface.source } : {};
  if (role.surface.allowedTools) {
    const exposedBefore = new Set(baseline.tools.map((t) => t.name));
    for (const tool of after.outside) {
      const old = exposedBefore.has(tool);
      const at = { side: 'candidate', subject: onTool(tool), role: role.name, regression: !old, ...scope } as const;
      findings.push(finding('role-surface-leak', { tool, role: role.name, exposedBefore: old }, at));
    }
  }
  const cap = role.surface.maxDestructiveTools;
  if (cap !== null && after.destructive.length > cap) {
    const at = { side: 'candidate', role: role.name, regression: after.destructive.length > before.destructive.length, ...scope } as const;
    findings.push(finding('role-destructive-limit', { role: role.name, destructive: after.destructive, cap }, at));
  }
  return findings;
}

/**
 * Which tools the roles can reach: a tool inside some role's allowlist (a role without one sees the
 * whole server), or one a case forbids. Null when no dataset defines a role: then there is no role
 * surface, and decide/ holds a new destructive tool instead of rolling it back.
 */
export function roleReach(roles: RoleDefinition[], forbidden: string[]): ((tool: string) => boolean) | null {
  if (roles.length === 0) return null;
  const scoped = roles.map((r) => (r.surface?.allowedTools ? toolMatcher(r.surface.allowedTools) : () => true));
  const banned = new Set(forbidden);
  return (tool) => banned.has(tool) || scoped.some((reaches) => reaches(tool));
}
