import { eraOf, erasDiffer, revisionWentUp } from '../revision.js';
import { show, type CodeMeta } from './meta.js';

/** Cases, discovery, roles, bundles and the gate's own policy: what the run observed beside the diff. */
export const RUN_CODES = {
  'case-broken': { area: 'cases', action: 'rollback', title: 'Frozen role cases broken' },
  // A case the baseline fails the same way: pre-existing, so reported and not judged unless a rule says hold.
  'case-already-failing': { area: 'cases', action: 'ignore', title: 'Cases failing on the baseline too' },
  'forbidden-tool-exposed': { area: 'cases', action: 'rollback', title: 'Forbidden tools exposed' },

  'candidate-unavailable': { area: 'discovery', action: 'rollback', title: 'Candidate unavailable' },
  // The baseline could not start and its profile's fallback stood in (a saved report's contract, or
  // nothing): the comparison is not with the release in production, so a person looks.
  'baseline-fallback': { area: 'discovery', action: 'hold', title: 'Baseline fallback used' },
  // A git baseline ran from a tree no mount namespace kept read-only (a checked copy of its own): a
  // candidate of the same user could have written it. Reported (every format says so), judged only
  // when a rule says hold: docs/baselines.md, "Where the tree cannot be kept read-only".
  'baseline-tree-unprotected': { area: 'discovery', action: 'ignore', title: 'Baseline tree not read-only' },
  'protocol-violation': { area: 'discovery', action: 'hold', title: 'Protocol violations' },
  // Fires (and holds) when the negotiated revision goes down, or moves to the other era (either way),
  // severity dangerous. An upgrade within one era is a safe change: listed in diff.changes, never a
  // signal (see decide/signals.ts). Why an era move holds: docs/architecture.md "Protocol eras".
  'protocol-version-changed': {
    area: 'discovery',
    severity: (c) => (revisionWentUp(c.before, c.after) && !erasDiffer(c.before, c.after) ? 'safe' : 'dangerous'),
    action: 'hold',
    title: 'Protocol version went down or changed era',
    message: (c) => `Negotiated protocol version changed from ${show(c.before)} to ${show(c.after)}${revisionNote(c.before, c.after)}.`,
  },
} as const satisfies Record<string, CodeMeta>;

/**
 * Roles: a dataset's `role: { name, allowedTools, maxDestructiveTools }`. Hold, not rollback: the tool
 * may be sound and the allowlist stale, so a person decides which one to change. A new destructive
 * tool is already a rollback through tool-added-destructive.
 * Bundles: two servers of one bundle whose candidates expose the same tool name; an agent connected
 * to both cannot tell which one it calls.
 * Policy: the change under review edits the gate's own config or datasets (see config/policy-drift.ts).
 */
export const GOVERNANCE_CODES = {
  'role-surface-leak': { area: 'roles', action: 'hold', title: "Tools outside a role's allowlist" },
  'role-destructive-limit': { area: 'roles', action: 'hold', title: 'Roles over their destructive tool cap' },
  'cross-server-name-collision': { area: 'bundle', action: 'hold', title: 'Tool names exposed by more than one server' },
  'gate-policy-changed': { area: 'policy', action: 'hold', title: 'Gate policy changed by this change' },
  'exception-expired': { area: 'policy', action: 'hold', title: 'Expired exceptions' },
  'exception-stale': { area: 'policy', action: 'hold', title: 'Stale exceptions' },
} as const satisfies Record<string, CodeMeta>;

const ERA_WORDS = {
  legacy: 'the 2025 era (an `initialize` handshake opens a session)',
  modern: 'the 2026 era (stateless, `server/discover`)',
} as const;

/** What a revision change means for callers: an era move names both eras and who can no longer connect. */
function revisionNote(before: unknown, after: unknown): string {
  const [from, to] = [eraOf(before), eraOf(after)];
  if (from && to && from !== to) {
    const stranded = from === 'legacy' ? 'clients that speak only the 2025 revisions' : 'clients pinned to the 2026 revisions';
    return ` (an era change: from ${ERA_WORDS[from]} to ${ERA_WORDS[to]}; ${stranded} can no longer connect)`;
  }
  return revisionWentUp(before, after)
    ? ' (a newer revision)'
    : ' (an older or unknown revision: what the baseline negotiated may be gone)';
}
