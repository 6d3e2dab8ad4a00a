import type { GateConfig } from '../config/types.js';
import { CODES, codeRank, type Action, type JudgedCode } from '../findings/codes.js';
import { applyExceptions, type AppliedException } from './exceptions.js';
import { isFeatureCode, signalKey, type Signal } from './signals.js';

export type Verdict = 'Promote' | 'Hold' | 'Rollback';

export interface Reason {
  code: JudgedCode;
  action: Exclude<Action, 'ignore'>;
  count: number;
  message: string;
  /** The tools involved, sorted; empty for run-level reasons. */
  tools: string[];
}

export interface Decision {
  verdict: Verdict;
  reasons: Reason[];
  exceptionsApplied: AppliedException[];
  /** Set when a person approved this run (a PR label): the verdict is Promote, the reasons stay. */
  approval?: Approval;
  /** Set when the label is on the PR but the findings are not the ones it approved: the verdict stands. */
  staleApproval?: StaleApproval;
  /**
   * The keys (signalKey) of the signals behind the reasons: what an approval given now would cover.
   * The comment workflow applies the approve label from them (action/approval.ts), without the servers.
   */
  signalKeys?: string[];
}

interface StaleApproval {
  label: string;
  /** How many of this run's signals the approval does not cover (new since it was given). */
  uncovered: number;
  message: string;
}

interface Approval {
  by: 'label';
  label: string;
  /** What the gate decided before the approval. */
  verdictBefore: Exclude<Verdict, 'Promote'>;
  /** The signals the approval covers (signalKey): those present when the label was given. */
  covers?: string[];
}

export type Policy = GateConfig['promotion'];

const STRENGTH: Record<Action, number> = { ignore: 0, hold: 1, rollback: 2 };
const VERDICT: Record<Action, Verdict> = { ignore: 'Promote', hold: 'Hold', rollback: 'Rollback' };

/** Thresholds: a code fires only when its count passes the tolerated number. */
const tolerated = (code: JudgedCode, policy: Policy): number =>
  code === 'tool-added-destructive' ? policy.maxNewDestructiveTools : code === 'case-broken' ? policy.maxBrokenCases : 0;

/**
 * Policy + signals -> Decision. Pure: the same signals, policy and day always give the same
 * verdict with the same reasons in the same order.
 */
export function decide(signals: Signal[], policy: Policy, today: string): Decision {
  return decideByRole(signals, policy, today, []).decision;
}

/** What one role's own signals ask for: its share of the run's decision. */
export type RoleDecision = Pick<Decision, 'verdict' | 'reasons'>;

/**
 * The run's decision and, from the same pass, each role's: the exceptions are matched once, and a
 * role's verdict and reasons are those of its own signals (`Signal.roles`: its cases, the tools its
 * cases forbid, its surface findings), judged under the same policy, thresholds included. A role's
 * share is what a person scoping that role reads; the run's verdict is the gate's.
 */
export function decideByRole(
  signals: Signal[],
  policy: Policy,
  today: string,
  roles: string[],
): { decision: Decision; roles: Map<string, RoleDecision> } {
  const excepted = applyExceptions(signals, policy.exceptions, today);
  const { kept, applied, raised } = excepted;
  const decision: Decision = { ...judged([...kept, ...raised], policy), exceptionsApplied: applied };
  if (decision.reasons.length) decision.signalKeys = judgedKeys(decision.reasons, [...kept, ...raised]);
  const byRole = new Map<string, RoleDecision>();
  for (const role of roles) {
    const share = excepted.within((s) => s.roles?.includes(role) ?? false);
    byRole.set(role, judged([...share.kept, ...share.raised], policy));
  }
  return { decision, roles: byRole };
}

/** The reasons some signals give under the policy, strongest first, and the verdict they make. */
function judged(signals: Signal[], policy: Policy): RoleDecision {
  const byCode = new Map<JudgedCode, Signal[]>();
  for (const signal of signals) byCode.set(signal.code, [...(byCode.get(signal.code) ?? []), signal]);

  const reasons: Reason[] = [];
  for (const [code, fired] of byCode) {
    if (fired.length <= tolerated(code, policy)) continue;
    const ruled = (policy.rules[code] as Action | undefined) ?? defaultAction(code, policy);
    // One reason per action a code's signals end at: a break held under its cap (unconfirmed,
    // refuted live, outside every role) is not listed under the Rollback of its confirmed siblings.
    const byAction = new Map<Action, Signal[]>();
    for (const s of fired) {
      const action = capped(ruled, s, policy);
      if (action !== 'ignore') byAction.set(action, [...(byAction.get(action) ?? []), s]);
    }
    for (const [action, group] of byAction) reasons.push(reasonOf(code, action as Exclude<Action, 'ignore'>, group, ruled));
  }
  subsumeForbiddenExposure(reasons);
  reasons.sort((a, b) => STRENGTH[b.action] - STRENGTH[a.action] || reasonRank(a.code) - reasonRank(b.code));
  const strongest = reasons.reduce<Action>((acc, r) => (STRENGTH[r.action] > STRENGTH[acc] ? r.action : acc), 'ignore');
  return { verdict: VERDICT[strongest], reasons };
}

/** The reason for a code's signals that end at one action, naming their tools (or features) and, when a cap set the action, why. */
function reasonOf(code: JudgedCode, action: Exclude<Action, 'ignore'>, group: Signal[], ruled: Action): Reason {
  const tools = [...new Set(group.map((s) => s.tool).filter((t): t is string => t !== null))].sort();
  // Changes beside the tools name their prompt, resource or capability instead (decide/signals.ts).
  const features = isFeatureCode(code) ? [...new Set(group.flatMap((s) => (s.about ? [s.about] : [])))].sort() : [];
  // The policy Hold names its files in its own message, and the fallback Hold what stood in for the
  // baseline, so every format that shows reasons says them.
  if (code === 'gate-policy-changed' || code === 'baseline-fallback')
    return { code, action, count: group.length, message: group[0]!.message, tools };
  let message = reasonMessage(code, action, group.length, tools.length ? tools : features);
  const whys = STRENGTH[action] < STRENGTH[ruled] ? [...new Set(group.flatMap((s) => (s.cap ? [s.cap.why] : [])))].sort() : [];
  // A reason raised only by the fixes of baseline findings says so, whatever capped it.
  const fixes = group.every((s) => s.fixes) ? [...new Set(group.map((s) => s.fixes!))].sort() : [];
  if (fixes.length && action === 'hold') message = `${message.replace(/\.$/, '')}; held: part of a fix for ${fixes.join(', ')}.`;
  else if (whys.length && code !== 'tool-added-destructive')
    message = `${message.replace(/\.$/, '')}; held, not rolled back: ${whys.join('; ')}.`;
  return { code, action, count: group.length, message, tools };
}

/** The keys of the signals behind the reasons, sorted: what an approval covers. */
function judgedKeys(reasons: Reason[], signals: Signal[]): string[] {
  const judged = new Set(reasons.map((r) => r.code));
  return [...new Set(signals.filter((s) => judged.has(s.code)).map(signalKey))].sort();
}

/** A code's action when no rule names it: an unchanged version holds only when the candidate is a release. */
const defaultAction = (code: JudgedCode, policy: Policy): Action =>
  code === 'version-unchanged' && policy.release ? 'hold' : CODES[code].action;

/**
 * A signal's action under its cap (decide/signals.ts capOf); the old rule for new destructive tools
 * is one setting away, and a new bare tool on a server that declares no hints is judged like its
 * siblings only when `promotion.unannotatedServers` says so (docs/verdicts.md says why it holds by default).
 */
function capped(action: Action, signal: Signal, policy: Policy): Action {
  if (!signal.cap || STRENGTH[action] <= STRENGTH[signal.cap.action]) return action;
  if (signal.code === 'tool-added-destructive' && policy.destructiveToolsOutsideRoles === 'rollback') return action;
  if (signal.code === 'tool-added-destructive-by-default' && policy.unannotatedServers !== 'like-siblings') return action;
  return signal.cap.action;
}

/**
 * A person's approval for this one run, e.g. a PR label: Rollback or Hold becomes Promote. The
 * reasons are kept, so the report still lists what was approved. A Promote needs no approval.
 */
function approve(decision: Decision, label: string, covers?: string[]): Decision {
  if (decision.verdict === 'Promote') return decision;
  return { ...decision, verdict: 'Promote', approval: { by: 'label', label, verdictBefore: decision.verdict, ...(covers && { covers }) } };
}

/**
 * An approval that covers what was there when it was given, and nothing that came later. `covers`
 * null: the label was given for this run, so it covers this run's signals (those behind a reason).
 * Otherwise the run is approved only when every such signal is one the approval covered; a push
 * that brings a new finding leaves the verdict as it is, and says the label is stale.
 */
export function approveCovering(decision: Decision, signals: Signal[], label: string, covers: string[] | null): Decision {
  return approveKeys(decision, decision.signalKeys ?? judgedKeys(decision.reasons, signals), label, covers);
}

/**
 * approveCovering from the keys a saved report carries (`decision.signalKeys`): the comment
 * workflow approves a gate's report without its servers or signals.
 */
export function approveKeys(decision: Decision, keys: string[], label: string, covers: string[] | null): Decision {
  if (decision.verdict === 'Promote') return decision;
  if (covers === null) return approve(decision, label, keys);
  const known = new Set(covers);
  const uncovered = keys.filter((k) => !known.has(k)).length;
  if (!uncovered) return approve(decision, label, covers);
  const message = `The "${label}" label approved the findings present when it was given; ${uncovered} finding${uncovered === 1 ? ' is' : 's are'} new since, so the verdict stands. What clears this: remove the label and add it again (it then approves what is here now), or push a change that brings none of the new findings.`;
  return { ...decision, staleApproval: { label, uncovered, message } };
}

/**
 * A forbidden tool that is exposed breaks every case that forbids it. When those broken cases
 * already fire `case-broken` at least as strongly, the exposure is the same failure told twice:
 * it is folded into that reason (its tools listed there). Raise maxBrokenCases and it stands alone again.
 */
function subsumeForbiddenExposure(reasons: Reason[]): void {
  const cases = reasons.find((r) => r.code === 'case-broken');
  const exposed = reasons.findIndex((r) => r.code === 'forbidden-tool-exposed');
  if (!cases || exposed === -1 || STRENGTH[cases.action] < STRENGTH[reasons[exposed]!.action]) return;
  cases.tools = [...new Set([...cases.tools, ...reasons[exposed]!.tools])].sort();
  reasons.splice(exposed, 1);
}

/** The three classic rollback causes lead, in the order the original design told them. */
const LEADING: JudgedCode[] = [
  'required-argument-removed',
  'required-argument-added',
  'input-type-changed',
  'tool-added-destructive',
  'case-broken',
];
const reasonRank = (code: JudgedCode) => (LEADING.includes(code) ? LEADING.indexOf(code) - LEADING.length : codeRank(code));

/** Names listed in one reason; the rest are counted, and all of them are in the report's changes. */
const MAX_NAMED = 10;

function reasonMessage(code: JudgedCode, action: Action, count: number, tools: string[]): string {
  const meta = CODES[code];
  if (code === 'tool-added-destructive' && action === 'rollback')
    return 'Candidate introduced new destructive MCP tools into the role surface.';
  if (code === 'tool-added-destructive')
    return `New tools that declare themselves destructive, for a person to approve: ${count}${listed(tools)}.`;
  if (code === 'case-broken') return `Candidate failed ${count} frozen role cases.`;
  if (code === 'case-already-failing')
    return `${count} frozen role case${count === 1 ? ' fails' : 's fail'} on the baseline too, the same way.`;
  return `${meta.title}: ${count}${listed(tools)}.`;
}

function listed(tools: string[]): string {
  const named = tools.length > MAX_NAMED ? [...tools.slice(0, MAX_NAMED), `and ${tools.length - MAX_NAMED} more`] : tools;
  return named.length ? ` (${named.join(', ')})` : '';
}
