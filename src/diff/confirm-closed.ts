import type { Contract, JsonSchema } from '../contract/types.js';
import type { SchemaWork } from '../contract/schema-work.js';
import type { Change } from '../findings/types.js';
import { judgeOf } from '../witness/judge.js';
import { isObject } from '../base/json-object.js';
import { UNDECLARED_ARGUMENT } from '../findings/instance-path.js';
import { editAt, valueAt } from '../witness/locations.js';
import { pairOf, searchSafely, takenAsServed, type PairMemo, type SchemaPair } from './confirm-ask.js';

/**
 * An input closed to undeclared arguments (`input-closed`) is held by policy: a model sends the
 * arguments the listing shows, and only a call that passes another is refused now. Whether the
 * server refuses it is the server's to say: a schema stamped `additionalProperties: false` by zod,
 * over a validator that strips unknown keys, refuses nothing. The probe is a call both schemas take
 * (its plain form) with one undeclared argument added, which the baseline as served takes and the
 * candidate's schema refuses. An object closed inside the arguments (a property's, a list's items)
 * gets the undeclared member in that object, on a call that holds one (the first item of a list).
 * Sent live (cases/witness-calls.ts), an answer past the input (no
 * error, or the baseline's own failure on the way to another host) shows the closing is on paper
 * only (diff/confirm-live.ts: its severity safe, not held); a refusal as invalid input confirms it,
 * and it stays held. Where the spot check already gave the closing a witness (a baseline that
 * declares no property, or says `additionalProperties: true`), the probe takes its place.
 */
const SEED = 20261203;

const UNDECLARED_VALUE = true;

/**
 * Closings probed per tool, the shallowest first (the whole call before an object inside it), then
 * in the changes' order: a release that closes every object of a generated schema (155 places on
 * 15 tools) would search for each, and a run sends at most `limits.witnessCalls` (20 by default)
 * anyway. The rest stay held, as before.
 */
export const PROBES_PER_TOOL = 4;

/** What refuses every instance: the search then only looks for one its accepting schema takes. */
const NOTHING: JsonSchema = { not: {} };

type Probe = { instance: Record<string, unknown>; plain: unknown; refusal: string; tried: number } | null;

export function probeClosedInputs(changes: Change[], before: Contract, after: Contract, instances: number, work: SchemaWork): Change[] {
  if (!changes.some((c) => closedObject(c) !== undefined)) return changes;
  const pairs: PairMemo = new Map();
  // A family of tools built from one definition, closed alike, is searched once per closed place.
  const probes = new Map<string, Probe>();
  const chosen = firstPerTool(changes);
  const befores = new Map(before.tools.map((t) => [t.name, t]));
  const afters = new Map(after.tools.map((t) => [t.name, t]));
  return changes.map((c) => {
    const [old, now, path] = [befores.get(c.tool ?? ''), afters.get(c.tool ?? ''), closedObject(c)];
    if (!path || !chosen.has(c) || !old?.inputSchema || !now?.inputSchema || work.runSpent) return c;
    // A schema that names the argument anywhere may declare it where the probe puts it; a tuple's
    // items are governed by place, so the first item may not be where the closing is.
    if (names(old.inputSchema) || names(now.inputSchema)) return c;
    if (c.subject.kind === 'tool' && c.subject.at.includes('items') && (hasTuple(old.inputSchema) || hasTuple(now.inputSchema))) return c;
    const pair = pairOf(pairs, 'input', old, now);
    if (!pair) return c;
    const key = `${pair.key}\u0000${JSON.stringify(path)}`;
    let probe = probes.get(key);
    if (probe === undefined) probes.set(key, (probe = probeFor(pair, now.inputSchema, path, instances, work)));
    if (!probe) return c;
    const where = path.length ? ` in ${closedPlace(c)}` : '';
    return {
      ...c,
      witness: {
        status: 'found',
        side: 'input',
        instance: probe.instance,
        refusal: probe.refusal,
        tried: probe.tried,
        note: `the call ${JSON.stringify(probe.plain)}, which both schemas take, with the undeclared argument "${UNDECLARED_ARGUMENT}" added${where}: only the server can tell whether it refuses it`,
      },
    };
  });
}

/** The closings each tool probes: its first PROBES_PER_TOOL, the shallowest first. */
function firstPerTool(changes: Change[]): Set<Change> {
  const byTool = new Map<string, { c: Change; depth: number; index: number }[]>();
  changes.forEach((c, index) => {
    const path = closedObject(c);
    if (path === undefined) return;
    const list = byTool.get(c.tool ?? '') ?? [];
    if (!list.length) byTool.set(c.tool ?? '', list);
    list.push({ c, depth: path.length, index });
  });
  const chosen = new Set<Change>();
  for (const list of byTool.values())
    for (const { c } of list.sort((a, b) => a.depth - b.depth || a.index - b.index).slice(0, PROBES_PER_TOOL)) chosen.add(c);
  return chosen;
}

/**
 * A call both schemas take that holds the closed object, found as a witness is, whose copy with
 * the undeclared argument added in that object the baseline as served takes and the candidate's
 * schema refuses. Every condition is the search's, so a call that meets the first and not the rest
 * (one matching an open branch of a union) does not end it.
 */
function probeFor(pair: SchemaPair, schema: JsonSchema, path: string[], instances: number, work: SchemaWork): Probe {
  const [served, candidate] = [takenAsServed(pair), judgeOf(schema)];
  if (!served || typeof candidate === 'string') return null;
  const probed = (instance: unknown) => {
    const object = valueAt(instance, path);
    if (!isObject(object) || Object.hasOwn(object, UNDECLARED_ARGUMENT)) return null;
    const probe = editAt(instance, [...path, UNDECLARED_ARGUMENT], UNDECLARED_VALUE);
    return isObject(probe) && served(probe) && !candidate.accepts(probe) ? probe : null;
  };
  // The plain call: one a caller makes from the baseline's listing, which both sides' schemas
  // take, holding the closed object (built there first, as a search's focus).
  const found = searchSafely(pair.accept, NOTHING, {
    seed: SEED,
    budget: { instances, nodes: work.limits.perTool },
    work,
    focus: path.length ? [path] : undefined,
    spare: (instance: unknown) => !served(instance) || !candidate.accepts(instance) || !probed(instance),
  });
  const probe = found.kind === 'found' && candidate.accepts(found.instance) ? probed(found.instance) : null;
  return probe && found.kind === 'found'
    ? { instance: probe, plain: found.instance, refusal: candidate.refusal(), tried: found.tried }
    : null;
}

/** Whether a schema names the probe's argument anywhere: as a property, a required name, or text. */
const names = (schema: JsonSchema) => JSON.stringify(schema).includes(JSON.stringify(UNDECLARED_ARGUMENT));

/** Whether a schema has a tuple anywhere (`prefixItems`, a list of `items`, `additionalItems`); walked without recursion. */
function hasTuple(schema: JsonSchema): boolean {
  const stack: unknown[] = [schema];
  while (stack.length) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (isObject(node)) {
      if (Object.hasOwn(node, 'prefixItems') || Object.hasOwn(node, 'additionalItems') || Array.isArray(node.items)) return true;
      stack.push(...Object.values(node));
    }
  }
  return false;
}

/**
 * Where a closing is, as a person reads it: `"filter"`, `the items of "pages"`, `"a.b"`; a closing
 * of one alternative of a union says so. Property names are the server's, clipped.
 */
export function closedPlace(c: Change): string {
  const at = c.subject.kind === 'tool' ? c.subject.at : [];
  let place = '';
  for (let i = 1; i < at.length - 1; i++) {
    if (at[i] === 'properties' && i + 1 < at.length - 1) place += `${place ? '.' : ''}${at[++i]}`;
    else if (at[i] === 'items') place += '[]';
  }
  const items = /(\[\])+$/.exec(place)?.[0].length ?? 0;
  const name = place.slice(0, place.length - items);
  const clipped = JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
  const where = items ? `the items of ${clipped}` : clipped;
  return at.some((step) => step === 'anyOf' || step === 'oneOf') ? `${where} (one of its alternatives)` : where;
}

/**
 * The instance path of the object a closing closes, where a probe can reach it: the whole argument
 * object (`[]`), or one inside it reached through properties and list items, and through the
 * branches of `anyOf`, `oneOf` and `allOf`, which keep the instance where it is. Only a closing with
 * no witness yet, or only the spot check's evidence (diff/confirm.ts, `evidenced`), is probed.
 */
export function closedObject(c: Change): string[] | undefined {
  if (c.code !== 'input-closed' || c.subject.kind !== 'tool') return undefined;
  if (c.witness && (c.witness.status !== 'found' || c.witness.live || c.witness.optionLike)) return undefined;
  const at = c.subject.at;
  if (at[0] !== 'inputSchema' || at.at(-1) !== 'additionalProperties') return undefined;
  const path: string[] = [];
  for (let i = 1; i < at.length - 1; i++) {
    const step = at[i]!;
    if (step === 'properties' && i + 1 < at.length - 1) path.push(at[++i]!);
    else if (step === 'items') path.push('0');
    else if ((step === 'anyOf' || step === 'oneOf' || step === 'allOf') && /^\d+$/.test(at[i + 1] ?? '')) i++;
    else return undefined;
  }
  return path;
}
