import type { Contract, JsonSchema } from '../contract/types.js';
import type { SchemaWork } from '../contract/schema-work.js';
import type { Change } from '../findings/types.js';
import { judgeOf } from '../witness/judge.js';
import { pairOf, searchSafely, takenAsServed, type PairMemo } from './confirm-ask.js';

/**
 * A removed argument that selected an operation (`action: search | fetch`): the candidate's schema
 * still takes a call that sends it (its object is open), so no instance tells the two schemas apart,
 * yet the server may no longer serve the operation it chose ("Missing required argument: path").
 * Only the server can say. The probe is a call the baseline's schema takes that sends the removed
 * argument, which the candidate's schema takes too; sent live (cases/witness-calls.ts), a refusal as
 * invalid input where the baseline answered confirms the break (diff/confirm-live.ts,
 * `input-option-refused`), and an answer leaves the change held as it was.
 */
const SEED = 20261202;

export function probeRemovedArguments(changes: Change[], before: Contract, after: Contract, instances: number, work: SchemaWork): Change[] {
  const pairs: PairMemo = new Map();
  const befores = new Map(before.tools.map((t) => [t.name, t]));
  const afters = new Map(after.tools.map((t) => [t.name, t]));
  return changes.map((c) => {
    const name = removedArgument(c);
    const [old, now] = [befores.get(c.tool ?? ''), afters.get(c.tool ?? '')];
    if (name === null || !old || !now?.inputSchema || work.runSpent) return c;
    const pair = pairOf(pairs, 'input', old, now);
    if (!pair) return c;
    // An instance the baseline takes, refused by a schema that refuses only calls sending the argument.
    const sends: JsonSchema = { not: { required: [name] } };
    const served = takenAsServed(pair);
    const found = searchSafely(pair.accept, sends, {
      seed: SEED,
      budget: { instances, nodes: work.limits.perTool },
      focus: [[name]],
      work,
      // A call the baseline as served refuses never worked: no probe of what it did.
      ...(served && { spare: (instance: unknown) => !served(instance) }),
    });
    if (found.kind !== 'found') return c;
    const candidate = judgeOf(JSON.parse(JSON.stringify(now.inputSchema)) as JsonSchema);
    // A schema that refuses the call is the search's to witness (diff/confirm.ts), not the server's.
    if (typeof candidate === 'string' || !candidate.accepts(found.instance)) return c;
    return {
      ...c,
      witness: {
        status: 'probe',
        side: 'input',
        instance: found.instance,
        tried: found.tried,
        note: `a call the baseline's schema takes that sends "${name}", which the candidate's schema takes too: only the server can tell whether it still serves it`,
      },
    };
  });
}

/** The top-level argument an `input-property-removed` change is about, when it has no witness yet. */
function removedArgument(c: Change): string | null {
  if (c.code !== 'input-property-removed' || c.witness || c.subject.kind !== 'tool') return null;
  const at = c.subject.at;
  return at.length === 3 && at[0] === 'inputSchema' && at[1] === 'properties' ? at[2]! : null;
}
