import type { Change } from '../findings/types.js';
import type { JsonSchema } from '../contract/types.js';
import { constraint, unclassified, type Direction, type WalkContext } from './schema-context.js';
import { accepts } from './schema-keywords.js';
import { toolChange } from './change.js';
import { patternDifference } from '../witness/pattern-language.js';

/** Count bounds where a larger value accepts less, and where a smaller one does. */
const LOWER_COUNTS = { string: ['minLength'], array: ['minItems'], object: ['minProperties'] } as const;
const UPPER_COUNTS = { string: ['maxLength'], array: ['maxItems'], object: ['maxProperties'] } as const;

function countDirection(lower: boolean, before: unknown, after: unknown): Direction | null {
  const b = typeof before === 'number' ? before : null;
  const a = typeof after === 'number' ? after : null;
  if (b === a) return null;
  if (b === null) return 'tightened';
  if (a === null) return 'loosened';
  return lower === a > b ? 'tightened' : 'loosened';
}

export function compareCounts(
  kind: 'string' | 'array' | 'object',
  b: JsonSchema,
  a: JsonSchema,
  path: string[],
  ctx: WalkContext,
): Change[] {
  const out: Change[] = [];
  for (const [keywords, lower] of [
    [LOWER_COUNTS[kind], true],
    [UPPER_COUNTS[kind], false],
  ] as const) {
    for (const keyword of keywords) {
      const direction = countDirection(lower, b[keyword], a[keyword]);
      if (direction) out.push(constraint(ctx, direction, [...path, keyword], b[keyword], a[keyword]));
    }
  }
  return out;
}

interface Bound {
  value: number;
  exclusive: boolean;
  keyword: string;
}

/** The effective lower (or upper) bound of a number schema: the tighter of the inclusive and exclusive ones. */
function bound(s: JsonSchema, lower: boolean): Bound | null {
  const [inclusive, exclusive] = lower ? ['minimum', 'exclusiveMinimum'] : ['maximum', 'exclusiveMaximum'];
  const i = typeof s[inclusive] === 'number' ? (s[inclusive] as number) : null;
  const e = typeof s[exclusive] === 'number' ? (s[exclusive] as number) : null;
  if (i === null && e === null) return null;
  if (e === null) return { value: i!, exclusive: false, keyword: inclusive };
  if (i === null) return { value: e, exclusive: true, keyword: exclusive };
  const exclusiveIsTighter = lower ? e >= i : e <= i;
  return exclusiveIsTighter ? { value: e, exclusive: true, keyword: exclusive } : { value: i, exclusive: false, keyword: inclusive };
}

/**
 * A bound as a change shows it: its number, or `{ keyword: number }` when the other side bounds with
 * the other keyword, so `exclusiveMaximum: 50` becoming `maximum: 50` does not read as "50 -> 50".
 */
const shownBound = (b: Bound | null, other: Bound | null): number | Record<string, number> | null =>
  b === null ? null : other && other.keyword !== b.keyword ? { [b.keyword]: b.value } : b.value;

function boundDirection(lower: boolean, b: Bound | null, a: Bound | null): Direction | null {
  if (!b && !a) return null;
  if (!b) return 'tightened';
  if (!a) return 'loosened';
  if (a.value !== b.value) return lower === a.value > b.value ? 'tightened' : 'loosened';
  if (a.exclusive === b.exclusive) return null;
  return a.exclusive ? 'tightened' : 'loosened';
}

const integerOnly = (s: JsonSchema): boolean => s.type === 'integer';

/** A bound as it bounds the integers: an exclusive one is the inclusive one next to it, a fraction rounded inwards. */
function onIntegers(b: Bound | null, lower: boolean): Bound | null {
  if (b === null || (!b.exclusive && Number.isInteger(b.value))) return b;
  const value = lower
    ? b.exclusive
      ? Math.floor(b.value) + 1
      : Math.ceil(b.value)
    : b.exclusive
      ? Math.ceil(b.value) - 1
      : Math.floor(b.value);
  return { value, exclusive: false, keyword: lower ? 'minimum' : 'maximum' };
}

/** Whether every multiple of `m` is a multiple of `of` (`of` divides `m`), within float noise. */
const divides = (of: number, m: number): boolean => {
  const ratio = m / of;
  return Math.abs(ratio - Math.round(ratio)) < 1e-9;
};

export function compareNumbers(b: JsonSchema, a: JsonSchema, path: string[], ctx: WalkContext): Change[] {
  if (!accepts(b, 'number') && !accepts(a, 'number')) return [];
  const out: Change[] = [];
  // Where one side takes integers only, the type change tells the fractions apart: the bounds are
  // compared over the integers (`exclusiveMinimum: 0` on a number is `minimum: 1` there).
  const integers = integerOnly(b) || integerOnly(a);
  for (const lower of [true, false]) {
    const before = integers ? onIntegers(bound(b, lower), lower) : bound(b, lower);
    const after = integers ? onIntegers(bound(a, lower), lower) : bound(a, lower);
    const direction = boundDirection(lower, before, after);
    if (direction)
      out.push(constraint(ctx, direction, [...path, (after ?? before)!.keyword], shownBound(before, after), shownBound(after, before)));
  }
  const mb = typeof b.multipleOf === 'number' && b.multipleOf > 0 ? b.multipleOf : null;
  const ma = typeof a.multipleOf === 'number' && a.multipleOf > 0 ? a.multipleOf : null;
  if (mb !== ma) {
    // Neither step divides the other (2 -> 3): each side takes a multiple the other refuses, which
    // breaks a caller (input) and a consumer (output) alike.
    const apart: Direction = ctx.side === 'input' ? 'tightened' : 'loosened';
    const direction: Direction =
      ma === null ? 'loosened' : mb === null ? 'tightened' : divides(ma, mb) ? 'loosened' : divides(mb, ma) ? 'tightened' : apart;
    out.push(constraint(ctx, direction, [...path, 'multipleOf'], mb, ma));
  }
  return out;
}

/** Formats whose valid strings include every string valid for the key. */
const WIDER_FORMATS: Record<string, string[]> = {
  uri: ['uri-reference', 'iri', 'iri-reference'],
  'uri-reference': ['iri-reference'],
  iri: ['iri-reference'],
  email: ['idn-email'],
  hostname: ['idn-hostname'],
};

export function compareStrings(b: JsonSchema, a: JsonSchema, path: string[], ctx: WalkContext): Change[] {
  if (!accepts(b, 'string') && !accepts(a, 'string')) return [];
  const out = compareCounts('string', b, a, path, ctx);
  const pb = typeof b.pattern === 'string' ? b.pattern : null;
  const pa = typeof a.pattern === 'string' ? a.pattern : null;
  if (pb !== pa) out.push(...comparePatterns(b, a, pb, pa, [...path, 'pattern'], ctx));
  const fb = typeof b.format === 'string' ? b.format : null;
  const fa = typeof a.format === 'string' ? a.format : null;
  if (fb !== fa) {
    const loosened = fa === null || (fb !== null && (WIDER_FORMATS[fb] ?? []).includes(fa));
    const tightened = fb === null || (fa !== null && (WIDER_FORMATS[fa] ?? []).includes(fb));
    // Formats neither of which holds the other (ipv4 -> hostname): each takes strings the other
    // refuses, so it breaks on either side.
    const direction: Direction = loosened ? 'loosened' : tightened ? 'tightened' : ctx.side === 'input' ? 'tightened' : 'loosened';
    out.push(constraint(ctx, direction, [...path, 'format'], fb, fa));
  }
  return out;
}

/**
 * Two patterns (null: none) compared as regular languages (witness/pattern-language.ts), within the
 * lengths both nodes allow (a length changed is its own change). The direction is proven, with a
 * string that shows it; patterns that accept the same strings are a rewrite, which validates the
 * same. Patterns refa cannot compare (lookaround, backreferences, too many states) are held.
 */
function comparePatterns(b: JsonSchema, a: JsonSchema, pb: string | null, pa: string | null, at: string[], ctx: WalkContext): Change[] {
  const lengths = {
    min: Math.max(count(b.minLength, 0), count(a.minLength, 0)),
    max: Math.min(count(b.maxLength, Infinity), count(a.maxLength, Infinity)),
  };
  const lost = patternDifference(pb, pa, lengths);
  const gained = patternDifference(pa, pb, lengths);
  if ('unknown' in lost || 'unknown' in gained) {
    const why = 'unknown' in lost ? lost.unknown : (gained as { unknown: string }).unknown;
    // A pattern added or dropped keeps its direction: what it refuses is for the search to show.
    if (pb === null) return [constraint(ctx, 'tightened', at, null, pa)];
    if (pa === null) return [constraint(ctx, 'loosened', at, pb, null)];
    return [
      unclassified(
        ctx,
        at,
        `The pattern changed from ${JSON.stringify(pb)} to ${JSON.stringify(pa)}, and the patterns could not be compared as languages (${why}).`,
      ),
    ];
  }
  const [less, more] = [lost.words, gained.words];
  if (!less.length && !more.length)
    return [
      toolChange(
        'schema-annotation-changed',
        ctx.tool,
        at,
        pb,
        pa,
        'Compared as regular languages, the two patterns accept the same strings.',
      ),
    ];
  const shown = [
    ...(less.length ? [`${JSON.stringify(less[0])} matched before and no longer does`] : []),
    ...(more.length ? [`${JSON.stringify(more[0])} matches now and did not`] : []),
  ];
  const note = `Compared as regular languages: ${shown.join('; ')}.`;
  // Input: accepting less breaks callers. Output: promising more breaks consumers.
  const breaks = ctx.side === 'input' ? less.length > 0 : more.length > 0;
  const direction: Direction = breaks === (ctx.side === 'input') ? 'tightened' : 'loosened';
  return [constraint(ctx, direction, at, pb, pa, note)];
}

const count = (value: unknown, none: number): number => (typeof value === 'number' && value >= 0 ? value : none);

/** The schema for position `i` of an array: its `prefixItems` entry, else the rest (`items`, then `unevaluatedItems`). */
const restOf = (s: JsonSchema): unknown => (s.items !== undefined ? s.items : s.unevaluatedItems);
const prefixOf = (s: JsonSchema): unknown[] => (Array.isArray(s.prefixItems) ? s.prefixItems : []);

export function compareArrays(b: JsonSchema, a: JsonSchema, path: string[], ctx: WalkContext): Change[] {
  if (!accepts(b, 'array') && !accepts(a, 'array')) return [];
  const out = compareCounts('array', b, a, path, ctx);
  if (Boolean(b.uniqueItems) !== Boolean(a.uniqueItems))
    out.push(
      constraint(ctx, a.uniqueItems ? 'tightened' : 'loosened', [...path, 'uniqueItems'], b.uniqueItems ?? false, a.uniqueItems ?? false),
    );
  const pb = prefixOf(b);
  const pa = prefixOf(a);
  for (let i = 0; i < Math.max(pb.length, pa.length); i++) {
    out.push(...ctx.walk(i < pb.length ? pb[i] : restOf(b), i < pa.length ? pa[i] : restOf(a), [...path, 'prefixItems', String(i)], ctx));
  }
  if (restOf(b) !== undefined || restOf(a) !== undefined) out.push(...ctx.walk(restOf(b), restOf(a), [...path, 'items'], ctx));
  if ('contains' in b || 'contains' in a) {
    const at = [...path, 'contains'];
    if (!('contains' in b)) out.push(constraint(ctx, 'tightened', at, null, a.contains));
    else if (!('contains' in a)) out.push(constraint(ctx, 'loosened', at, b.contains, null));
    else {
      out.push(...ctx.walk(b.contains, a.contains, at, ctx));
      const withDefault = (s: JsonSchema): JsonSchema => ({ ...s, minContains: typeof s.minContains === 'number' ? s.minContains : 1 });
      for (const [keyword, lower] of [
        ['minContains', true],
        ['maxContains', false],
      ] as const) {
        const direction = countDirection(lower, withDefault(b)[keyword], withDefault(a)[keyword]);
        if (direction) out.push(constraint(ctx, direction, [...path, keyword], b[keyword], a[keyword]));
      }
    }
  }
  return out;
}
