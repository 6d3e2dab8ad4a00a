import { canonicalJson } from '../contract/canonical.js';
import type { Contract, ContractTool } from '../contract/types.js';
import type { ToolCallResult } from '../connect/session.js';
import type { Change, LiveAnswer, LiveCheck, Side } from '../findings/types.js';
import { consentGap, notReadOnlyWhy, openWorldWhy, type SideConsent } from './consent.js';
import { judgeAnswers, readAnswer } from './witness-answers.js';
import { answerDigest, graftFor, type Ground } from './witness-grounds.js';
import { isObject } from '../base/json-object.js';
import { isClosingProbe } from '../findings/instance-path.js';

/**
 * A break's witness sent to the live servers (docs/verdicts.md, "Confirmed live"). The search
 * (diff/confirm.ts) found an argument object the baseline's schema accepts and the candidate's
 * refuses; what the servers do with it settles what the schemas only claim. Only where a call can
 * move the verdict: a break (refuted, it is held at most), a required argument with a default
 * (confirmed, it rolls back), a removed argument's probe (refused, it rolls back) and a closing's
 * probe (taken, it is not held). Only where the consent guard (cases/consent.ts) lets the gate call
 * the tool on every live side, closed-world included. Witnesses go one at a time, in the changes'
 * order with closings' probes last, each to both sides at once (or to one side, then all of them
 * to the other, for sides that cannot run at once); the same call for two changes is sent once. At most `limit` witnesses per
 * run. Where a case made a call to the tool that both sides answered without an error (`grounds`,
 * cases/witness-grounds.ts), the witness is sent on that call's arguments, changed only at its own
 * argument, so it reaches the work the case reached.
 */
export interface LiveSide {
  side: Side;
  contract: Contract;
  consent: SideConsent;
  /** tools/call on the live server (under the request timeout and byte cap); null for a snapshot. */
  call: ((tool: string, args: Record<string, unknown>) => Promise<ToolCallResult>) | null;
  /** False once the server is gone: no further call is sent to it. */
  alive: () => boolean;
}

/** Whether a live answer could move this change's verdict, so its witness is worth a call. */
export const worthCalling = (c: Change): boolean =>
  c.tool !== null &&
  c.witness?.side === 'input' &&
  isObject(c.witness.instance) &&
  ((c.witness.status === 'found' && (c.severity === 'breaking' || c.code === 'required-argument-added-with-default')) ||
    // A removed argument's probe (diff/confirm-probe.ts): confirmed, the held removal is a break.
    c.witness.status === 'probe' ||
    // A closing's probe (diff/confirm-closed.ts): taken, the held closing is on paper only.
    isClosingProbe(c));

/** One witness to send: a tool and its arguments, and the changes (by position) it stands for. */
interface Planned {
  tool: string;
  args: Record<string, unknown>;
  at: number[];
  /** The case's call it is sent on, and whether it is a removed argument's probe (whose answer may show the argument ignored). */
  ground?: Ground;
  probe: boolean;
}

/**
 * The changes worth a call, by position: breaks' witnesses and removed arguments' probes first, in
 * the changes' order, then closings' probes. A closing is held by policy unless its answer shows it
 * on paper only, so `limits.witnessCalls` goes first to what may roll back.
 */
function callOrder(changes: Change[]): number[] {
  const worth = [...changes.keys()].filter((i) => worthCalling(changes[i]!));
  return [...worth.filter((i) => !isClosingProbe(changes[i]!)), ...worth.filter((i) => isClosingProbe(changes[i]!))];
}

/** An answer a side gave, with a digest of its result (in memory only); null when the side is a snapshot; `gone` when its server had ended. */
type Asked = { answer: LiveAnswer; digest: string | null } | null | 'gone';

/**
 * Which witnesses are sent, in the changes' order, each call once: the checks of those that are not
 * (a side that does not list the tool or may not call it, or past `limit`), and the calls to make.
 */
function planWitnesses(
  changes: Change[],
  sides: { baseline: LiveSide; candidate: LiveSide },
  limit: number,
  grounds: Map<string, Ground[]> = new Map(),
) {
  const checks = new Map<number, LiveCheck>();
  const planned: Planned[] = [];
  /** Each distinct call, in the order first met: its tool, and the plan's entry or why it is not sent. */
  const calls = new Map<string, { tool: string; entry: Planned | LiveCheck }>();
  if (limit <= 0 || !sides.candidate.call) return { checks, planned, calls };
  for (const i of callOrder(changes)) {
    const c = changes[i]!;
    const toolOf = (side: LiveSide) => side.contract.tools.find((t) => t.name === c.tool);
    const grafted = graftFor(c, grounds, { baseline: toolOf(sides.baseline), candidate: toolOf(sides.candidate) });
    const args = grafted?.args ?? (c.witness!.instance as Record<string, unknown>);
    const key = canonicalJson([c.tool, args]);
    const known = calls.get(key)?.entry;
    if (known && 'at' in known) known.at.push(i);
    else if (known) checks.set(i, known);
    if (known) continue;
    const spent = planned.length >= limit ? notCalled(`limits.witnessCalls (${limit}) was spent on earlier witnesses`) : null;
    const refused = notCallable(c.tool!, sides) ?? spent;
    if (refused) checks.set(i, refused);
    else planned.push({ tool: c.tool!, args, at: [i], probe: c.witness!.status === 'probe', ...(grafted && { ground: grafted.ground }) });
    calls.set(key, { tool: c.tool!, entry: refused ?? planned[planned.length - 1]! });
  }
  return { checks, planned, calls };
}

async function askOne(side: LiveSide, { tool, args }: Planned): Promise<Asked> {
  if (!side.call) return null;
  if (!side.alive()) return 'gone';
  try {
    const response = await side.call(tool, args);
    return {
      answer: readAnswer({ ok: true, response }),
      digest: response.droppedBytes === undefined ? answerDigest(response.result) : null,
    };
  } catch (error) {
    return { answer: readAnswer({ ok: false, error }), digest: null };
  }
}

function judged(p: Planned, candidate: Asked, baseline: Asked): LiveCheck {
  if (candidate === 'gone' || baseline === 'gone')
    return notCalled(`the ${candidate === 'gone' ? 'candidate' : 'baseline'}'s server is no longer running`);
  const check = judgeAnswers(candidate!.answer, baseline?.answer ?? null);
  if (!p.ground) return check;
  const onCase = { ...check, case: p.ground.caseId };
  return p.probe && check.outcome === 'refuted' && ignores(p.ground, candidate!, baseline) ? { ...onCase, outcome: 'ignored' } : onCase;
}

/**
 * Whether a probe sent on a case's call shows its argument ignored: both sides answered the case's
 * own call alike, the baseline answered differently once the argument was sent, and the candidate
 * answered exactly as it answers the case's call without it. A case whose values may differ between
 * runs (`volatile`) shows nothing, nor does a result over the byte cap.
 */
function ignores(ground: Ground, candidate: NonNullable<Exclude<Asked, 'gone'>>, baseline: Asked): boolean {
  const plain = ground.answers;
  if (!plain || plain.baseline !== plain.candidate || !baseline || baseline === 'gone') return false;
  if (candidate.digest === null || baseline.digest === null) return false;
  return candidate.digest === plain.candidate && baseline.digest !== plain.baseline;
}

/** Each call's check, set on every change it stands for, and said in a progress line. */
function settle(plan: ReturnType<typeof planWitnesses>, checkOf: (p: Planned) => LiveCheck, log: (line: string) => void) {
  for (const { tool, entry } of plan.calls.values()) {
    const check = 'at' in entry ? checkOf(entry) : entry;
    if ('at' in entry) for (const i of entry.at) plan.checks.set(i, check);
    log(`witness ${tool}: ${check.outcome}${check.note ? ` (${check.note})` : ''}`);
  }
  return plan.checks;
}

/**
 * The live check of each change worth a call, by position in `changes`. Empty when no side is live
 * or `limit` is 0: live confirmation is then off, and the report says nothing of it.
 */
export async function sendWitnesses(
  changes: Change[],
  sides: { baseline: LiveSide; candidate: LiveSide },
  limit: number,
  log: (line: string) => void = () => undefined,
  grounds?: Map<string, Ground[]>,
): Promise<Map<number, LiveCheck>> {
  const plan = planWitnesses(changes, sides, limit, grounds);
  const answers = new Map<Planned, [Asked, Asked]>();
  for (const p of plan.planned) answers.set(p, await Promise.all([askOne(sides.candidate, p), askOne(sides.baseline, p)]));
  return settle(plan, (p) => judged(p, ...answers.get(p)!), log);
}

/**
 * The same witnesses for two sides that cannot run at once (pipeline-apart.ts): `ask` sends every
 * one to a side while it is the one running, and `checks` judges the answers once both have given
 * theirs. `sides` gives each side's contract and consent, for which calls may be sent at all. They
 * are planned before either side's cases ran, so none is sent on a case's call.
 */
export function witnessesInTurn(
  changes: Change[],
  sides: { baseline: LiveSide; candidate: LiveSide },
  limit: number,
  log: (line: string) => void = () => undefined,
): { ask: (side: LiveSide) => Promise<void>; checks: () => Map<number, LiveCheck> } {
  const plan = planWitnesses(changes, sides, limit);
  const answers: Record<Side, Map<Planned, Asked>> = { baseline: new Map(), candidate: new Map() };
  return {
    ask: async (side) => {
      for (const p of plan.planned) answers[side.side].set(p, await askOne(side, p));
    },
    checks: () => settle(plan, (p) => judged(p, answers.candidate.get(p) ?? 'gone', answers.baseline.get(p) ?? 'gone'), log),
  };
}

/** Why the witness cannot be sent to this tool: a side whose consent guard refuses the call (a side gone is found as it is asked). */
function notCallable(tool: string, sides: { baseline: LiveSide; candidate: LiveSide }): LiveCheck | null {
  for (const side of [sides.candidate, sides.baseline]) {
    if (!side.call) continue;
    const definition = side.contract.tools.find((t) => t.name === tool);
    if (!definition) return notCalled(`the ${side.side} does not list ${tool}`);
    const why = refusal(definition, side);
    if (why) return notCalled(why);
  }
  return null;
}

function refusal(tool: ContractTool, side: LiveSide): string | null {
  const gap = consentGap(tool, side.contract, side.consent, { closedWorld: true });
  if (!gap) return null;
  if (gap.kind === 'never') return `on the ${side.side}, ${gap.reason}`;
  const why =
    gap.kind === 'side-effects' ? `is not read-only (${notReadOnlyWhy(tool)})` : `may reach outside systems (${openWorldWhy(tool)})`;
  return `on the ${side.side}, ${tool.name} ${why}; list it in the profile's safeTools, or set allowSideEffects: true on the profile, to send it witnesses`;
}

const notCalled = (note: string): LiveCheck => ({ outcome: 'not-called', note });
