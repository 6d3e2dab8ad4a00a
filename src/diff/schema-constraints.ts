import type { Change } from '../findings/types.js';
import type { JsonSchema } from '../contract/types.js';
import { emit, type WalkContext } from './schema-context.js';

/** Bounds where a larger value accepts less, and where a smaller one does. */
const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'] as const;
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'] as const;
/** Keywords whose presence restricts values and whose change cannot be ordered. */
const RESTRICTIONS = ['pattern', 'format', 'multipleOf'] as const;

type Direction = 'tightened' | 'loosened';

function boundDirection(keyword: string, before: unknown, after: unknown): Direction | null {
  const lower = (LOWER_BOUNDS as readonly string[]).includes(keyword);
  if (typeof before !== 'number' && typeof after !== 'number') return null;
  if (typeof before !== 'number') return 'tightened';
  if (typeof after !== 'number') return 'loosened';
  if (before === after) return null;
  return lower === after > before ? 'tightened' : 'loosened';
}

function restrictionDirection(before: unknown, after: unknown): Direction | null {
  if (before === after) return null;
  if (before === undefined) return 'tightened';
  if (after === undefined) return 'loosened';
  return 'tightened'; // a different pattern or format may reject what the old one accepted
}

/**
 * Bounds, patterns, formats, uniqueness and `additionalProperties`. Tightening breaks the input
 * side and is safe on the output side; loosening is the reverse (and only dangerous on output,
 * where consumers may still cope).
 */
export function compareConstraints(b: JsonSchema, a: JsonSchema, path: string[], ctx: WalkContext): Change[] {
  const out: Change[] = [];
  const report = (keyword: string, direction: Direction | null) => {
    if (!direction) return;
    const codes = direction === 'tightened'
      ? { input: 'input-constraint-tightened', output: 'output-constraint-tightened' } as const
      : { input: 'input-constraint-loosened', output: 'output-constraint-loosened' } as const;
    const severities = direction === 'tightened'
      ? { input: 'breaking', output: 'safe' } as const
      : { input: 'safe', output: 'dangerous' } as const;
    out.push(emit(ctx, codes, severities, [...path, keyword], b[keyword], a[keyword]));
  };
  for (const keyword of [...LOWER_BOUNDS, ...UPPER_BOUNDS]) report(keyword, boundDirection(keyword, b[keyword], a[keyword]));
  for (const keyword of RESTRICTIONS) report(keyword, restrictionDirection(b[keyword], a[keyword]));
  if (Boolean(b.uniqueItems) !== Boolean(a.uniqueItems)) report('uniqueItems', a.uniqueItems ? 'tightened' : 'loosened');

  const closedBefore = b.additionalProperties === false;
  const closedAfter = a.additionalProperties === false;
  if (closedBefore !== closedAfter) {
    const at = [...path, 'additionalProperties'];
    out.push(closedAfter
      ? emit(ctx, { input: 'input-closed', output: 'output-constraint-tightened' }, { input: 'breaking', output: 'safe' }, at, b.additionalProperties, false)
      : emit(ctx, { input: 'input-opened', output: 'output-constraint-loosened' }, { input: 'safe', output: 'dangerous' }, at, false, a.additionalProperties));
  }
  return out;
}
