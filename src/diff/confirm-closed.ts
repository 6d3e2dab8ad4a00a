import type { Contract, JsonSchema } from '../contract/types.js';
import type { SchemaWork } from '../contract/schema-work.js';
import type { Change } from '../findings/types.js';
import { judgeOf } from '../witness/judge.js';
import { isObject } from '../base/json-object.js';
import { UNDECLARED_ARGUMENT } from '../findings/instance-path.js';
import { pairOf, searchSafely, takenAsServed, type PairMemo } from './confirm-ask.js';

/**
 * An input closed to undeclared arguments (`input-closed`) is held by policy: a model sends the
 * arguments the listing shows, and only a call that passes another is refused now. Whether the
 * server refuses it is the server's to say: a schema stamped `additionalProperties: false` by zod,
 * over a validator that strips unknown keys, refuses nothing. The probe is a call both schemas take
 * (its plain form) with one undeclared argument added, which the baseline as served takes and the
 * candidate's schema refuses. Sent live (cases/witness-calls.ts), an answer past the input (no
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
  if (!changes.some(closedAtTop)) return changes;
  const pairs: PairMemo = new Map();
  const befores = new Map(before.tools.map((t) => [t.name, t]));
  const afters = new Map(after.tools.map((t) => [t.name, t]));
  return changes.map((c) => {
    const [old, now] = [befores.get(c.tool ?? ''), afters.get(c.tool ?? '')];
    if (!closedAtTop(c) || !old || !now?.inputSchema || work.runSpent) return c;
    if (Object.hasOwn(now.inputSchema.properties ?? {}, UNDECLARED_ARGUMENT)) return c;
    const pair = pairOf(pairs, 'input', old, now);
    const [served, candidate] = [pair && takenAsServed(pair), judgeOf(now.inputSchema)];
    if (!pair || !served || typeof candidate === 'string') return c;
    // The plain call: one a caller makes from the baseline's listing, which both sides' schemas take.
    const found = searchSafely(pair.accept, NOTHING, {
      seed: SEED,
      budget: { instances, nodes: work.limits.perTool },
      work,
      spare: (instance: unknown) => !served(instance) || !candidate.accepts(instance),
    });
    if (found.kind !== 'found' || !isObject(found.instance)) return c;
    const probe = { ...found.instance, [UNDECLARED_ARGUMENT]: UNDECLARED_VALUE };
    if (!served(probe) || candidate.accepts(probe)) return c;
    return {
      ...c,
      witness: {
        status: 'found',
        side: 'input',
        instance: probe,
        refusal: candidate.refusal(),
        tried: found.tried,
        note: `the call ${JSON.stringify(found.instance)}, which both schemas take, with the undeclared argument "${UNDECLARED_ARGUMENT}" added: only the server can tell whether it refuses it`,
      },
    };
  });
}

/**
 * Whether a change is a closing of the whole argument object (not of an object inside it), with no
 * witness yet or only the spot check's evidence (diff/confirm.ts, `evidenced`).
 */
export function closedAtTop(c: Change): boolean {
  if (c.code !== 'input-closed' || c.subject.kind !== 'tool') return false;
  if (c.witness && (c.witness.status !== 'found' || c.witness.live || c.witness.optionLike)) return false;
  const at = c.subject.at;
  return at.length === 2 && at[0] === 'inputSchema' && at[1] === 'additionalProperties';
}
