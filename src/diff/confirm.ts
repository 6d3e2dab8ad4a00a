import { canonicalJson } from '../contract/canonical.js';
import type { Contract, ContractTool, JsonSchema } from '../contract/types.js';
import { CODES } from '../findings/codes.js';
import type { Change, Witness } from '../findings/types.js';
import { toolChange } from './change.js';
import { isUnread } from './schema-context.js';
import { normalForm } from './schema-normal-form.js';
import { findWitness, type WitnessBudget, type WitnessOutcome } from '../witness/search.js';

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
const BY_DESIGN = new Set(['required-argument-removed']);
const SEED = 20261125;
const MAX_FOCUSED = 6;
/** The share of the budget a spot check spends (a side whose schema changed with no break named). */
const SPOT = 0.5;
/** How much deeper the search goes before a break it could not witness is judged. */
const DEEP = 8;

type Side = 'input' | 'output';

export function confirmChanges(
  changes: Change[],
  before: Contract,
  after: Contract,
  budget: SearchBudget = DEFAULT_SEARCH_BUDGET,
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
      if (!own.length && (!was || !is || normalForm(was, was) === normalForm(is, is))) continue;
      const pair = schemasOf(side, old, now);
      if (!pair) continue;
      const judged = judgeSide(side, old.name, pair, own, budget, left);
      for (const [from, to] of judged.replaced) out.set(from, to);
      added.push(...judged.added);
    }
  }
  return [...changes.map((c) => out.get(c) ?? c), ...added];
}

/** The schema that must accept and the one that must refuse a witness, for one side of one tool. */
function schemasOf(
  side: Side,
  old: ContractTool,
  now: ContractTool,
): { accept: JsonSchema; refuse: JsonSchema; rawAccept: JsonSchema } | null {
  if (side === 'input') {
    if (!old.inputSchema || old.inputSchema.type !== 'object' || !now.inputSchema) return null; // a repaired root is held already
    return { accept: sorted(declaredOnly(old.inputSchema, 0)), refuse: sorted(now.inputSchema), rawAccept: sorted(old.inputSchema) };
  }
  if (!old.outputSchema || !now.outputSchema) return null;
  return { accept: sorted(now.outputSchema), refuse: sorted(old.outputSchema), rawAccept: sorted(now.outputSchema) };
}

const MAX_CLOSE_DEPTH = 64;

/** Keys in canonical order, so the same schema served with its keys reordered gives the same witness. */
const sorted = (schema: JsonSchema): JsonSchema => JSON.parse(canonicalJson(schema)) as JsonSchema;

/**
 * The baseline's input schema as a caller reads it: an object that declares its properties and
 * says nothing of others takes only those. A model shown the schema sends the arguments it
 * declares, so a witness that needs an undeclared argument is no break (README, "Documented
 * policy"; `input-closed` is held for the same reason). Objects that combine subschemas, or say
 * what other names take, are left as they are.
 */
function declaredOnly(node: JsonSchema, depth: number): JsonSchema {
  if (depth > MAX_CLOSE_DEPTH) return node;
  const out: JsonSchema = { ...node };
  const isRecord = (x: unknown): x is JsonSchema => x !== null && typeof x === 'object' && !Array.isArray(x);
  if (isRecord(node.properties)) {
    out.properties = Object.fromEntries(Object.entries(node.properties).map(([k, v]) => [k, isRecord(v) ? declaredOnly(v, depth + 1) : v]));
    const says = [
      'additionalProperties',
      'patternProperties',
      'unevaluatedProperties',
      'allOf',
      'anyOf',
      'oneOf',
      '$ref',
      'if',
      'dependentSchemas',
    ];
    if (!says.some((k) => node[k] !== undefined)) out.additionalProperties = false;
  }
  if (isRecord(node.items)) out.items = declaredOnly(node.items, depth + 1);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = node[key];
    if (Array.isArray(list)) out[key] = list.map((b) => (isRecord(b) ? declaredOnly(b, depth + 1) : b));
  }
  for (const key of ['$defs', 'definitions'] as const) {
    const defs = node[key];
    if (isRecord(defs))
      out[key] = Object.fromEntries(Object.entries(defs).map(([k, v]) => [k, isRecord(v) ? declaredOnly(v, depth + 1) : v]));
  }
  return out;
}

/**
 * What the run has left to spend, and the searches it already made: tools that share a schema
 * (a release-wide change, a family of tools built from one definition) are searched once. The
 * outcome depends only on the schemas, the focus and the budget, so sharing it changes nothing.
 */
interface Ledger {
  instances: number;
  memo: Map<string, WitnessOutcome>;
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
): Judged {
  const search = (accept: JsonSchema, refuse: JsonSchema, focus: string[][] = [], share = 1): WitnessOutcome => {
    if (left.instances <= 0)
      return {
        kind: 'unsearchable',
        reason: "the run's search budget (limits.witnessInstancesPerRun) was spent before this tool",
        tried: 0,
      };
    const instances = Math.min(Math.ceil(budget.instances * share), left.instances);
    return remembered(left, [accept, refuse, focus, instances, SEED], () =>
      searchSafely(accept, refuse, { seed: SEED, budget: { instances, nodes: budget.nodes }, focus }),
    );
  };
  // Calm: no instance tells the two schemas apart, either way. Searched once per side, when asked.
  let reverse: WitnessOutcome | undefined;
  const calmAfter = (forward: WitnessOutcome) =>
    forward.kind === 'none' && (reverse ??= search(pair.refuse, pair.rawAccept)).kind === 'none' ? forward.tried + reverse.tried : null;

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
    const deep = remembered(left, [pair.accept, pair.refuse, focus, instances, SEED + 1], () =>
      searchSafely(pair.accept, pair.refuse, { seed: SEED + 1, budget: { instances, nodes: budget.nodes }, focus }),
    );
    if (deep.kind !== 'none') return withWitness(c, side, deep);
    // Nothing either way, at depth: the walk over-claimed (a constraint the rest implied, a
    // condition that cannot fire), and the change is calm. A witness the other way: held, unconfirmed.
    const back = remembered(left, [pair.refuse, pair.rawAccept, [], instances, SEED + 1], () =>
      searchSafely(pair.refuse, pair.rawAccept, { seed: SEED + 1, budget: { instances, nodes: budget.nodes }, focus: [] }),
    );
    const tried = first.tried + deep.tried + back.tried;
    return back.kind === 'none' && reachable(c) ? calm(c, side, tried) : withWitness(c, side, { ...deep, tried });
  }

  const flagged = own.filter((c) => c.severity === 'dangerous');
  // A spot check, where the walk found no break, spends half the budget: most such sides are calm.
  const outcome = search(pair.accept, pair.refuse, own.map(instancePath), SPOT);
  if (outcome.kind === 'found') {
    // Changes held by policy carry the witness as evidence and stay held. Where nothing the walk
    // flagged explains the witness (nothing flagged, or only what it could not classify), the
    // witness is a break of its own.
    for (const c of flagged) if (POLICY_HELD.has(c.code)) replaced.push([c, evidenced(c, side, outcome)]);
    const explained = flagged.length > 0 && flagged.every((c) => POLICY_HELD.has(c.code));
    return { replaced, added: explained ? [] : [withWitness(spotted(side, tool), side, outcome)] };
  }
  const calmable = flagged.filter((c) => CALMABLE.has(c.code) && !isUnread(c) && reachable(c));
  if (outcome.kind !== 'none' || !calmable.length) return { replaced, added: [] };
  // Before a held change is let go as calm, the search goes deeper both ways: a miss must not be silence.
  const instances = Math.min(budget.instances * DEEP, Math.max(0, left.instances));
  const deep = (accept: JsonSchema, refuse: JsonSchema) =>
    remembered(left, [accept, refuse, [], instances, SEED + 1], () =>
      searchSafely(accept, refuse, { seed: SEED + 1, budget: { instances, nodes: budget.nodes }, focus: [] }),
    );
  const forward = deep(pair.accept, pair.refuse);
  if (forward.kind === 'found') {
    for (const c of flagged) if (POLICY_HELD.has(c.code)) replaced.push([c, evidenced(c, side, forward)]);
    const explained = flagged.every((c) => POLICY_HELD.has(c.code));
    return { replaced, added: explained ? [] : [withWitness(spotted(side, tool), side, forward)] };
  }
  const back = forward.kind === 'none' ? deep(pair.refuse, pair.rawAccept) : forward;
  if (back.kind === 'none' && calmAfter(outcome) !== null) {
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
const CALMABLE = new Set<string>(['schema-changed', 'input-constraint-declared', 'input-enum-declared', 'output-variant-added']);

/**
 * How deep the search builds instances on purpose (deeper it only walks at random): a change
 * further down is never calmed, since finding nothing there proves nothing. It is held.
 */
const MAX_CALM_DEPTH = 5;
const reachable = (c: Change): boolean => instancePath(c).length <= MAX_CALM_DEPTH;

/** A search made once per run for the same question; the first time it spends from the run's budget. */
function remembered(left: Ledger, question: unknown[], run: () => WitnessOutcome): WitnessOutcome {
  const key = canonicalJson(question);
  const known = left.memo.get(key);
  if (known) return known;
  const outcome = run();
  left.instances -= outcome.tried;
  left.memo.set(key, outcome);
  return outcome;
}

/**
 * The search, with one more bound than its own: a schema nested past what the stack holds is
 * unsearchable, said so, never a crash (a run that cannot decide).
 */
function searchSafely(accept: JsonSchema, refuse: JsonSchema, options: Parameters<typeof findWitness>[2]): WitnessOutcome {
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
    throw error;
  }
}

function unsafe(x: unknown, depth: number): boolean {
  if (typeof x === 'number') return Math.abs(x) > Number.MAX_SAFE_INTEGER;
  if (depth > 64 || x === null || typeof x !== 'object') return false;
  return Object.values(x).some((v) => unsafe(v, depth + 1));
}

/** The instance path a change is at: `/inputSchema/properties/a/properties/b/maximum` is `a/b`. */
function instancePath(c: Change): string[] {
  const at = c.subject.kind === 'tool' ? c.subject.at : [];
  const path: string[] = [];
  for (let i = 1; i < at.length; i++) {
    if (at[i] === 'properties' && at[i + 1] !== undefined) path.push(at[++i]!);
    else if (at[i] === 'items') path.push('0');
  }
  return path;
}

const clip = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max)}…` : text);
const shown = (instance: unknown) => `\`${clip(JSON.stringify(instance) ?? 'undefined')}\``;

function withWitness(c: Change, side: Side, outcome: WitnessOutcome): Change {
  if (outcome.kind === 'found') {
    const witness: Witness = {
      status: 'found',
      side,
      instance: outcome.instance,
      refusal: clip(outcome.refusal, 300),
      tried: outcome.tried,
    };
    return { ...c, witness, message: `${c.message} ${evidence(side, outcome.instance, witness.refusal!)}` };
  }
  if (outcome.kind === 'unsearchable') {
    const witness: Witness = { status: 'unsearchable', side, tried: outcome.tried, note: outcome.reason };
    return { ...c, witness, message: `${c.message} Not confirmed by a search: ${outcome.reason}.` };
  }
  const note = outcome.strategies.join('; ');
  const witness: Witness = { status: 'unconfirmed', side, tried: outcome.tried, note };
  const what =
    side === 'input'
      ? 'no call the baseline accepts and the candidate refuses'
      : 'no result the candidate may return and the baseline refused';
  return {
    ...c,
    severity: 'dangerous',
    witness,
    message: `${c.message} Unconfirmed: ${what} was found in ${outcome.tried} tries (${clip(note, 160)}), so it is held, not rolled back.`,
  };
}

/** A held change with the witness that shows what it refuses: evidence, not a verdict. */
function evidenced(c: Change, side: Side, outcome: Extract<WitnessOutcome, { kind: 'found' }>): Change {
  const witness: Witness = { status: 'found', side, instance: outcome.instance, refusal: clip(outcome.refusal, 300), tried: outcome.tried };
  return { ...c, witness, message: `${c.message} For example: ${evidence(side, outcome.instance, witness.refusal!)}` };
}

/** The sentence a witness adds to a change's message. */
export function evidence(side: Side, instance: unknown, refusal: string): string {
  return side === 'input'
    ? `${shown(instance)} was accepted and is now refused: ${refusal}.`
    : `A result like ${shown(instance)} may now be returned, which the baseline's schema refused: ${refusal}.`;
}

const spotted = (side: Side, tool: string): Change =>
  side === 'input'
    ? toolChange('input-call-refused', tool, ['inputSchema'], null, null)
    : toolChange('output-result-unpromised', tool, ['outputSchema'], null, null);

/** A change no instance shows, either way: the two schemas accept the same instances as far as the search can tell. */
function calm(c: Change, side: Side, tried: number): Change {
  const witness: Witness = {
    status: 'unconfirmed',
    side,
    tried,
    note: 'no instance found that one schema accepts and the other refuses, either way',
  };
  return {
    ...c,
    severity: 'safe',
    witness,
    message: `${c.message} Checked: in ${tried} tries no instance tells the two schemas apart, so it is not held.`,
  };
}
