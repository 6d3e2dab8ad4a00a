import { diffContracts } from '../../src/diff/index.js';
import { contractOf } from '../helpers/contracts.js';
import type { Schema } from './ajv.js';
import type { SchemaSide } from './bases.js';
import type { Relation } from './classes.js';
import type { Pair } from './pairs.js';
import { FAST, GENEROUS, searchWitness, type SearchResult } from './search.js';

/**
 * One pair judged: the gate's verdict (the only thing taken from src/: `diffContracts`, through the
 * test helper that builds a contract) against the instance search.
 *
 * The breaking direction: for an input, an argument object the baseline accepts and the candidate
 * refuses; for an output, a result the candidate may return and the baseline refused (consumers of
 * the old contract break). The reverse direction is the other one; a pair with no witness either
 * way is "calm" (the schemas accept the same instances, as far as the search can tell).
 */
export type Worst = 'breaking' | 'dangerous' | 'safe';
export type Category = 'agree' | 'silent' | 'false-alarm' | 'under-rated';

export interface ChangeSeen {
  code: string;
  severity: string;
  path: string;
  /** Held as argument-injection hardening: every refused call the gate found passes a leading '-'. */
  optionLike?: true;
}

export interface Found {
  found: boolean;
  witness?: unknown;
  /** Found only with the generous budget. */
  generous: boolean;
  tried: number;
}

export interface Outcome {
  id: number;
  changes: ChangeSeen[];
  worst: Worst;
  breaking: Found;
  reverse: Found | null;
  category: Category;
  /** The documented policy that explains a disagreement or a calm change held, if one does. */
  policy?: string;
  /** No witness either way, and the gate says dangerous or breaking. */
  calmHeld: boolean;
  /** Ground truth (by construction) against what the search found. */
  truthMiss?: ('breaking' | 'reverse')[];
  truthContradicted?: ('breaking' | 'reverse')[];
  fastMissed?: number;
}

/** Documented policy: where the gate departs from the instance definition on purpose (README "Documented policy"). */
export const POLICIES: { name: string; why: string }[] = [
  {
    name: 'required-argument-removed',
    why: 'A required argument removed is breaking by design (a caller that still sends it may be refused by the implementation, and the tool changed its contract), though no argument object witnesses it when the input stays open.',
  },
  {
    name: 'input-default-changed',
    why: 'A changed or added input `default` is a Hold by design: callers that omit the argument get other behaviour, though `default` validates nothing.',
  },
  {
    name: 'unsafe-integers',
    why: 'Numeric bounds at or beyond ±(2^53−1) count as no bound (zod 4 `.int()`), so a witness made only of numbers past the safe-integer range is not a failure.',
  },
  {
    name: 'declared-hold',
    why: 'A bound or a list of values declared on an argument that had none (input-constraint-declared, input-enum-declared: maxLength, pattern, format, minimum, enum, const, integer where number was) is a Hold, not a Rollback, by design: the witness is a value at the edge that servers mostly refused in code already (docs/judgements.md O4, X3).',
  },
  {
    name: 'closed-hold',
    why: 'An input closed to undeclared arguments (input-closed) is a Hold by design: a model shown the schema sends the arguments it declares; only a call that passes another is refused.',
  },
  {
    name: 'default-hold',
    why: 'A required argument that declares a default (required-argument-added-with-default) is a Hold by design: zod-built servers accept calls without it.',
  },
  {
    name: 'optional-removed-hold',
    why: 'An optional argument removed from an input that takes undeclared names (input-property-removed) is a Hold by design: a model shown the schema sends the arguments it declares, and a person weighs whether any caller still sends it. From an input that refuses undeclared names it is input-property-removed-closed, a Rollback.',
  },
  {
    name: 'undeclared-arguments',
    why: 'A witness that passes an argument the baseline does not declare is no break by design: a model shown the schema sends the arguments it declares, so an optional argument or a pattern added to an open input is not judged (input-closed is held for the same reason).',
  },
  {
    name: 'nullable-output',
    why: "An output value that may now be null, every kind it had kept (output-type-nullable), is noted, not held, by design: a client validates results against the schema the server lists now, null is JSON's absence, and making fields nullable is the write-ups' own fix for strict outputs (docs/verdicts.md).",
  },
  {
    name: 'degenerate-bound',
    why: 'A bound declared that refuses only what no useful call sends (input-constraint-declared-degenerate: a lower bound of 0 or 1 or whole numbers on an argument whose name says it counts, minLength 1 on a string every call sends) is listed, not held, by design: a page below 1, a count of 2.5 or an empty required query does no work on any server (docs/verdicts.md).',
  },
  {
    name: 'output-hold',
    why: 'An output enum widened, an output constraint loosened or a new member of an output union is a Hold (dangerous), not a Rollback, by design: consumers may or may not depend on the old range.',
  },
  {
    name: 'closed-output-field',
    why: 'A field added to an output object the baseline closed (output-closed-property-added) is noted, not held, by design: a client validates results against the schema the server lists now, which declares the field, as for an output that may now be null (docs/verdicts.md).',
  },
  {
    name: 'option-like-hold',
    why: "A change whose every refused call the gate found passes a string that starts with '-' (what a command line reads as an option) is argument-injection hardening: a Hold, not a Rollback, by design (docs/verdicts.md).",
  },
];

const isText = (code: string) => /^(description|title|instructions)-/.test(code);

/** The gate's changes to one side's schema of one tool. */
export function gateChanges(side: SchemaSide, before: Schema, after: Schema): ChangeSeen[] {
  const tool = (s: Schema) =>
    side === 'input' ? { name: 't', inputSchema: s } : { name: 't', inputSchema: { type: 'object' }, outputSchema: s };
  const root = side === 'input' ? '/inputSchema' : '/outputSchema';
  return diffContracts(contractOf(tool(before)), contractOf(tool(after)))
    .filter((c) => (c.path === root || c.path.startsWith(`${root}/`)) && !isText(c.code))
    .map((c) => ({ code: c.code, severity: c.severity, path: c.path, ...(c.witness?.optionLike ? { optionLike: true as const } : {}) }));
}

const worstOf = (changes: ChangeSeen[]): Worst =>
  changes.some((c) => c.severity === 'breaking') ? 'breaking' : changes.some((c) => c.severity === 'dangerous') ? 'dangerous' : 'safe';

/** Whether the relation (candidate's instances against the baseline's) implies a witness in the breaking direction. */
const impliesBreaking = (side: SchemaSide, r: Relation) => r === 'incomparable' || (side === 'input' ? r === 'narrower' : r === 'wider');
const impliesReverse = (side: SchemaSide, r: Relation) => r === 'incomparable' || (side === 'input' ? r === 'wider' : r === 'narrower');

/** Whether an argument object holds a count below 1, a fraction or an empty string: what a degenerate bound refuses. */
const hasDegenerate = (x: unknown): boolean =>
  typeof x === 'number'
    ? x < 1 || !Number.isInteger(x)
    : typeof x === 'string'
      ? x === ''
      : x !== null && typeof x === 'object' && Object.values(x as Record<string, unknown>).some(hasDegenerate);

/**
 * Safe codes whose witness is what the documented policy lets through: a null output where the
 * gate says an output may now be null, a degenerate argument where it says a bound refuses only those,
 * a result with a field the baseline did not declare where it says a field was added to a closed output.
 */
const EXPLAINED: { side: SchemaSide; code: string; witnessed: (x: unknown, before: Schema) => boolean; policy: string }[] = [
  { side: 'output', code: 'output-type-nullable', witnessed: (x) => hasNull(x), policy: 'nullable-output' },
  { side: 'input', code: 'input-constraint-declared-degenerate', witnessed: (x) => hasDegenerate(x), policy: 'degenerate-bound' },
  { side: 'output', code: 'output-closed-property-added', witnessed: (x, before) => undeclared(before, x), policy: 'closed-output-field' },
];

/** The policy that explains a silent pass by one of the safe codes above, if any. */
const explainedSilent = (side: SchemaSide, changes: ChangeSeen[], witness: unknown, before: Schema): string | undefined =>
  EXPLAINED.find((e) => e.side === side && changes.some((c) => c.code === e.code) && e.witnessed(witness, before))?.policy;

/** Whether a result holds a null anywhere: the only values output-type-nullable admits anew. */
const hasNull = (x: unknown): boolean => x === null || (typeof x === 'object' && Object.values(x as Record<string, unknown>).some(hasNull));

const unsafe = (x: unknown): boolean =>
  typeof x === 'number'
    ? Math.abs(x) > Number.MAX_SAFE_INTEGER
    : Array.isArray(x)
      ? x.some(unsafe)
      : x !== null && typeof x === 'object'
        ? Object.values(x).some(unsafe)
        : false;

function find(accepting: Schema, refusing: Schema, generous: boolean): Found {
  const fast: SearchResult = searchWitness(accepting, refusing, FAST);
  if (fast.found || !generous) return { found: fast.found, witness: fast.witness, generous: false, tried: fast.tried };
  const deep = searchWitness(accepting, refusing, GENEROUS);
  return { found: deep.found, witness: deep.witness, generous: deep.found, tried: fast.tried + deep.tried };
}

/** A held change whose witness is argument-injection hardening, whatever its code. */
const OPTION_LIKE = '(option-like)';

/** Whether an instance passes a string that starts with '-' and is not a number, anywhere in it. */
const passesOptionLike = (x: unknown): boolean =>
  typeof x === 'string'
    ? /^-/.test(x) && !/^-(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/.test(x)
    : x !== null && typeof x === 'object' && Object.values(x).some(passesOptionLike);

/** Codes held, not rolled back, by a documented policy: the name of the policy that covers all of `held`. */
const HELD: Record<string, string> = {
  'input-constraint-declared': 'declared-hold',
  'input-enum-declared': 'declared-hold',
  'input-closed': 'closed-hold',
  'input-property-removed': 'optional-removed-hold',
  'input-default-changed': 'input-default-changed',
  'input-enum-dropped': 'declared-hold',
  'required-argument-added-with-default': 'default-hold',
  'output-enum-widened': 'output-hold',
  'output-constraint-loosened': 'output-hold',
  'output-variant-added': 'output-hold',
  [OPTION_LIKE]: 'option-like-hold',
};

function heldByPolicy(held: string[]): string | undefined {
  const policies = new Set(held.map((c) => HELD[c]));
  if (!held.length || policies.has(undefined)) return undefined;
  return [...policies].sort().join('+');
}

/** Whether an argument object passes a name the schema does not declare, at any level (local $refs followed). */
function undeclared(schema: Schema, instance: unknown, root: Schema = schema, depth = 0): boolean {
  if (depth > 16 || instance === null || typeof instance !== 'object' || typeof schema !== 'object' || schema === null) return false;
  const nodes: Schema[] = [];
  const gather = (n: unknown, d: number) => {
    if (d > 8 || typeof n !== 'object' || n === null || Array.isArray(n)) return;
    const node = n as Schema;
    nodes.push(node);
    if (typeof node.$ref === 'string' && node.$ref.startsWith('#/')) {
      let target: unknown = root;
      for (const step of node.$ref.slice(2).split('/'))
        target = (target as Record<string, unknown> | undefined)?.[step.replace(/~1/g, '/').replace(/~0/g, '~')];
      gather(target, d + 1);
    }
    for (const k of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(node[k])) for (const b of node[k] as unknown[]) gather(b, d + 1);
  };
  gather(schema, 0);
  if (Array.isArray(instance)) {
    const items = nodes.map((n) => n.items).find((i) => typeof i === 'object' && i !== null && !Array.isArray(i)) as Schema | undefined;
    return items ? instance.some((x) => undeclared(items, x, root, depth + 1)) : false;
  }
  const props: Record<string, Schema> = {};
  for (const n of nodes) if (typeof n.properties === 'object' && n.properties) Object.assign(props, n.properties);
  return Object.entries(instance).some(([k, v]) => !(k in props) || undeclared(props[k]!, v, root, depth + 1));
}

export function judgePair(pair: Pair): Outcome {
  const { side, before, after } = pair;
  const changes = gateChanges(side, before, after);
  const worst = worstOf(changes);
  const [accepting, refusing] = side === 'input' ? [before, after] : [after, before];
  const expectBreaking = pair.truth !== undefined && impliesBreaking(side, pair.truth);
  const expectReverse = pair.truth !== undefined && impliesReverse(side, pair.truth);

  // The generous budget wherever "no witness" would count against the gate or against the search.
  const breaking = find(accepting, refusing, worst !== 'safe' || expectBreaking);
  let reverse: Found | null = null;
  if (!breaking.found || pair.truth !== undefined)
    reverse = find(refusing, accepting, (!breaking.found && worst !== 'safe') || expectReverse);

  const codes = (severity: string) => changes.filter((c) => c.severity === severity).map((c) => c.code);
  // The hardening policy explains a Hold only where the oracle's own witness passes an option-like value too.
  const optionLike = breaking.found && passesOptionLike(breaking.witness);
  const held = changes.filter((c) => c.severity !== 'safe').map((c) => (c.optionLike && optionLike ? OPTION_LIKE : c.code));
  let category: Category;
  if (breaking.found) category = worst === 'breaking' ? 'agree' : worst === 'dangerous' ? 'under-rated' : 'silent';
  else category = worst === 'breaking' ? 'false-alarm' : 'agree';
  const calmHeld = !breaking.found && reverse !== null && !reverse.found && worst !== 'safe';

  const explained = category === 'silent' ? explainedSilent(side, changes, breaking.witness, before) : undefined;
  let policy: string | undefined;
  if (category === 'false-alarm' && codes('breaking').every((c) => c === 'required-argument-removed')) policy = 'required-argument-removed';
  else if (category === 'silent' && unsafe(breaking.witness)) policy = 'unsafe-integers';
  else if (explained) policy = explained;
  else if ((category === 'silent' || category === 'under-rated') && side === 'input' && undeclared(before, breaking.witness))
    policy = 'undeclared-arguments';
  else if (category === 'under-rated') policy = heldByPolicy(held);
  else if (calmHeld && held.every((c) => c === 'input-default-changed' || c === 'required-argument-removed'))
    policy = held.includes('required-argument-removed') ? 'required-argument-removed' : 'input-default-changed';

  const outcome: Outcome = { id: pair.id, changes, worst, breaking, reverse, category, calmHeld, ...(policy ? { policy } : {}) };
  if (pair.truth !== undefined) {
    const miss = [
      ...(expectBreaking && !breaking.found ? ['breaking' as const] : []),
      ...(expectReverse && !reverse?.found ? ['reverse' as const] : []),
    ];
    const contradicted = [
      ...(!expectBreaking && breaking.found ? ['breaking' as const] : []),
      ...(!expectReverse && reverse?.found ? ['reverse' as const] : []),
    ];
    if (miss.length) outcome.truthMiss = miss;
    if (contradicted.length) outcome.truthContradicted = contradicted;
    outcome.fastMissed = (expectBreaking && breaking.generous ? 1 : 0) + (expectReverse && reverse?.generous ? 1 : 0);
  }
  return outcome;
}
