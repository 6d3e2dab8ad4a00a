import { createHash } from 'node:crypto';
import { canonicalJson } from '../contract/canonical.js';
import type { ContractTool, JsonSchema } from '../contract/types.js';
import type { Change } from '../findings/types.js';
import { isObject } from '../base/json-object.js';
import { instancePath, isClosingProbe, UNDECLARED_ARGUMENT, witnessArgument } from '../findings/instance-path.js';
import { editAt } from '../witness/locations.js';
import { judgeOf, type Judge } from '../witness/judge.js';
import type { Observation } from './types.js';

/**
 * Witnesses that reach the work (docs/verdicts.md, "On a case's arguments"). The search's witness is
 * built from the schemas alone: where a tool reads a file or a record, its made-up path or id fails
 * on both sides ("no such file: x"), and the call shows nothing about the change. A case the team
 * wrote made a call both sides answered without an error: the witness is sent on that call's
 * arguments instead, changed only at the argument the change is about. What it answers then comes
 * from the same work the case did, and a difference is the change's.
 */

/** A call a case made that both sides answered without an error, with what each answered (as a digest, kept in memory only). */
export interface Ground {
  caseId: string;
  tool: string;
  args: Record<string, unknown>;
  /** A digest of each side's result (its content and structuredContent, canonical); null where the case marks values volatile. */
  answers: { baseline: string; candidate: string } | null;
}

/** What a witness is sent on: the case's call, changed at the witness's argument. */
export interface Grafted {
  ground: Ground;
  args: Record<string, unknown>;
}

/** A digest of what a result says (content, structuredContent), or null when it is no result without an error. */
export function answerDigest(result: unknown): string | null {
  if (!isObject(result) || result.isError === true) return null;
  const said = { content: result.content ?? null, structuredContent: result.structuredContent ?? null };
  return createHash('sha256').update(canonicalJson(said)).digest('hex');
}

/**
 * The calls both sides' cases made with the same arguments and answered without an error, by tool,
 * in a fixed order (case id, then arguments): the replay runs cases at once, so the order they
 * ended in is no order.
 */
export function groundsOf(baseline: Observation[], candidate: Observation[]): Map<string, Ground[]> {
  const key = (o: Observation) => canonicalJson([o.caseId, o.tool, o.args]);
  const answered = new Map<string, Observation>();
  for (const o of candidate) if (o.kind !== 'resource' && answerDigest(o.result) !== null) answered.set(key(o), o);
  const grounds = new Map<string, Ground[]>();
  for (const o of baseline) {
    const twin = o.kind === 'resource' ? undefined : answered.get(key(o));
    const [b, c] = [answerDigest(o.result), twin && answerDigest(twin.result)];
    if (!twin || b === null || !c) continue;
    const volatile = (o.volatile?.length ?? 0) > 0 || (twin.volatile?.length ?? 0) > 0;
    const ground: Ground = { caseId: o.caseId, tool: o.tool, args: o.args, answers: volatile ? null : { baseline: b, candidate: c } };
    grounds.set(o.tool, [...(grounds.get(o.tool) ?? []), ground]);
  }
  for (const list of grounds.values())
    list.sort((x, y) => (x.caseId === y.caseId ? cmp(canonicalJson(x.args), canonicalJson(y.args)) : cmp(x.caseId, y.caseId)));
  return grounds;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A judge of a tool's input schema as served (judgeOf caches by the schema's text), or null where ajv cannot read it. */
function judge(schema: JsonSchema | null | undefined): Judge | null {
  const made = schema ? judgeOf(schema) : null;
  return made && typeof made !== 'string' ? made : null;
}

/**
 * The first case's call on which this change's witness can be sent: the call's arguments with the
 * witness's value for the top-level argument the change is about (left out where the witness leaves
 * it out). It must still tell the schemas apart as the witness did: the baseline as served takes it,
 * and the candidate refuses it (a break's witness) or takes it too (a removed argument's probe).
 * Null where no case's call does, or the graft is the case's call itself.
 */
export function graftFor(
  c: Change,
  grounds: Map<string, Ground[]>,
  tools: { baseline: ContractTool | undefined; candidate: ContractTool | undefined },
): Grafted | null {
  const witness = c.witness;
  const name = witnessArgument(c);
  if (!c.tool || !witness || !isObject(witness.instance) || name === undefined) return null;
  const list = grounds.get(c.tool);
  const [before, after] = [judge(tools.baseline?.inputSchema), judge(tools.candidate?.inputSchema)];
  if (!list?.length || !before || !after) return null;
  const instance = witness.instance as Record<string, unknown>;
  // A closing's probe inside the arguments: the undeclared argument goes in the case's own object,
  // so the call still reaches the case's work; a case whose call lacks that object is passed over.
  const inside = isClosingProbe(c) ? instancePath(c) : [];
  for (const ground of list) {
    let args: Record<string, unknown> = { ...ground.args };
    if (inside.length) {
      const edited = editAt(ground.args, [...inside, UNDECLARED_ARGUMENT], true);
      if (!isObject(edited)) continue;
      args = edited;
    } else if (Object.hasOwn(instance, name)) args[name] = instance[name];
    else delete args[name];
    if (canonicalJson(args) === canonicalJson(ground.args)) continue;
    const refused = !after.accepts(args);
    if (before.accepts(args) && refused === (witness.status !== 'probe')) return { ground, args };
  }
  return null;
}
