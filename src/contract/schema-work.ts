import type { JsonSchema } from './types.js';
import { isObject } from '../base/json-object.js';
import { unescapeSegment } from '../base/json-pointer.js';

/**
 * Work, not depth or time alone, bounds every walk over a server's schemas (docs/security.md, "Work
 * bounds every schema walk"). A schema whose definitions fan out (each level refers twice to the
 * next) is small as text and 2^n nodes once its `$ref`s are followed: every walk that follows them
 * (the comparison, the witness search) counts what it visits here, and a tool whose schemas would
 * cost more than `perTool` is held as too complex instead of being walked.
 */
export interface SchemaLimits {
  /** Schema nodes, `$ref`s followed, that one side of one tool may cost a walk (limits.schemaNodesPerTool). */
  perTool: number;
  /** Schema nodes all the walks of a run may visit together (limits.schemaNodesPerRun). */
  perRun: number;
}

export const DEFAULT_SCHEMA_LIMITS: SchemaLimits = { perTool: 20_000, perRun: 1_000_000 };

/** How often (in nodes) a walk looks at the clock: rare enough to cost nothing, often enough to keep runMs. */
const TICK_EVERY = 2048;

/**
 * The run's count of schema nodes visited. `tick` is called every few thousand nodes: the run's
 * deadline throws from there, so a walk that hogs the main thread still ends at `timeouts.runMs`.
 */
export class SchemaWork {
  /** Nodes the walks visited: what the run's budget bounds. */
  visited = 0;
  /** Witness searches run (witness/search.ts): a release-wide change costs one per distinct pair of schemas. */
  searches = 0;
  /** Every node read, measuring included: what the clock is looked at by. */
  private read = 0;
  private nextTick = TICK_EVERY;

  constructor(
    readonly limits: SchemaLimits = DEFAULT_SCHEMA_LIMITS,
    private readonly tick: () => void = () => undefined,
  ) {}

  /** Counts `n` nodes visited. */
  count(n = 1): void {
    this.visited += n;
    this.measured(n);
  }

  /** Counts `n` nodes read by a linear pass (a measure), which the clock sees but the budget does not. */
  measured(n = 1): void {
    this.read += n;
    if (this.read >= this.nextTick) {
      this.nextTick = this.read + TICK_EVERY;
      this.tick();
    }
  }

  /** Whether the run's budget is spent: walks not begun are not begun. */
  get runSpent(): boolean {
    return this.visited >= this.limits.perRun;
  }
}

/**
 * How many nodes a walk that follows local `$ref`s would visit in this schema: each definition
 * counted as many times as the paths that reach it, a reference back into its own path counted
 * once (walks stop at cycles). Computed in one pass over the text (each definition's figure is
 * remembered), so measuring a fan-out of 2^30 nodes costs 30 definitions, not 2^30 visits. The
 * pass is linear in the text: it keeps the clock in view, and spends nothing from the run's budget.
 */
export function expandedSize(schema: unknown, work?: SchemaWork): number {
  const root = schema;
  const memo = new Map<string, number>();
  const onPath = new Set<string>();
  const sizeOf = (node: unknown): number => {
    work?.measured();
    if (Array.isArray(node)) return 1 + node.reduce<number>((sum, item) => sum + sizeOf(item), 0);
    if (!isObject(node)) return 1;
    let size = 1;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#')) size += refSize(value);
      // Definitions are counted where they are referred to, not where they are written.
      else if ((key === '$defs' || key === 'definitions') && node === root) size += 1;
      else if (value !== null && typeof value === 'object') size += sizeOf(value);
    }
    return size;
  };
  const refSize = (ref: string): number => {
    const known = memo.get(ref);
    if (known !== undefined) return known;
    if (onPath.has(ref)) return 1;
    const target = lookup(root, ref);
    if (target === undefined) return 1;
    onPath.add(ref);
    const size = sizeOf(target);
    onPath.delete(ref);
    memo.set(ref, size);
    return size;
  };
  return sizeOf(root);
}

function lookup(root: unknown, ref: string): unknown {
  let target: unknown = root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    let key: string;
    try {
      key = unescapeSegment(decodeURIComponent(raw));
    } catch {
      return undefined;
    }
    if (Array.isArray(target) && /^\d+$/.test(key)) target = target[Number(key)];
    else target = isObject(target) && Object.hasOwn(target, key) ? target[key] : undefined;
  }
  return target;
}

/** A figure for a message: exact while it is, then a power of ten. */
export const showNodes = (n: number): string =>
  n < 1e15 ? Math.round(n).toLocaleString('en-US') : `more than 10^${Math.floor(Math.log10(n))}`;

const sizes = new WeakMap<object, number>();

/**
 * `expandedSize`, measured once per schema object: the audit asks it for a tool's output schema
 * at each result, and a validator that follows `$ref`s must not start on a schema past the bound.
 */
export function schemaSize(schema: JsonSchema): number {
  let size = sizes.get(schema);
  if (size === undefined) sizes.set(schema, (size = expandedSize(schema)));
  return size;
}

/** Why one side of a tool is not walked (null: it may be). `schema` absent: nothing to walk. */
export function tooComplex(schema: JsonSchema | null | undefined, work: SchemaWork): string | null {
  if (!schema) return null;
  const size = expandedSize(schema, work);
  if (size > work.limits.perTool)
    return `it would cost ${showNodes(size)} schema nodes with its $refs followed, past limits.schemaNodesPerTool (${showNodes(work.limits.perTool)})`;
  return null;
}
