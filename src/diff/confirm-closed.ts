import type { Contract, JsonSchema } from '../contract/types.js';
import type { SchemaWork } from '../contract/schema-work.js';
import type { Change } from '../findings/types.js';
import { judgeOf } from '../witness/judge.js';
import { isObject } from '../base/json-object.js';
import { UNDECLARED_ARGUMENT } from '../findings/instance-path.js';
import { editAt, valueAt } from '../witness/locations.js';
import { pairOf, searchSafely, takenAsServed, type PairMemo } from './confirm-ask.js';

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

/** What refuses every instance: the search then only looks for one its accepting schema takes. */
const NOTHING: JsonSchema = { not: {} };

export function probeClosedInputs(changes: Change[], before: Contract, after: Contract, instances: number, work: SchemaWork): Change[] {
  if (!changes.some((c) => closedObject(c) !== undefined)) return changes;
  const pairs: PairMemo = new Map();
  const befores = new Map(before.tools.map((t) => [t.name, t]));
  const afters = new Map(after.tools.map((t) => [t.name, t]));
  return changes.map((c) => {
    const [old, now, path] = [befores.get(c.tool ?? ''), afters.get(c.tool ?? ''), closedObject(c)];
    if (!path || !old || !now?.inputSchema || work.runSpent) return c;
    const pair = pairOf(pairs, 'input', old, now);
    const [served, candidate] = [pair && takenAsServed(pair), judgeOf(now.inputSchema)];
    if (!pair || !served || typeof candidate === 'string') return c;
    const holds = (instance: unknown) => {
      const object = valueAt(instance, path);
      return isObject(object) && !Object.hasOwn(object, UNDECLARED_ARGUMENT);
    };
    // The plain call: one a caller makes from the baseline's listing, which both sides' schemas
    // take, holding the closed object (built there first, as a search's focus).
    const found = searchSafely(pair.accept, NOTHING, {
      seed: SEED,
      budget: { instances, nodes: work.limits.perTool },
      work,
      focus: path.length ? [path] : undefined,
      spare: (instance: unknown) => !holds(instance) || !served(instance) || !candidate.accepts(instance),
    });
    if (found.kind !== 'found' || !holds(found.instance)) return c;
    const probe = editAt(found.instance, [...path, UNDECLARED_ARGUMENT], UNDECLARED_VALUE);
    if (!isObject(probe) || !served(probe) || candidate.accepts(probe)) return c;
    const where = path.length ? ` in "${path.join('/')}"` : '';
    return {
      ...c,
      witness: {
        status: 'found',
        side: 'input',
        instance: probe,
        refusal: candidate.refusal(),
        tried: found.tried,
        note: `the call ${JSON.stringify(found.instance)}, which both schemas take, with the undeclared argument "${UNDECLARED_ARGUMENT}" added${where}: only the server can tell whether it refuses it`,
      },
    };
  });
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
