import type { Change } from '../findings/types.js';
import type { SchemaWork } from '../contract/schema-work.js';
import type { WitnessBudget, WitnessOptions, WitnessOutcome } from '../witness/search.js';
import { refusesOptionLike, remembered, searchSafely, takenAsServed, type Ledger, type SchemaPair } from './confirm-ask.js';
import type { Hint } from './confirm-hints.js';
import { boundOfItsOwn, placeOf, refusedAlone } from './confirm-place.js';

/**
 * The searches diff/confirm.ts runs for one side of one tool: seeded, remembered per run, and bounded
 * per tool and per run by instances judged and schema nodes read.
 */
export interface SearchBudget extends WitnessBudget {
  /** Instances judged at most over the whole run; past it, what is left is not searched (and says so). */
  perRun: number;
}

export const DEFAULT_SEARCH_BUDGET: SearchBudget = { instances: 2000, nodes: 20_000, perRun: 200_000 };

const SEED = 20261125;
/** How much deeper the search goes before a break it could not witness is judged. */
const DEEP = 8;

/** The searches one side of one tool may run, within the tool's and the run's budgets. */
export interface Searches {
  pair: SchemaPair;
  /** A search at the first depth; `share` of the tool's instances; for `c`'s own refusal when given. */
  search(focus?: string[][], share?: number, c?: Change): WitnessOutcome;
  /** The instances a deeper search may build now: DEEP times the tool's, within what the run has left. */
  deepInstances(): number;
  /** A deeper search, with another seed, focused where the changes are; sparing option-like refusals if asked. */
  deep(focus: string[][], instances: number, spareOptions?: boolean, c?: Change): WitnessOutcome;
  /** The instances one search at the first depth may judge: what a proof by a search that found nothing must reach. */
  perTool: number;
}

/**
 * A bound declared or tightened is searched for a value it alone refuses first (confirm-place.ts,
 * `refusedAlone`); where there is none (a `patternProperties` beside it bounds the same value), for
 * any value refused at its place, as before. The instances both searches tried are counted.
 */
function soleFirst(c: Change | undefined, run: (alone: boolean) => WitnessOutcome): WitnessOutcome {
  if (!c || !boundOfItsOwn(c)) return run(false);
  const sole = run(true);
  if (sole.kind !== 'none') return sole;
  const any = run(false);
  return any.kind === 'found' || any.kind === 'none' ? { ...any, tried: sole.tried + any.tried } : any;
}

export function searcher(pair: SchemaPair, budget: SearchBudget, left: Ledger, work: SchemaWork, hints: Hint[]): Searches {
  const spent = (): WitnessOutcome | null =>
    left.instances <= 0
      ? { kind: 'unsearchable', reason: "the run's search budget (limits.witnessInstancesPerRun) was spent before this tool", tried: 0 }
      : work.runSpent
        ? { kind: 'unsearchable', reason: "the run's schema budget (limits.schemaNodesPerRun) was spent before this tool", tried: 0 }
        : null;
  const { accept, refuse } = pair;
  const served = takenAsServed(pair);
  return {
    pair,
    search: (focus = [], share = 1, c) => {
      const none = spent();
      if (none) return none;
      const instances = Math.min(Math.ceil(budget.instances * share), left.instances);
      return soleFirst(c, (alone) => {
        const { key, spare } = sparing(c, false, served, alone ? pair : null);
        return remembered(left, [pair.key, focus, instances, SEED, hints, key], () =>
          searchSafely(accept, refuse, { seed: SEED, budget: { instances, nodes: budget.nodes }, focus, work, hints, spare }),
        );
      });
    },
    deepInstances: () => Math.min(budget.instances * DEEP, Math.max(0, left.instances)),
    deep: (focus, instances, spareOptions = false, c) =>
      soleFirst(c, (alone) => {
        const { key, spare } = sparing(c, spareOptions, served, alone ? pair : null);
        return remembered(
          left,
          [pair.key, focus, instances, SEED + 1, spareOptions, hints, key],
          () =>
            spent() ??
            searchSafely(accept, refuse, { seed: SEED + 1, budget: { instances, nodes: budget.nodes }, focus, work, spare, hints }),
        );
      }),
    perTool: budget.instances,
  };
}

/**
 * What a search spares: a call the baseline as served refuses (it never worked), a refusal that is
 * not `c`'s own (confirm-place.ts), one that another keyword refuses too (`refusedAlone`: the witness
 * exercises the change it is shown for), and, if asked, one of a value a command line reads as an
 * option. `key` tells the searches apart in the run's memo.
 */
function sparing(
  c: Change | undefined,
  options: boolean,
  served: ((instance: unknown) => boolean) | null,
  sole: SchemaPair | null,
): { key: string | null; spare?: NonNullable<WitnessOptions['spare']> } {
  const place = c ? placeOf(c) : null;
  if (!place && !options && !served) return { key: null };
  const alone = c && place && sole?.side === 'input' ? refusedAlone(c, sole.refuse) : null;
  return {
    key: place && c ? JSON.stringify([c.subject.kind === 'tool' ? c.subject.at : [], alone !== null]) : null,
    spare: (instance, at, keyword, name) =>
      (place !== null && !place(at, keyword, name)) ||
      (alone !== null && !alone(instance)) ||
      (options && refusesOptionLike(instance, at)) ||
      (served !== null && !served(instance)),
  };
}
