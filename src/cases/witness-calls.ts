import { canonicalJson } from '../contract/canonical.js';
import type { Contract, ContractTool } from '../contract/types.js';
import type { ToolCallResult } from '../connect/session.js';
import type { Change, LiveAnswer, LiveCheck, Side } from '../findings/types.js';
import { consentGap, notReadOnlyWhy, openWorldWhy, type SideConsent } from './consent.js';
import { judgeAnswers, readAnswer } from './witness-answers.js';

/**
 * Issue 26 §3: a break's witness sent to the live servers. The search (diff/confirm.ts) found an
 * argument object the baseline's schema accepts and the candidate's refuses; what the servers do
 * with it settles what the schemas only claim. Only where a call can move the verdict: a break
 * (refuted, it is held at most) and a required argument with a default (confirmed, it rolls back).
 * Only where the consent guard (cases/consent.ts) lets the gate call the tool on every live side,
 * closed-world included. Witnesses go one at a time, in the changes' order, each to both sides at
 * once; the same call for two changes is sent once. At most `limit` witnesses per run.
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
  c.witness?.status === 'found' &&
  c.witness.side === 'input' &&
  isRecord(c.witness.instance) &&
  (c.severity === 'breaking' || c.code === 'required-argument-added-with-default');

/**
 * The live check of each change worth a call, by position in `changes`. Empty when no side is live
 * or `limit` is 0: live confirmation is then off, and the report says nothing of it.
 */
export async function sendWitnesses(
  changes: Change[],
  sides: { baseline: LiveSide; candidate: LiveSide },
  limit: number,
  log: (line: string) => void = () => undefined,
): Promise<Map<number, LiveCheck>> {
  const checks = new Map<number, LiveCheck>();
  if (limit <= 0 || !sides.candidate.call) return checks;
  const sent = new Map<string, LiveCheck>();
  let calls = 0;
  for (const [i, c] of changes.entries()) {
    if (!worthCalling(c)) continue;
    const args = c.witness!.instance as Record<string, unknown>;
    const key = canonicalJson([c.tool, args]);
    const known = sent.get(key);
    if (known) {
      checks.set(i, known);
      continue;
    }
    let check = notCallable(c.tool!, sides);
    if (!check && calls >= limit) check = notCalled(`limits.witnessCalls (${limit}) was spent on earlier witnesses`);
    if (!check) {
      calls++;
      check = await sendOne(c.tool!, args, sides);
    }
    sent.set(key, check);
    log(`witness ${c.tool}: ${check.outcome}${check.note ? ` (${check.note})` : ''}`);
    checks.set(i, check);
  }
  return checks;
}

async function sendOne(
  tool: string,
  args: Record<string, unknown>,
  sides: { baseline: LiveSide; candidate: LiveSide },
): Promise<LiveCheck> {
  const ask = async (side: LiveSide): Promise<LiveAnswer | null> => {
    if (!side.call) return null;
    try {
      return readAnswer({ ok: true, response: await side.call(tool, args) });
    } catch (error) {
      return readAnswer({ ok: false, error });
    }
  };
  const [candidate, baseline] = await Promise.all([ask(sides.candidate), ask(sides.baseline)]);
  return judgeAnswers(candidate!, baseline);
}

/** Why the witness cannot be sent to this tool: a side gone, or a side whose consent guard refuses the call. */
function notCallable(tool: string, sides: { baseline: LiveSide; candidate: LiveSide }): LiveCheck | null {
  for (const side of [sides.candidate, sides.baseline]) {
    if (!side.call) continue;
    if (!side.alive()) return notCalled(`the ${side.side}'s server is no longer running`);
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

const isRecord = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);
