import { canonicalJson } from '../contract/canonical.js';
import type { ContractTool, JsonSchema } from '../contract/types.js';
import { declaredOnly } from './caller-reading.js';
import { JudgeFailure, judgeOf } from '../witness/judge.js';
import { findWitness, type WitnessOutcome } from '../witness/search.js';

/** How diff/confirm.ts asks the witness search: which schemas, read how, asked once, and safely. */
export type Side = 'input' | 'output';

/**
 * The schemas a side's searches use: a witness is accepted by `accept` and refused by `refuse`. For
 * an input, `accept` is the baseline read as a caller reads it (it takes the arguments it declares);
 * `rawBefore` and `rawAfter` are the two schemas as served, where a change's node is looked up.
 */
export interface SchemaPair {
  /** The two schemas' canonical text: what a run's searches are remembered by (the same pair, searched once). */
  key: string;
  side: Side;
  accept: JsonSchema;
  refuse: JsonSchema;
  rawBefore: JsonSchema;
  rawAfter: JsonSchema;
}

/**
 * The pairs a run made, by the two schemas' own text: a release-wide change (a family of tools built
 * from one definition, drifted alike) reads each distinct pair once. The pair depends only on the
 * schemas, so sharing it changes nothing.
 */
export type PairMemo = Map<string, SchemaPair | null>;

/** `schemasOf`, made once per distinct pair of schemas of a run. */
export function pairOf(memo: PairMemo, side: Side, old: ContractTool, now: ContractTool): SchemaPair | null {
  const [was, is] = side === 'input' ? [old.inputSchema, now.inputSchema] : [old.outputSchema, now.outputSchema];
  const key = `${side}\u0000${JSON.stringify(was)}\u0000${JSON.stringify(is)}`;
  let pair = memo.get(key);
  if (pair === undefined) memo.set(key, (pair = schemasOf(side, old, now)));
  return pair;
}

/** The schema that must accept and the one that must refuse a witness, for one side of one tool. */
function schemasOf(side: Side, old: ContractTool, now: ContractTool): SchemaPair | null {
  if (side === 'input') {
    if (!old.inputSchema || old.inputSchema.type !== 'object' || !now.inputSchema) return null; // a repaired root is held already
    const [accept, refuse] = [declaredOnly(old.inputSchema), now.inputSchema];
    // Searches are remembered by the key, and a witness must also be a call the baseline as served
    // takes (`takenAsServed`): two baselines read alike by a caller but served apart share no search.
    const pair = canonical(side, accept, refuse);
    const served = canonicalJson(old.inputSchema);
    return { ...pair, key: `${pair.key}\u0000${served}`, side, rawBefore: old.inputSchema, rawAfter: now.inputSchema };
  }
  if (!old.outputSchema || !now.outputSchema) return null;
  return { ...canonical(side, now.outputSchema, old.outputSchema), side, rawBefore: old.outputSchema, rawAfter: now.outputSchema };
}

/**
 * Whether the baseline as served takes an instance, where the search's accepting schema is another
 * reading of it (an input read as a caller reads it, `declaredOnly`). That reading
 * takes less than the schema served, except where narrowing a branch makes a call match one branch
 * of a `oneOf` it matched two of (or fail a `not`): such a call never worked, so it is no witness.
 * Null where the accepting schema is the baseline as served (an output's), or ajv cannot read it.
 */
export function takenAsServed(pair: SchemaPair): ((instance: unknown) => boolean) | null {
  if (pair.side !== 'input') return null;
  const judge = judgeOf(pair.rawBefore);
  return typeof judge === 'string' ? null : (instance) => judge.accepts(instance);
}

/** Both schemas with their keys in canonical order (the same schema served reordered gives the same witness), and the key. */
function canonical(side: Side, accept: JsonSchema, refuse: JsonSchema): { key: string; accept: JsonSchema; refuse: JsonSchema } {
  const [a, r] = [canonicalJson(accept), canonicalJson(refuse)];
  return { key: `${side}\u0000${a}\u0000${r}`, accept: JSON.parse(a) as JsonSchema, refuse: JSON.parse(r) as JsonSchema };
}

/**
 * What the run has left to spend, and the searches it already made: tools that share a schema
 * (a release-wide change, a family of tools built from one definition) are searched once. The
 * outcome depends only on the schemas, the focus and the budget, so sharing it changes nothing.
 */
export interface Ledger {
  instances: number;
  memo: Map<string, WitnessOutcome>;
}

/** A search made once per run for the same question; the first time it spends from the run's budget. */
export function remembered(left: Ledger, question: unknown[], run: () => WitnessOutcome): WitnessOutcome {
  const key = canonicalJson(question);
  const known = left.memo.get(key);
  if (known) return known;
  const outcome = run();
  left.instances -= outcome.tried;
  left.memo.set(key, outcome);
  return outcome;
}

/**
 * The search, with more bounds than its own: a schema nested past what the stack holds, or an
 * instance ajv fails on, is unsearchable, said so, never a crash (a run that cannot decide).
 */
export function searchSafely(accept: JsonSchema, refuse: JsonSchema, options: Parameters<typeof findWitness>[2]): WitnessOutcome {
  try {
    const outcome = findWitness(accept, refuse, options);
    // Bounds at or past ±(2^53-1) count as no bound (zod 4's .int()): a witness made of numbers no
    // JSON client sends exactly is no witness (README, "Documented policy").
    if (outcome.kind === 'found' && unsafe(outcome.instance, 0))
      return { kind: 'none', tried: outcome.tried, strategies: ['only numbers past the safe-integer range tell them apart'] };
    return outcome;
  } catch (error) {
    if (error instanceof RangeError)
      return { kind: 'unsearchable', reason: 'the schemas nest deeper than the search can follow', tried: 0 };
    if (error instanceof JudgeFailure) return { kind: 'unsearchable', reason: error.message, tried: 0 };
    throw error;
  }
}

function unsafe(x: unknown, depth: number): boolean {
  if (typeof x === 'number') return Math.abs(x) > Number.MAX_SAFE_INTEGER;
  if (depth > 64 || x === null || typeof x !== 'object') return false;
  return Object.values(x).some((v) => unsafe(v, depth + 1));
}

/**
 * A string a command line reads as an option: it starts with '-' and is not a number. Refusing one
 * is argument-injection hardening (a server that hands a ref or a path to git, tar or ssh keeps a
 * model from sending `--upload-pack=…`), so a break whose every refused call is refused for such a
 * value is held, not rolled back (docs/verdicts.md, "Argument-injection hardening").
 */
const OPTION_LIKE = /^-/;
const NUMBER = /^-(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

/**
 * Whether the value an instance is refused for (at `at`, the JSON Pointer of the refusing schema's
 * first error) is an option-like string. A refusal of anything else (a number past a bound, a
 * missing argument) is not, whatever else the instance holds.
 */
export function refusesOptionLike(instance: unknown, at: string): boolean {
  let value = instance;
  for (const raw of at.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return false;
    value = (value as Record<string, unknown>)[key];
  }
  return typeof value === 'string' && OPTION_LIKE.test(value) && !NUMBER.test(value);
}
