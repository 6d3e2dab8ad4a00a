import { eraOf, erasDiffer, revisionWentUp } from '../revision.js';
import { show, type ChangeFacts, type CodeMeta } from './meta.js';

/** Cases, discovery, roles, bundles and the gate's own policy: what the run observed beside the diff. */
export const RUN_CODES = {
  'case-broken': { area: 'cases', action: 'rollback', title: 'Frozen role cases broken' },
  // A case the baseline fails the same way: pre-existing, so reported and not judged unless a rule says hold.
  'case-already-failing': { area: 'cases', action: 'ignore', title: 'Cases failing on the baseline too' },
  // Also a reason a case fails; judged on its own too, once per tool (decide/signals.ts).
  'forbidden-tool-exposed': { area: 'cases', action: 'rollback', title: 'Forbidden tools exposed', caseFailure: true },

  'candidate-unavailable': {
    area: 'discovery',
    severity: 'breaking',
    action: 'rollback',
    title: 'Candidate unavailable',
    noun: ['unavailable candidate', 'unavailable candidates'],
    message: (f: { phase: string; message: string }) => `candidate unavailable (${f.phase}): ${f.message}`,
  },
  // The baseline could not start and its profile's fallback stood in (a saved report's contract, or
  // nothing): the comparison is not with the release in production, so a person looks.
  'baseline-fallback': {
    area: 'discovery',
    severity: 'dangerous',
    action: 'hold',
    title: 'Baseline fallback used',
    noun: ['baseline fallback', 'baseline fallbacks'],
    message: (f: Fallback) =>
      `The baseline profile "${f.profile}" could not start (${f.reason.phase}: ${f.reason.message}), so the candidate was compared with ${
        f.kind === 'empty'
          ? 'an empty server (no tools, prompts or resources): every tool of the candidate is new to it'
          : `its contract in the saved report ${f.report}`
      } (fallback: ${f.kind}), not with the release in production, and no case ran on the baseline. Fix the baseline's start, or have a person approve this run.`,
  },
  // A git baseline ran from a tree no mount namespace kept read-only (a checked copy of its own): a
  // candidate of the same user could have written it. Reported (every format says so), judged only
  // when a rule says hold: docs/baselines.md, "Where the tree cannot be kept read-only".
  'baseline-tree-unprotected': {
    area: 'discovery',
    severity: 'dangerous',
    action: 'ignore',
    title: 'Baseline tree not read-only',
    noun: ['baseline tree not read-only', 'baseline trees not read-only'],
    message: (f: { profiles: string[] }) =>
      `${f.profiles.map((p) => `"${p}"`).join(' and ')} ran from a copy of ${f.profiles.length > 1 ? 'their' : 'its'} built git tree that no mount namespace kept read-only (this machine allows none): a candidate of the same user could have written it (baseline-tree-unprotected; docs/security.md).`,
  },
  // What discovery found wrong in what a side listed (contract/discover.ts words it).
  'protocol-violation': {
    area: 'discovery',
    severity: 'dangerous',
    action: 'hold',
    title: 'Protocol violations',
    noun: ['protocol violation', 'protocol violations'],
    message: (f: { problem: string }) => f.problem,
  },
  // Fires (and holds) when the negotiated revision goes down, or moves to the other era (either way),
  // severity dangerous. An upgrade within one era is a safe change: listed in diff.changes, never a
  // signal (see decide/signals.ts), and so is an era move when the candidate still serves the
  // baseline's revision (diff/protocol.ts). Why an era move holds: docs/architecture.md "Protocol eras".
  'protocol-version-changed': {
    area: 'discovery',
    severity: (c: ChangeFacts) => (revisionWentUp(c.before, c.after) && !erasDiffer(c.before, c.after) ? 'safe' : 'dangerous'),
    action: 'hold',
    title: 'Protocol version went down or changed era',
    message: (c: ChangeFacts) =>
      `Negotiated protocol version changed from ${show(c.before)} to ${show(c.after)}${revisionNote(c.before, c.after)}.`,
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
  'role-surface-leak': {
    area: 'roles',
    severity: 'dangerous',
    action: 'hold',
    title: "Tools outside a role's allowlist",
    noun: ["tool outside a role's allowlist", "tools outside a role's allowlist"],
    message: (f: { tool: string; role: string; exposedBefore: boolean }) =>
      `${f.tool} is exposed to role ${f.role} but not in its allowedTools${f.exposedBefore ? ' (the baseline exposed it too)' : ''}`,
  },
  'role-destructive-limit': {
    area: 'roles',
    severity: 'dangerous',
    action: 'hold',
    title: 'Roles over their destructive tool cap',
    noun: ['role over its destructive tool cap', 'roles over their destructive tool cap'],
    message: (f: { role: string; destructive: string[]; cap: number }) =>
      `role ${f.role} may use ${f.destructive.length} destructive tools (${f.destructive.join(', ')}); maxDestructiveTools is ${f.cap}`,
  },
  'cross-server-name-collision': { area: 'bundle', action: 'hold', title: 'Tool names exposed by more than one server' },
  'gate-policy-changed': {
    area: 'policy',
    severity: 'dangerous',
    action: 'hold',
    title: 'Gate policy changed by this change',
    noun: ['gate policy change', 'gate policy changes'],
    message: policyMessage,
  },
  'exception-expired': { area: 'policy', action: 'hold', title: 'Expired exceptions' },
  'exception-stale': { area: 'policy', action: 'hold', title: 'Stale exceptions' },
} as const satisfies Record<string, CodeMeta>;

const ERA_WORDS = {
  legacy: 'the 2025 era (an `initialize` handshake opens a session)',
  modern: 'the 2026 era (stateless, `server/discover`)',
} as const;

/**
 * The clients an era move may strand: those of the baseline's era alone. Whether it does is the
 * era check's to say (contract/era-check.ts), so the change's note tells it, not its first sentence.
 */
export const strandedClients = (before: unknown): string =>
  eraOf(before) === 'modern' ? 'clients pinned to the 2026 revisions' : 'clients that speak only the 2025 revisions';

/** What a revision change means for callers: an era move names both eras. */
function revisionNote(before: unknown, after: unknown): string {
  const [from, to] = [eraOf(before), eraOf(after)];
  if (from && to && from !== to) return ` (an era change: from ${ERA_WORDS[from]} to ${ERA_WORDS[to]})`;
  return revisionWentUp(before, after)
    ? ' (a newer revision)'
    : ' (an older or unknown revision: what the baseline negotiated may be gone)';
}

/** What stood in for a baseline that could not start (the profile's `fallback`), as the report keeps it. */
interface Fallback {
  profile: string;
  kind: 'last-report' | 'empty';
  report: string | null;
  reason: { phase: string; message: string };
}

/** Policy files named in the message; the report lists them all. */
const MAX_POLICY_FILES = 20;

interface PolicyFile {
  file: string;
  change: string;
  /** The baseline profile that runs this file from the working tree. */
  runBy?: string;
}

/** The files of the gate's own policy a change edits (config/policy-drift.ts), and who alone can clear it. */
function policyMessage(f: { base: string; files: PolicyFile[] }): string {
  const list = (files: PolicyFile[]) =>
    `${files
      .slice(0, MAX_POLICY_FILES)
      .map((x) => `${x.file} (${x.change})`)
      .join(
        ', ',
      )}${files.length > MAX_POLICY_FILES ? `, and ${files.length - MAX_POLICY_FILES} more (the report's policy.files lists them)` : ''}`;
  const own = f.files.filter((x) => !x.runBy);
  const run = f.files.filter((x) => x.runBy);
  const parts = [
    ...(own.length ? [list(own)] : []),
    ...(run.length
      ? [
          `files the baseline profile "${run[0]!.runBy}" runs from the working tree, so the baseline is this change's own code: ${list(run)}; start the baseline from a git ref, a released package or a snapshot instead (docs/baselines.md)`,
        ]
      : []),
  ];
  return `This change edits the gate's own policy against ${f.base.slice(0, 12)}: ${parts.join('; and ')}. Only the policy's owners can clear this: they review it (protect these files with CODEOWNERS) and approve this run with the approve label, or land the change on the base branch on its own first. An exception in the config would edit the policy again.`;
}
