import type { Contract, JsonSchema } from '../contract/types.js';
import { CODES } from '../findings/codes.js';
import type { Change } from '../findings/types.js';
import type { WitnessBudget, WitnessOutcome } from '../witness/search.js';
import { instancePath, remembered, schemasOf, searchSafely, type Ledger, type Side } from './confirm-ask.js';
import { calm, evidenced, spotted, withWitness } from './confirm-words.js';
import { isTooComplex, isUnread } from './schema-context.js';
import { canonicalJson } from '../contract/canonical.js';
import { SchemaWork } from '../contract/schema-work.js';
import { normalForm } from './schema-normal-form.js';

/**
 * The structural diff proposes; the instance search disposes (issue 26 §1-§2, docs/verdicts.md).
 * For each tool whose schemas changed, and each side:
 * - a change judged breaking gets a witness (for an input, an argument object the baseline's
 *   schema accepts and the candidate's refuses; for an output, a result the candidate's schema
 *   allows and the baseline's refused), or it is unconfirmed: held, not rolled back, with what
 *   was tried;
 * - a side whose schema changed with nothing judged breaking is spot-checked the same way, and a
 *   witness found there is a break of its own (`input-call-refused`, `output-result-unpromised`);
 * - a change the walk could not classify (`schema-changed`) with no witness either way is calm:
 *   the two schemas accept the same instances as far as the search can tell, so it is not held.
 * The search is seeded, and bounded per tool and per run by instances judged and schema nodes read.
 */
export interface SearchBudget extends WitnessBudget {
  /** Instances judged at most over the whole run; past it, what is left is not searched (and says so). */
  perRun: number;
}

export const DEFAULT_SEARCH_BUDGET: SearchBudget = { instances: 2000, nodes: 20_000, perRun: 200_000 };

/** Breaking by design without a witness (README, "Documented policy"): not searched, not downgraded. */
const BY_DESIGN = new Set(['required-argument-removed', 'argument-removed-after-deprecation']);
/**
 * Removals the lifecycle judges (diff/deprecation.ts): a call that still sends the argument may be
 * refused, and that is what the removal is, so a witness for it is no break of its own.
 */
const LIFECYCLE = new Set(['argument-removed-after-deprecation']);
const SEED = 20261125;
const MAX_FOCUSED = 6;
/** The share of the budget a spot check spends (a side whose schema changed with no break named). */
const SPOT = 0.5;
/** How much deeper the search goes before a break it could not witness is judged. */
const DEEP = 8;

export function confirmChanges(
  changes: Change[],
  before: Contract,
  after: Contract,
  budget: SearchBudget = DEFAULT_SEARCH_BUDGET,
  work: SchemaWork = new SchemaWork(),
): Change[] {
  const left: Ledger = { instances: budget.perRun, memo: new Map() };
  const byTool = new Map<string, Change[]>();
  for (const c of changes) if (c.tool !== null) byTool.set(c.tool, [...(byTool.get(c.tool) ?? []), c]);
  const afterByName = new Map(after.tools.map((t) => [t.name, t]));
  const out = new Map<Change, Change>();
  const added: Change[] = [];
  for (const old of before.tools) {
    const now = afterByName.get(old.name);
    if (!now || now.hash === old.hash) continue;
    for (const side of ['input', 'output'] as const) {
      const own = (byTool.get(old.name) ?? []).filter(
        (c) =>
          c.path.startsWith(side === 'input' ? '/inputSchema' : '/outputSchema') &&
          CODES[c.code].area !== 'text' &&
          c.code !== 'schema-annotation-changed',
      );
      // Schemas that differ only in what validates nothing (descriptions, titles, examples) are not searched.
      const [was, is] = side === 'input' ? [old.inputSchema, now.inputSchema] : [old.outputSchema, now.outputSchema];
      // Too complex to walk is too complex to search: held as it is.
      if (own.some(isTooComplex)) continue;
      if (
        !own.length &&
        (!was || !is || canonicalJson(was) === canonicalJson(is) || normalForm(was, was, work) === normalForm(is, is, work))
      )
        continue;
      const pair = schemasOf(side, old, now);
      if (!pair) continue;
      const judged = judgeSide(side, old.name, pair, own, budget, left, work);
      for (const [from, to] of judged.replaced) out.set(from, to);
      added.push(...judged.added);
    }
  }
  return [...changes.map((c) => out.get(c) ?? c), ...added];
}

interface Judged {
  replaced: [Change, Change][];
  added: Change[];
}

function judgeSide(
  side: Side,
  tool: string,
  pair: { accept: JsonSchema; refuse: JsonSchema; rawAccept: JsonSchema },
  own: Change[],
  budget: SearchBudget,
  left: Ledger,
  work: SchemaWork,
): Judged {
  const spent = (): WitnessOutcome | null =>
    left.instances <= 0
      ? { kind: 'unsearchable', reason: "the run's search budget (limits.witnessInstancesPerRun) was spent before this tool", tried: 0 }
      : work.runSpent
        ? { kind: 'unsearchable', reason: "the run's schema budget (limits.schemaNodesPerRun) was spent before this tool", tried: 0 }
        : null;
  const search = (accept: JsonSchema, refuse: JsonSchema, focus: string[][] = [], share = 1): WitnessOutcome => {
    const none = spent();
    if (none) return none;
    const instances = Math.min(Math.ceil(budget.instances * share), left.instances);
    return remembered(left, [accept, refuse, focus, instances, SEED], () =>
      searchSafely(accept, refuse, { seed: SEED, budget: { instances, nodes: budget.nodes }, focus, work }),
    );
  };
  // Calm: no instance tells the two schemas apart, either way. Searched once per side, when asked.
  let reverse: WitnessOutcome | undefined;
  const calmAfter = (forward: WitnessOutcome) =>
    proves(forward) && proves((reverse ??= search(pair.refuse, pair.rawAccept))) ? forward.tried + reverse.tried : null;

  const replaced: [Change, Change][] = [];
  const breaking = own.filter((c) => c.severity === 'breaking' && !BY_DESIGN.has(c.code));
  if (breaking.length) {
    let shared: WitnessOutcome | undefined;
    for (const [i, c] of breaking.entries()) {
      const outcome =
        i < MAX_FOCUSED
          ? search(pair.accept, pair.refuse, [instancePath(c)])
          : (shared ??= search(pair.accept, pair.refuse, breaking.map(instancePath)));
      replaced.push([c, settle(c, outcome)]);
    }
    return { replaced, added: [] };
  }
  /**
   * A break the first search did not witness gets a deeper one (DEEP times the instances, another
   * seed): found, it is a break with its witness; still nothing, it is unconfirmed and held.
   */
  function settle(c: Change, first: WitnessOutcome): Change {
    if (first.kind !== 'none') return withWitness(c, side, first);
    const instances = Math.min(budget.instances * DEEP, Math.max(0, left.instances));
    const focus = [instancePath(c)];
    const deep = remembered(
      left,
      [pair.accept, pair.refuse, focus, instances, SEED + 1],
      () => spent() ?? searchSafely(pair.accept, pair.refuse, { seed: SEED + 1, budget: { instances, nodes: budget.nodes }, focus, work }),
    );
    if (deep.kind !== 'none') return withWitness(c, side, deep);
    // Nothing either way, at depth: the walk over-claimed (a constraint the rest implied, a
    // condition that cannot fire), and the change is calm. A witness the other way: held, unconfirmed.
    const back = remembered(
      left,
      [pair.refuse, pair.rawAccept, focus, instances, SEED + 1],
      () =>
        spent() ?? searchSafely(pair.refuse, pair.rawAccept, { seed: SEED + 1, budget: { instances, nodes: budget.nodes }, focus, work }),
    );
    const tried = first.tried + deep.tried + back.tried;
    return proves(deep) && proves(back) && reachable(c) ? calm(c, side, tried) : withWitness(c, side, { ...deep, tried });
  }

  const flagged = own.filter((c) => c.severity === 'dangerous');
  // A spot check, where the walk found no break, spends half the budget: most such sides are calm.
  const outcome = search(pair.accept, pair.refuse, own.map(instancePath), SPOT);
  if (outcome.kind === 'found') {
    // Changes held by policy carry the witness as evidence and stay held. Where nothing the walk
    // flagged explains the witness (nothing flagged, or only what it could not classify), the
    // witness is a break of its own.
    for (const c of flagged) if (POLICY_HELD.has(c.code)) replaced.push([c, evidenced(c, side, outcome)]);
    const explained = (flagged.length > 0 || own.some((c) => LIFECYCLE.has(c.code))) && flagged.every((c) => POLICY_HELD.has(c.code));
    return { replaced, added: explained ? [] : [withWitness(spotted(side, tool), side, outcome)] };
  }
  const calmable = flagged.filter((c) => CALMABLE.has(c.code) && !isUnread(c) && reachable(c));
  if (outcome.kind !== 'none' || !calmable.length) return { replaced, added: [] };
  // Before a held change is let go as calm, the search goes deeper both ways: a miss must not be silence.
  const instances = Math.min(budget.instances * DEEP, Math.max(0, left.instances));
  // Focused where the calmable changes are: a search whose instances never reach them proves nothing.
  const focus = calmable.map(instancePath);
  const deep = (accept: JsonSchema, refuse: JsonSchema) =>
    remembered(
      left,
      [accept, refuse, focus, instances, SEED + 1],
      () => spent() ?? searchSafely(accept, refuse, { seed: SEED + 1, budget: { instances, nodes: budget.nodes }, focus, work }),
    );
  const forward = deep(pair.accept, pair.refuse);
  if (forward.kind === 'found') {
    for (const c of flagged) if (POLICY_HELD.has(c.code)) replaced.push([c, evidenced(c, side, forward)]);
    const explained = flagged.every((c) => POLICY_HELD.has(c.code));
    return { replaced, added: explained ? [] : [withWitness(spotted(side, tool), side, forward)] };
  }
  const back = forward.kind === 'none' ? deep(pair.refuse, pair.rawAccept) : forward;
  if (proves(forward) && proves(back) && calmAfter(outcome) !== null) {
    const tried = outcome.tried + forward.tried + back.tried + (reverse?.tried ?? 0);
    for (const c of calmable) replaced.push([c, calm(c, side, tried)]);
  }
  return { replaced, added: [] };
}

/**
 * Codes held by documented policy though an instance may witness them (README, "Documented
 * policy"): a witness is their evidence, not a reason to roll back.
 */
const POLICY_HELD = new Set<string>([
  'input-constraint-declared',
  'input-enum-declared',
  'input-enum-dropped',
  'input-closed',
  'input-property-removed',
  'argument-removed-after-deprecation',
  'required-argument-added-with-default',
  'input-default-changed',
  'input-schema-repaired',
  'output-enum-widened',
  'output-constraint-loosened',
  'output-variant-added',
]);

/**
 * Held changes that are not held when no instance tells the schemas apart either way: what the
 * walk could not classify, and a bound or value list declared that the rest already implied
 * (`minLength: 0` on a string). Other held changes stay held: a search that misses a witness must
 * not turn a policy Hold into silence.
 */
const CALMABLE = new Set<string>([
  'schema-changed',
  'input-constraint-declared',
  'input-enum-declared',
  'output-variant-added',
  'output-constraint-loosened',
  'output-enum-widened',
]);

/**
 * Whether a search that found nothing says anything: it must have built instances the accepting
 * schema takes. One that could build none (a pattern it cannot satisfy on a required field) proves
 * nothing, and a change is not calmed on it.
 */
const proves = (o: WitnessOutcome): boolean => o.kind === 'none' && !o.barren;

/**
 * How deep the search builds instances on purpose (deeper it only walks at random): a change
 * further down is never calmed, since finding nothing there proves nothing. It is held.
 */
const MAX_CALM_DEPTH = 5;
const reachable = (c: Change): boolean => instancePath(c).length <= MAX_CALM_DEPTH;
