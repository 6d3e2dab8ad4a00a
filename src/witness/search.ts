import type { JsonSchema } from '../contract/types.js';
import { judgeOf, dialectOf, type Judge } from './judge.js';
import type { WitnessBudget, WitnessOptions, WitnessOutcome } from './outcome.js';
import { SchemaReader, Work } from './reader.js';
import { Search } from './strategies.js';

export type { WitnessBudget, WitnessOptions, WitnessOutcome } from './outcome.js';

/** A suggested budget per tool: enough for the mutation classes measured, a few milliseconds each. */
export const DEFAULT_WITNESS_BUDGET: WitnessBudget = { instances: 2000, nodes: 20000 };

/**
 * An instance that `accept` accepts and `refuse` refuses, both judged by ajv (so a witness found is
 * a witness), searched for within a budget of work. Pure and synchronous: the same inputs give the
 * same outcome and the same witness.
 */
export function findWitness(accept: JsonSchema, refuse: JsonSchema, options: WitnessOptions): WitnessOutcome {
  if (options.work) options.work.searches++;
  const work = new Work(options.budget.nodes, options.work);
  const readers = [accept, refuse].map((s) => new SchemaReader(s, dialectOf(s), work)) as [SchemaReader, SchemaReader];
  for (const [i, reader] of readers.entries()) {
    const why = reader.scan();
    if (why) return { kind: 'unsearchable', reason: `the ${i ? 'refusing' : 'accepting'} schema: ${why}`, tried: 0 };
  }
  const judges = [judgeOf(accept), judgeOf(refuse)];
  for (const [i, judge] of judges.entries()) {
    if (typeof judge === 'string')
      return { kind: 'unsearchable', reason: `the ${i ? 'refusing' : 'accepting'} schema: ${judge}`, tried: 0 };
  }
  return new Search(judges as [Judge, Judge], readers, options).run();
}
