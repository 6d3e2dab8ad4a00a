import type { ChangeCode } from '../findings/codes.js';
import type { Change } from '../findings/types.js';
import type { JsonSchema } from '../contract/types.js';
import { SchemaWork, showNodes } from '../contract/schema-work.js';
import { toolChange } from './change.js';
import { refusesOnlyDegenerate } from './degenerate-bound.js';
import { VALUE_BOUNDS, constraintKey, isObject } from './schema-keywords.js';

export type SchemaSide = 'input' | 'output';

/** Where the walk is, and what it needs to resolve local `$ref`s on both trees. */
export interface WalkContext {
  side: SchemaSide;
  tool: string;
  rootBefore: JsonSchema;
  rootAfter: JsonSchema;
  /** Pairs of refs already followed on this path: a `$ref` cycle ends the walk there. */
  followed: Set<string>;
  depth: number;
  /**
   * Alternatives (anyOf/oneOf) compared inside alternatives, with no step of the walk between: a
   * `$ref` back to an ancestor can make that endless, so it is bounded (schema-variants.ts).
   */
  variantNest: number;
  /** Node comparisons left for this schema: a bound, reported as a finding when it is hit. */
  budget: { left: number; spent: boolean };
  /** The run's count of schema nodes visited, which every comparison adds to. */
  work: SchemaWork;
  /** Local refs each side resolved: definitions nobody reached are compared apart. */
  reached: { before: Set<string>; after: Set<string> };
  /** Whether both roots' `$defs`/`definitions` are equal, so a subtree that only refers to them can be skipped when equal. */
  definitionsEqual: boolean;
  /** The walk itself, for the comparators of subschemas (objects, arrays) to recurse through. */
  walk: (before: unknown, after: unknown, path: string[], ctx: WalkContext) => Change[];
}

export function walkContext(
  side: SchemaSide,
  tool: string,
  rootBefore: JsonSchema,
  rootAfter: JsonSchema,
  walk: WalkContext['walk'],
  work: SchemaWork = new SchemaWork(),
): WalkContext {
  const definitions = (root: JsonSchema) => constraintKey({ $defs: root.$defs, definitions: root.definitions });
  const keyBefore = definitions(rootBefore);
  return {
    side,
    tool,
    rootBefore,
    rootAfter,
    followed: new Set(),
    depth: 0,
    variantNest: 0,
    budget: { left: work.limits.perTool, spent: false },
    work,
    reached: { before: new Set(), after: new Set() },
    definitionsEqual: keyBefore !== null && keyBefore === definitions(rootAfter),
    walk,
  };
}

/** A change of this side's code (each code's severity already tells its direction for callers). */
export function emit(
  ctx: WalkContext,
  codes: { input: ChangeCode; output: ChangeCode },
  path: string[],
  before: unknown,
  after: unknown,
  note?: string,
): Change {
  return toolChange(codes[ctx.side], ctx.tool, path, before, after, note);
}

export type Direction = 'tightened' | 'loosened';

/**
 * Bounds on a value that an argument can gain where it had none. Declaring one is held, not rolled
 * back: the witness is a value at the edge (an empty query, page 0, a fractional page), which servers
 * mostly refused in code already (docs/judgements.md, O4 and X3; the write-ups' field constraints).
 * A bound that moves (maximum 100 → 10) is still input-constraint-tightened.
 */
const DECLARABLE = VALUE_BOUNDS;

/** A constraint that now accepts less (tightened) or more (loosened), told from the side's point of view. */
export function constraint(ctx: WalkContext, direction: Direction, path: string[], before: unknown, after: unknown, note?: string): Change {
  if (
    ctx.side === 'input' &&
    direction === 'tightened' &&
    (before === null || before === undefined) &&
    DECLARABLE.has(path.at(-1)!) &&
    !path.includes('propertyNames')
  ) {
    const degenerate = refusesOnlyDegenerate(path, after, { before: ctx.rootBefore, after: ctx.rootAfter });
    return toolChange(degenerate ? 'input-constraint-declared-degenerate' : 'input-constraint-declared', ctx.tool, path, null, after, note);
  }
  return direction === 'tightened'
    ? emit(ctx, { input: 'input-constraint-tightened', output: 'output-constraint-tightened' }, path, before, after, note)
    : emit(ctx, { input: 'input-constraint-loosened', output: 'output-constraint-loosened' }, path, before, after, note);
}

/**
 * A type set that lost (narrowed) or gained (widened) values. On the output side, `nullOnly` says
 * the candidate may still return every kind the baseline did, and null besides.
 */
export function typeChange(ctx: WalkContext, lost: boolean, path: string[], before: unknown, after: unknown, nullOnly = false): Change {
  const code =
    ctx.side === 'input'
      ? lost
        ? 'input-type-changed'
        : 'input-type-widened'
      : lost
        ? 'output-type-narrowed'
        : nullOnly
          ? 'output-type-nullable'
          : 'output-type-changed';
  return toolChange(code, ctx.tool, path, before, after);
}

/** What the walker cannot order: a person must look. Never silence. */
export const unclassified = (ctx: WalkContext, path: string[], why: string): Change =>
  toolChange('schema-changed', ctx.tool, path, null, null, why);

/** Changes the walk could not read at all (a bound hit, a reference that resolves nowhere). */
const UNREAD = new WeakSet<Change>();

/**
 * Counts one node comparison against the run and the schema's budget: null while within it; the
 * once-told "too large" finding when it runs out, and nothing after that.
 */
export function spend(ctx: WalkContext, path: string[]): Change[] | null {
  ctx.work.count();
  if (--ctx.budget.left >= 0) return null;
  if (ctx.budget.spent) return [];
  ctx.budget.spent = true;
  const limit = showNodes(ctx.work.limits.perTool);
  return [
    unread(ctx, path, `The schema is too large to compare in full (${limit} nodes, limits.schemaNodesPerTool); the rest was not compared.`),
  ];
}

/**
 * What the walker could not read: held, and never calmed by the witness search (diff/confirm.ts),
 * which cannot read past the same bounds either.
 */
export function unread(ctx: WalkContext, path: string[], why: string): Change {
  const c = unclassified(ctx, path, why);
  UNREAD.add(c);
  return c;
}

export const isUnread = (c: Change): boolean => UNREAD.has(c);

/**
 * Changes the walk proved no caller meets, with the proof: diff/confirm.ts lets them go as calm
 * without a search (docs/verdicts.md, "Calm needs a proof").
 */
const PROOFS = new WeakMap<Change, string>();

export function withProof(c: Change, proof: string): Change {
  PROOFS.set(c, proof);
  return c;
}

export const proofOf = (c: Change): string | undefined => PROOFS.get(c);

/** Changes on a side that was not walked at all: too complex, so the witness search does not read it either. */
const TOO_COMPLEX = new WeakSet<Change>();

export function markTooComplex(c: Change): Change {
  UNREAD.add(c);
  TOO_COMPLEX.add(c);
  return c;
}

export const isTooComplex = (c: Change): boolean => TOO_COMPLEX.has(c);

export const annotationChange = (ctx: WalkContext, path: string[], before: unknown, after: unknown): Change =>
  toolChange('schema-annotation-changed', ctx.tool, path, before, after);

const KEYS = new WeakMap<object, string | null>();
const keyOf = (value: unknown): string | null => {
  if (!isObject(value)) return constraintKey(value);
  if (!KEYS.has(value)) KEYS.set(value, constraintKey(value));
  return KEYS.get(value)!;
};
const REF = /"\$ref":"([^"]*)"/g;

/**
 * Whether two raw subschemas assert the same thing, so the walk can skip them. A subtree with a
 * `$ref` is the same only when every ref points into definitions that are equal on both sides.
 */
export function sameSubschema(before: unknown, after: unknown, ctx: WalkContext): boolean {
  const kb = keyOf(before);
  if (kb === null || kb !== keyOf(after)) return false;
  if (!kb.includes('"$ref"')) return true;
  if (!ctx.definitionsEqual) return false;
  for (const m of kb.matchAll(REF)) if (!/^#\/(\$defs|definitions)\//.test(m[1]!)) return false;
  return true;
}
