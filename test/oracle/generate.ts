import type { Schema } from './ajv.js';
import {
  ALL_FORMAT_STRINGS,
  BASIC_NUMBERS,
  BASIC_STRINGS,
  FORMAT_EXAMPLES,
  NUMERIC_FORMAT_EXAMPLES,
  UNSAFE_NUMBERS,
  codePoints,
  formatCheck,
  ofLength,
  patternStrings,
  patternTest,
} from './values.js';

/**
 * Candidate instances of a schema, read from its keywords: a search space, not a set of valid
 * values (ajv decides validity). Values that look valid come first, then the values at and just
 * past each keyword's boundary, which is where two schemas that differ in one keyword part.
 */
export const isObject = (v: unknown): v is Schema => v !== null && typeof v === 'object' && !Array.isArray(v);
export const keyOf = (v: unknown): string => JSON.stringify(v) ?? 'undefined';
export type Step = string | number;

/** One value of every JSON type: what a location is tried with whatever its schema says. */
export const TYPE_SWEEP: unknown[] = ['a', 1, 2.5, true, null, {}, [], -1, 'x y', ''];
const ANY_VALUES: unknown[] = ['a', 1, true, null, {}, [], 2.5, 'abc', 0, -1, false];
export const EXTRA_NAME = 'zz_extra';
/** An undeclared name longer than any `propertyNames` bound a schema is likely to set. */

const CAP = 40;

export const interleave = (lists: unknown[][]): unknown[] => {
  const out: unknown[] = [];
  for (let i = 0; lists.some((l) => i < l.length); i++) for (const l of lists) if (i < l.length) out.push(l[i]);
  return out;
};

export const unique = (list: unknown[], limit = Infinity): unknown[] => {
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const v of list) {
    if (v === undefined) continue;
    const k = keyOf(v);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(v);
    if (out.length >= limit) break;
  }
  return out;
};

/** A local `$ref` (a JSON pointer into the document); undefined when it points elsewhere. */
export function resolve(root: Schema, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let target: unknown = root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const k = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(target) && /^\d+$/.test(k)) target = target[Number(k)];
    else target = isObject(target) && Object.hasOwn(target, k) ? target[k] : undefined;
  }
  return target;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

interface Flat extends Schema {
  $false?: boolean;
  $patterns?: string[];
  $groups?: unknown[][];
}

/**
 * One schema read as one conjunction for generating: `$ref` targets and `allOf` folded in, bounds
 * combined, `anyOf`/`oneOf`/`if` kept as groups of alternatives. Approximate by design.
 */
function flatten(root: Schema, node: unknown): Flat {
  const out: Flat = {};
  const refs: string[] = [];
  const both = (a: unknown, b: unknown) =>
    a === undefined ? b : b === undefined ? a : a === false || b === false ? false : { allOf: [a, b] };
  const absorb = (s: unknown, depth: number) => {
    if (s === false) out.$false = true;
    if (!isObject(s) || depth > 12) return;
    if (typeof s.$ref === 'string' && !refs.includes(s.$ref)) {
      const target = resolve(root, s.$ref);
      if (target !== undefined) {
        refs.push(s.$ref);
        absorb(target, depth + 1);
        refs.pop();
      }
    }
    for (const [k, v] of Object.entries(s)) {
      switch (k) {
        case '$ref':
        case 'then':
        case 'else':
        case '$defs':
        case 'definitions':
        case 'description':
        case 'title':
          break;
        case 'allOf':
          if (Array.isArray(v)) v.forEach((b) => absorb(b, depth + 1));
          break;
        case 'anyOf':
        case 'oneOf':
          if (Array.isArray(v)) (out.$groups ??= []).push(v);
          break;
        case 'if':
          (out.$groups ??= []).push([{ allOf: [v, s.then ?? {}] }, s.else ?? {}]);
          break;
        case 'items':
          if (Array.isArray(v)) {
            out.prefixItems = v;
            if ('additionalItems' in s) out.items = both(out.items, s.additionalItems);
          } else out.items = both(out.items, v);
          break;
        case 'additionalItems':
          break;
        case 'properties':
        case 'patternProperties':
        case 'dependentSchemas':
          if (isObject(v)) {
            const map = { ...(isObject(out[k]) ? out[k] : {}) };
            for (const [name, sub] of Object.entries(v)) map[name] = both(map[name], sub);
            out[k] = map;
          }
          break;
        case 'dependentRequired':
        case 'dependencies':
          if (isObject(v)) out[k] = { ...(isObject(out[k]) ? out[k] : {}), ...v };
          break;
        case 'required':
          if (Array.isArray(v))
            out.required = [...new Set([...((out.required as string[]) ?? []), ...v.filter((x) => typeof x === 'string')])];
          break;
        case 'type': {
          const t = [v].flat().filter((x): x is string => typeof x === 'string');
          if (!Array.isArray(out.type)) out.type = t;
          else {
            const old = out.type as string[];
            out.type = t
              .filter((x) => old.includes(x) || (x === 'integer' && old.includes('number')))
              .concat(old.filter((x) => x === 'integer' && t.includes('number') && !t.includes('integer')));
          }
          break;
        }
        case 'enum':
          if (Array.isArray(v))
            out.enum = Array.isArray(out.enum) ? (out.enum as unknown[]).filter((x) => v.some((y) => keyOf(y) === keyOf(x))) : v;
          break;
        case 'minimum':
        case 'exclusiveMinimum':
        case 'minLength':
        case 'minItems':
        case 'minProperties':
        case 'minContains':
          if (typeof v === 'number') out[k] = typeof out[k] === 'number' ? Math.max(out[k] as number, v) : v;
          break;
        case 'maximum':
        case 'exclusiveMaximum':
        case 'maxLength':
        case 'maxItems':
        case 'maxProperties':
        case 'maxContains':
          if (typeof v === 'number') out[k] = typeof out[k] === 'number' ? Math.min(out[k] as number, v) : v;
          break;
        case 'multipleOf':
          if (typeof v === 'number' && v > 0) {
            const m = out.multipleOf;
            out.multipleOf = typeof m === 'number' && Number.isInteger(m) && Number.isInteger(v) ? (m * v) / gcd(m, v) : (m ?? v);
          }
          break;
        case 'pattern':
          if (typeof v === 'string') out.$patterns = [...(out.$patterns ?? []), v];
          break;
        case '$patterns':
          if (Array.isArray(v)) out.$patterns = [...(out.$patterns ?? []), ...(v as string[])];
          break;
        case 'prefixItems':
          if (Array.isArray(v)) {
            const old = Array.isArray(out.prefixItems) ? out.prefixItems : [];
            out.prefixItems = Array.from({ length: Math.max(old.length, v.length) }, (_, i) => both(old[i], v[i]));
          }
          break;
        case 'additionalProperties':
        case 'unevaluatedProperties':
        case 'unevaluatedItems':
        case 'contains':
        case 'propertyNames':
        case 'not':
          out[k] = both(out[k], v);
          break;
        default:
          if (!(k in out)) out[k] = v;
      }
    }
  };
  absorb(node, 0);
  return out;
}

const STRING_KEYS = ['minLength', 'maxLength', 'pattern', 'format'];
const NUMBER_KEYS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];
const ARRAY_KEYS = ['items', 'prefixItems', 'contains', 'minItems', 'maxItems', 'uniqueItems', 'additionalItems', 'unevaluatedItems'];
const OBJECT_KEYS = [
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'unevaluatedProperties',
];

function typesOf(flat: Flat): string[] | null {
  if (Array.isArray(flat.type)) return flat.type as string[];
  const inferred: string[] = [];
  if (OBJECT_KEYS.some((k) => k in flat)) inferred.push('object');
  if (ARRAY_KEYS.some((k) => k in flat)) inferred.push('array');
  if (STRING_KEYS.some((k) => k in flat) || flat.$patterns) inferred.push('string');
  if (NUMBER_KEYS.some((k) => k in flat)) inferred.push('number');
  return inferred.length ? inferred : null;
}

/** Whether a string passes the node's own string keywords (ajv has the last word). */
function stringFits(flat: Flat, s: string): boolean {
  const n = codePoints(s);
  if (typeof flat.minLength === 'number' && n < flat.minLength) return false;
  if (typeof flat.maxLength === 'number' && n > flat.maxLength) return false;
  if (flat.$patterns && !flat.$patterns.every((p) => patternTest(p, s))) return false;
  if (typeof flat.format === 'string') {
    const check = formatCheck(flat.format);
    if (check && !check(s)) return false;
  }
  return true;
}

function numberFits(flat: Flat, x: number, integer: boolean): boolean {
  if (integer && !Number.isInteger(x)) return false;
  if (typeof flat.minimum === 'number' && x < flat.minimum) return false;
  if (typeof flat.maximum === 'number' && x > flat.maximum) return false;
  if (typeof flat.exclusiveMinimum === 'number' && x <= flat.exclusiveMinimum) return false;
  if (typeof flat.exclusiveMaximum === 'number' && x >= flat.exclusiveMaximum) return false;
  if (typeof flat.multipleOf === 'number' && flat.multipleOf > 0) {
    const r = x / flat.multipleOf;
    if (Math.abs(r - Math.round(r)) > 1e-9) return false;
  }
  return Math.abs(x) <= Number.MAX_SAFE_INTEGER;
}

const fitsFirst = <T>(list: T[], fits: (v: T) => boolean): T[] => [...list.filter(fits), ...list.filter((v) => !fits(v))];

function strings(flat: Flat): unknown[] {
  const patterns = flat.$patterns ?? [];
  const made = patterns.map((p) => patternStrings(p));
  const format = typeof flat.format === 'string' ? flat.format : null;
  const bases = unique([
    ...made.flatMap((m) => m.matching.slice(0, 8)),
    ...(format ? (FORMAT_EXAMPLES[format] ?? []) : []),
    ...BASIC_STRINGS.slice(0, 3),
  ]) as string[];
  const lo = typeof flat.minLength === 'number' ? flat.minLength : null;
  const hi = typeof flat.maxLength === 'number' ? flat.maxLength : null;
  const sized: string[] = [];
  for (const b of bases.slice(0, 3)) {
    for (const n of [
      lo,
      lo === null ? null : lo - 1,
      lo === null ? null : lo + 1,
      hi,
      hi === null ? null : hi + 1,
      hi === null ? null : hi - 1,
    ])
      if (n !== null && n >= 0 && n <= 4096) sized.push(ofLength(b, n));
  }
  const all = unique([
    ...bases,
    ...sized,
    ...made.flatMap((m) => m.missing),
    ...(format ? ALL_FORMAT_STRINGS : []),
    ...BASIC_STRINGS,
  ]) as string[];
  return fitsFirst(all, (s) => stringFits(flat, s)).slice(0, CAP);
}

function numbers(flat: Flat, integer: boolean): unknown[] {
  const vals: number[] = [];
  for (const k of ['minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum'] as const) {
    const b = flat[k];
    if (typeof b === 'number') vals.push(b, b + 1, b - 1, b + 0.5, b - 0.5, b + 0.25, b - 0.25);
  }
  const m = typeof flat.multipleOf === 'number' && flat.multipleOf > 0 ? flat.multipleOf : null;
  if (m !== null) {
    vals.push(m, 2 * m, 3 * m, 0, -m, m / 2, 1.5 * m, 5 * m);
    for (const k of ['minimum', 'exclusiveMinimum', 'maximum', 'exclusiveMaximum'] as const) {
      const b = flat[k];
      if (typeof b === 'number')
        vals.push(Math.ceil(b / m) * m, Math.floor(b / m) * m, Math.ceil(b / m) * m + m, Math.floor(b / m) * m - m);
    }
  }
  if (typeof flat.format === 'string') vals.push(...(NUMERIC_FORMAT_EXAMPLES[flat.format] ?? []));
  vals.push(...BASIC_NUMBERS);
  const finite = vals.filter((v) => Number.isFinite(v));
  const ordered = fitsFirst(unique(finite) as number[], (x) => numberFits(flat, x, integer));
  return [...ordered.filter((x) => Math.abs(x) <= Number.MAX_SAFE_INTEGER), ...UNSAFE_NUMBERS].slice(0, CAP);
}

/** The schema that governs a property name in one (flattened) object schema, if any says. */
function propertySchema(flat: Flat, name: string): unknown {
  const props = isObject(flat.properties) ? flat.properties : {};
  if (Object.hasOwn(props, name)) return props[name];
  if (isObject(flat.patternProperties)) for (const [p, sub] of Object.entries(flat.patternProperties)) if (patternTest(p, name)) return sub;
  if (flat.additionalProperties !== undefined) return flat.additionalProperties;
  return flat.unevaluatedProperties;
}

/** Generates candidates for subschemas of one document (memoised per node). */
export class Generator {
  private memo = new Map<unknown, unknown[]>();
  private active = new Set<unknown>();
  constructor(readonly root: Schema) {}

  of(node: unknown, depth = 0): unknown[] {
    if (node === false) return [];
    if (!isObject(node)) return ANY_VALUES;
    const memo = this.memo.get(node);
    if (memo) return memo;
    if (this.active.has(node) || depth > 7) return this.shallow(node);
    this.active.add(node);
    let out: unknown[];
    try {
      out = this.flat(flatten(this.root, node), depth);
    } finally {
      this.active.delete(node);
    }
    this.memo.set(node, out);
    return out;
  }

  /** Cheap values for a node met again inside itself (a recursive `$ref`) or too deep. */
  private shallow(node: Schema): unknown[] {
    const flat = flatten(this.root, node);
    if (flat.$false) return [];
    if ('const' in flat) return [flat.const];
    if (Array.isArray(flat.enum)) return flat.enum.slice(0, 4);
    const types = typesOf(flat) ?? ['string'];
    const out: unknown[] = [];
    for (const t of types) {
      if (t === 'object') out.push(Object.fromEntries(((flat.required as string[]) ?? []).map((r) => [r, 'a'])));
      else if (t === 'array') out.push([]);
      else if (t === 'string') out.push(...strings(flat).slice(0, 2));
      else if (t === 'number' || t === 'integer') out.push(...numbers(flat, t === 'integer').slice(0, 2));
      else if (t === 'boolean') out.push(true);
      else if (t === 'null') out.push(null);
    }
    return out;
  }

  private flat(flat: Flat, depth: number): unknown[] {
    if (flat.$false) return [];
    const alternatives: unknown[][] = [];
    if (flat.$groups?.length) {
      const { $groups, ...rest } = flat;
      // One group at a time, each alternative conjoined with the rest of the node.
      for (const branch of $groups[0]!)
        alternatives.push(
          this.flat(flatten(this.root, { allOf: [rest, branch, ...$groups.slice(1).map((g) => ({ anyOf: g }))] }), depth + 1),
        );
    }
    const own: unknown[] = [];
    if ('const' in flat) own.push(flat.const);
    else if (Array.isArray(flat.enum)) own.push(...flat.enum);
    else {
      const types = typesOf(flat);
      if (types === null) own.push(...ANY_VALUES);
      else
        own.push(
          ...interleave(
            types.map((t) => {
              if (t === 'string') return strings(flat);
              if (t === 'number' || t === 'integer') return numbers(flat, t === 'integer');
              if (t === 'boolean') return [true, false];
              if (t === 'null') return [null];
              if (t === 'object') return this.objects(flat, depth);
              if (t === 'array') return this.arrays(flat, depth);
              return [];
            }),
          ),
        );
    }
    return unique(interleave([...alternatives, own]), CAP * 2);
  }

  private objects(flat: Flat, depth: number): unknown[] {
    const props = isObject(flat.properties) ? flat.properties : {};
    const required = Array.isArray(flat.required) ? (flat.required as string[]) : [];
    const value = (name: string, choice: number) => {
      const options = this.of(propertySchema(flat, name), depth + 1);
      return options.length ? options[Math.min(choice, options.length - 1)] : 'a';
    };
    const withDependencies = (o: Schema, choice: number) => {
      const deps = {
        ...(isObject(flat.dependentRequired) ? flat.dependentRequired : {}),
        ...(isObject(flat.dependencies) ? flat.dependencies : {}),
      };
      for (let round = 0; round < 3; round++)
        for (const [k, need] of Object.entries(deps))
          if (k in o && Array.isArray(need)) for (const n of need) if (typeof n === 'string' && !(n in o)) o[n] = value(n, choice);
      return o;
    };
    const minimal = (choice: number) => withDependencies(Object.fromEntries(required.map((r) => [r, value(r, choice)])), choice);
    const names = [...new Set([...required, ...Object.keys(props)])];
    const full = (choice: number) =>
      withDependencies(Object.fromEntries(names.filter((n) => props[n] !== false).map((n) => [n, value(n, choice)])), choice);
    const out: Schema[] = [minimal(0), full(0), minimal(1), full(1)];
    if (depth < 4) {
      const patternNames = isObject(flat.patternProperties)
        ? Object.keys(flat.patternProperties).flatMap((p) => patternStrings(p).matching.slice(0, 1))
        : [];
      for (const n of patternNames) out.push({ ...minimal(0), [n]: value(n, 0) });
      out.push({ ...minimal(0), [EXTRA_NAME]: value(EXTRA_NAME, 0) });
      const minP = typeof flat.minProperties === 'number' ? flat.minProperties : 0;
      if (minP > Object.keys(out[0]!).length) {
        const o = { ...out[1]! };
        for (let i = 0; Object.keys(o).length < minP && i < 64; i++) o[`${EXTRA_NAME}${i}`] = value(`${EXTRA_NAME}${i}`, 0);
        out.unshift(o);
      }
    }
    out.push({});
    return out;
  }

  private arrays(flat: Flat, depth: number): unknown[] {
    const prefix = Array.isArray(flat.prefixItems) ? flat.prefixItems : [];
    const rest = flat.items !== undefined ? flat.items : flat.unevaluatedItems;
    const items = rest === undefined ? ANY_VALUES : this.of(rest, depth + 1);
    const tuple: unknown[] = prefix.map((p) => this.of(p, depth + 1)[0] ?? null);
    const contains = flat.contains !== undefined ? this.of(flat.contains, depth + 1) : [];
    const lo = typeof flat.minItems === 'number' ? flat.minItems : 0;
    const hi = typeof flat.maxItems === 'number' ? flat.maxItems : null;
    const minC = typeof flat.minContains === 'number' ? flat.minContains : contains.length ? 1 : 0;
    const fill = (n: number, from: unknown[] = items) => {
      const out = [...tuple];
      for (let i = 0; out.length < n && from.length && i < 256; i++) out.push(from[i % from.length]);
      return out.slice(0, Math.max(n, 0));
    };
    const withContains = (base: unknown[], k: number) => [...base, ...Array.from({ length: k }, () => contains[0])];
    const out: unknown[] = [fill(Math.max(lo, tuple.length))];
    if (contains.length) out.unshift(withContains(fill(Math.max(0, lo - minC)), minC), withContains(fill(0), minC));
    out.push(tuple, [], fill(Math.max(lo, tuple.length) + 1), fill(2), fill(3), [items[0], items[0]]);
    if (hi !== null && hi <= 64) out.push(fill(hi), fill(hi + 1));
    if (lo > 0 && lo <= 64) out.push(fill(lo - 1));
    if (contains.length) out.push(withContains(fill(lo), minC + 1), withContains([], Math.max(minC - 1, 0)));
    return out;
  }
}
