import type { Contract, JsonSchema } from '../contract/types.js';
import { CODES } from '../findings/codes.js';
import type { Change } from '../findings/types.js';
import type { WitnessOutcome } from '../witness/search.js';
import { instancePath } from '../findings/instance-path.js';
import { pairOf, refusesOptionLike, type Ledger, type PairMemo, type SchemaPair, type Side } from './confirm-ask.js';
import { DEFAULT_SEARCH_BUDGET, searcher, type SearchBudget, type Searches } from './confirm-searches.js';
import { evidenced, hardening, proven, spotted, unproven, withWitness } from './confirm-words.js';
import { patternHints } from './confirm-hints.js';
import { placeOf, refusedAt } from './confirm-place.js';
import { CALMABLE, EXPLAINS_WITNESS, POLICY_HELD } from './confirm-policy.js';
import { isTooComplex, isUnread, proofOf } from './schema-context.js';
import { canonicalJson } from '../contract/canonical.js';
import { SchemaWork } from '../contract/schema-work.js';
import { normalForm } from './schema-normal-form.js';
import { resolvesEveryRef } from './schema-spellings.js';

/**
 * The structural diff proposes; the instance search disposes (docs/verdicts.md).
 * For each tool whose schemas changed, and each side:
 * - a change judged breaking gets a witness (for an input, an argument object the baseline's
 *   schema accepts and the candidate's refuses; for an output, a result the candidate's schema
 *   allows and the baseline's refused), or it is unconfirmed: held, not rolled back, with what
 *   was tried;
 * - a side whose schema changed with nothing judged breaking is spot-checked the same way, and a
 *   witness found there is a break of its own (`input-call-refused`, `output-result-unpromised`);
 * - a change is calm (not held) only on a proof: the two sides' normal forms are equal, or the walk
 *   proved it (schema-context.ts, withProof). A search that finds nothing proves nothing: what it
 *   could not witness stays held, and says so (docs/verdicts.md, "Calm needs a proof"). Patterns were compared as languages by the walk, and
 *   the words that tell them apart are the search's first values where they changed.
 * The search is seeded, and bounded per tool and per run by instances judged and schema nodes read.
 */
export { DEFAULT_SEARCH_BUDGET, type SearchBudget };

/** Breaking by design without a witness (README, "Documented policy"): not searched, not downgraded. */
const BY_DESIGN = new Set(['required-argument-removed', 'argument-removed-after-deprecation']);
/**
 * Removals the lifecycle judges (diff/deprecation.ts): a call that still sends the argument may be
 * refused, and that is what the removal is, so a witness for it is no break of its own.
 */
const LIFECYCLE = new Set(['argument-removed-after-deprecation']);
const MAX_FOCUSED = 6;
/** The share of the budget a spot check spends (a side whose schema changed with no break named). */
const SPOT = 0.5;

export function confirmChanges(
  changes: Change[],
  before: Contract,
  after: Contract,
  budget: SearchBudget = DEFAULT_SEARCH_BUDGET,
  work: SchemaWork = new SchemaWork(),
): Change[] {
  const left: Ledger = { instances: budget.perRun, memo: new Map() };
  const pairs: PairMemo = new Map();
  const normals: NormalMemo = new Map();
  const byTool = new Map<string, Change[]>();
  for (const c of changes) if (c.tool !== null) byTool.set(c.tool, [...(byTool.get(c.tool) ?? []), c]);
  const afterByName = new Map(after.tools.map((t) => [t.name, t]));
  const out = new Map<Change, Change>();
  const added: Change[] = [];
  for (const old of before.tools) {
    const now = afterByName.get(old.name);
    if (!now || now.hash === old.hash) continue;
    for (const side of ['input', 'output'] as const) {
      const mine = (byTool.get(old.name) ?? []).filter(
        (c) =>
          c.path.startsWith(side === 'input' ? '/inputSchema' : '/outputSchema') &&
          CODES[c.code].area !== 'text' &&
          c.code !== 'schema-annotation-changed',
      );
      // What the walk proved calm is let go with its proof, and searched for by nothing.
      for (const c of mine) {
        const proof = proofOf(c);
        if (proof !== undefined && c.severity !== 'safe') out.set(c, proven(c, side, proof));
      }
      const own = mine.filter((c) => proofOf(c) === undefined);
      // Schemas that differ only in what validates nothing (descriptions, titles, examples) are not searched.
      const [was, is] = side === 'input' ? [old.inputSchema, now.inputSchema] : [old.outputSchema, now.outputSchema];
      // Too complex to walk is too complex to search: held as it is.
      if (own.some(isTooComplex)) continue;
      if (!was || !is) continue;
      // The same normal form is a proof: whatever the walk held on this side is calm, and nothing is searched.
      if (canonicalJson(was) === canonicalJson(is) || sameNormalForm(normals, was, is, work)) {
        for (const c of own) if (c.severity !== 'safe' && !BY_DESIGN.has(c.code) && !isUnread(c)) out.set(c, proven(c, side, SAME_FORM));
        continue;
      }
      const pair = pairOf(pairs, side, old, now);
      if (!pair) continue;
      const judged = judgeSide(side, old.name, pair, own, budget, left, work);
      for (const [from, to] of judged.replaced) out.set(from, to);
      added.push(...judged.added);
    }
  }
  return [...changes.map((c) => out.get(c) ?? c), ...added];
}

const SAME_FORM =
  'the two schemas have the same normal form (local $refs resolved, allOf folded, alternatives as a set, implied constraints dropped)';

/** Normal forms a run made, by the schema's text: a release-wide change compares each distinct schema once. */
type NormalMemo = Map<string, string>;

function sameNormalForm(memo: NormalMemo, was: JsonSchema, is: JsonSchema, work: SchemaWork): boolean {
  // A form leaves definitions out: where a `$ref` may reach one by anchor or URI, it proves nothing.
  if (!resolvesEveryRef(was) || !resolvesEveryRef(is)) return false;
  const form = (s: JsonSchema) => {
    const key = JSON.stringify(s);
    let known = memo.get(key);
    if (known === undefined) memo.set(key, (known = normalForm(s, s, work)));
    return known;
  };
  return form(was) === form(is);
}

interface Judged {
  replaced: [Change, Change][];
  added: Change[];
}

function judgeSide(side: Side, tool: string, pair: Pair, own: Change[], budget: SearchBudget, left: Ledger, work: SchemaWork): Judged {
  const searches = searcher(pair, budget, left, work, patternHints(own, side, pair));
  const breaking = own.filter((c) => c.severity === 'breaking' && !BY_DESIGN.has(c.code));
  if (breaking.length) return { replaced: judgeBreaks(breaking, side, searches), added: [] };
  return spotCheck(side, tool, own, searches);
}

type Pair = SchemaPair;

/** Each break the walk named, searched for a witness: the first few each on its own, the rest together. */
function judgeBreaks(breaking: Change[], side: Side, s: Searches): [Change, Change][] {
  let shared: WitnessOutcome | undefined;
  return breaking.map((c, i) => {
    const outcome = i < MAX_FOCUSED ? s.search([instancePath(c)], 1, c) : (shared ??= s.search(breaking.map(instancePath)));
    return [c, settle(c, side, outcome, s)];
  });
}

type Found = Extract<WitnessOutcome, { kind: 'found' }>;

/**
 * A change with the witness found for it. An input witness refused for an option-like value is
 * searched for again, deep (confirm-searches.ts DEEP times the instances, another seed), sparing every refusal of such
 * a value: a witness refused for anything else replaces it. Only a thorough spared search that finds
 * none makes the change argument-injection hardening, held with the first witness; a search cut
 * short by a budget leaves the break standing.
 */
function found(c: Change, side: Side, outcome: Found, s: Searches, focus: string[][]): Change {
  if (side !== 'input' || !refusesOptionLike(outcome.instance, outcome.at)) return withWitness(c, side, outcome);
  const spared = s.deep(focus, s.deepInstances(), true, c);
  const tried = outcome.tried + spared.tried;
  if (spared.kind === 'found') return withWitness(c, side, { ...spared, tried });
  return thorough(spared, s.perTool) ? hardening(c, side, outcome, tried) : withWitness(c, side, outcome);
}

/**
 * A search that found nothing and says so with weight: it built valid instances, and it either ran
 * out of things to try or judged at least a first search's worth before a budget stopped it.
 */
const thorough = (o: WitnessOutcome, perTool: number): boolean =>
  proves(o) && o.kind === 'none' && (o.tried >= perTool || !o.strategies.some((x) => x.startsWith('stopped at')));

/**
 * A break the first search did not witness gets a deeper one (DEEP times the instances, another
 * seed): found, it is a break with its witness; still nothing, it is unconfirmed and held.
 */
function settle(c: Change, side: Side, first: WitnessOutcome, s: Searches): Change {
  const focus = [instancePath(c)];
  if (first.kind === 'found') return found(c, side, first, s, focus);
  if (first.kind !== 'none') return withWitness(c, side, first);
  const instances = s.deepInstances();
  const deep = s.deep(focus, instances, false, c);
  if (deep.kind === 'found') return found(c, side, deep, s, focus);
  // Nothing at depth either: unconfirmed and held, never calm. That the walk over-claimed (a
  // constraint the rest implied) is for a proof to show, in the walk or its normal form.
  return withWitness(c, side, deep.kind === 'none' ? { ...deep, tried: first.tried + deep.tried } : deep);
}

/**
 * A side whose schema changed with no break named: a spot check, and a deeper one where a change the
 * walk could not classify may hide a break. Nothing found lets nothing go: the held changes stay
 * held, and say that the search's silence proves nothing.
 */
function spotCheck(side: Side, tool: string, own: Change[], s: Searches): Judged {
  const flagged = own.filter((c) => c.severity === 'dangerous');
  // A spot check, where the walk found no break, spends half the budget: most such sides break nothing.
  const outcome = s.search(own.map(instancePath), SPOT);
  if (outcome.kind === 'found') return witnessed(flagged, own, side, tool, outcome, s);
  const open = flagged.filter((c) => CALMABLE.has(c.code) && !isUnread(c));
  if (outcome.kind !== 'none' || !open.length) return { replaced: [], added: [] };
  // Focused where those changes are: a break they hide is a Rollback, not a Hold.
  const forward = s.deep(open.map(instancePath), s.deepInstances());
  if (forward.kind === 'found') return witnessed(flagged, own, side, tool, forward, s);
  const tried = outcome.tried + (forward.kind === 'none' ? forward.tried : 0);
  return { replaced: open.map((c) => [c, unproven(c, side, tried)]), added: [] };
}

/**
 * A witness where the walk named no break. Changes held by policy carry it as evidence and stay
 * held. Where nothing the walk flagged explains it (nothing flagged, or only what it could not
 * classify), the witness is a break of its own.
 */
function witnessed(flagged: Change[], own: Change[], side: Side, tool: string, outcome: Found, s: Searches): Judged {
  const replaced = flagged
    .filter((c) => POLICY_HELD.has(c.code))
    .flatMap((c): [Change, Change][] => {
      // Evidence for a change shows that change: a witness refused elsewhere is searched for again, there.
      const place = placeOf(c);
      const own = !place || place(outcome.at, outcome.keyword, outcome.name) ? outcome : s.search([instancePath(c)], SPOT, c);
      return own.kind === 'found' ? [[c, evidenced(c, side, own)]] : [];
    });
  // A removal the lifecycle judges explains a refused call too, and a safe change where the witness is refused.
  const safeHere = (c: Change) => EXPLAINS_WITNESS.has(c.code) && refusedAt(c, outcome.at, outcome.keyword, outcome.name);
  const explainedBy = own.some((c) => LIFECYCLE.has(c.code) || safeHere(c));
  const explained = (flagged.length > 0 || explainedBy) && flagged.every((c) => POLICY_HELD.has(c.code));
  return { replaced, added: explained ? [] : [found(spotted(side, tool), side, outcome, s, own.map(instancePath))] };
}

/**
 * Whether a search that found nothing says anything: it must have built instances the accepting
 * schema takes. One that could build none (a pattern it cannot satisfy on a required field) proves
 * nothing, and a change is not calmed on it.
 */
const proves = (o: WitnessOutcome): boolean => o.kind === 'none' && !o.barren;
