import type { ErrorObject } from 'ajv';
import { validatorOf, type Schema, type Validator } from './ajv.js';
import { EXTRA_NAME, Generator, TYPE_SWEEP, interleave, isObject, keyOf, resolve, unique, type Step } from './generate.js';
import { rng, type Rng } from './prng.js';
import { patternStrings } from './values.js';

/**
 * The instance search: an instance that one schema accepts and the other refuses, or none within a
 * budget. ajv alone judges every instance. The search
 *  1. generates instances of both schemas (each keyword's boundaries), keeping the ones the
 *     accepting schema takes as seeds (repairing candidates from ajv's own error when too few are),
 *  2. perturbs each seed one location at a time (every value, and every property or item that could
 *     be added), locations where the two schemas' subschemas differ first, with values generated
 *     from both schemas' subschemas at that location, plus deletions, duplications and truncations,
 *  3. when generous: more seeds, perturbations that the accepting schema refused are repaired and
 *     tried again, two locations at a time, then a seeded random walk until the budget is spent.
 */
export interface SearchOptions {
  /** Instances judged at most (each one validated under one or both schemas). */
  budget: number;
  seeds: number;
  deep: boolean;
  seed: number;
}

export const FAST: SearchOptions = { budget: 3000, seeds: 6, deep: false, seed: 1 };
export const GENEROUS: SearchOptions = { budget: 40_000, seeds: 24, deep: true, seed: 7 };

export interface SearchResult {
  witness?: unknown;
  found: boolean;
  /** Instances judged. */
  tried: number;
}

const LONG_NAME = 'zz_extra_long_property_name_0123456789';

/** One schema document, read for the search: subschemas per instance location, and their candidates. */
class Side {
  readonly gen: Generator;
  private subs = new Map<string, Schema[]>();
  private keys = new WeakMap<object, string>();
  constructor(readonly root: Schema) {
    this.gen = new Generator(root);
  }

  /** Every schema that applies at the same location as `node`: refs, combinators, conditionals, `not`. */
  private expand(node: unknown, out: Schema[], depth: number): void {
    if (!isObject(node) || depth > 10 || out.length > 32 || out.includes(node)) return;
    out.push(node);
    if (typeof node.$ref === 'string') this.expand(resolve(this.root, node.$ref), out, depth + 1);
    for (const k of ['allOf', 'anyOf', 'oneOf'])
      if (Array.isArray(node[k])) for (const b of node[k] as unknown[]) this.expand(b, out, depth + 1);
    for (const k of ['if', 'then', 'else', 'not']) this.expand(node[k], out, depth + 1);
    for (const k of ['dependentSchemas', 'dependencies'])
      if (isObject(node[k])) for (const v of Object.values(node[k])) this.expand(v, out, depth + 1);
  }

  private children(s: Schema, step: Step): unknown[] {
    if (typeof step === 'number') {
      const out: unknown[] = [];
      if (Array.isArray(s.prefixItems)) out.push(step < s.prefixItems.length ? s.prefixItems[step] : s.items);
      else if (Array.isArray(s.items)) out.push(step < s.items.length ? s.items[step] : s.additionalItems);
      else out.push(s.items);
      out.push(s.contains, s.unevaluatedItems);
      return out;
    }
    const out: unknown[] = [];
    if (isObject(s.properties) && Object.hasOwn(s.properties, step)) out.push(s.properties[step]);
    if (isObject(s.patternProperties)) for (const [p, sub] of Object.entries(s.patternProperties)) if (safeMatch(p, step)) out.push(sub);
    out.push(s.additionalProperties, s.unevaluatedProperties);
    return out;
  }

  subsAt(path: Step[]): Schema[] {
    const key = keyOf(path);
    let found = this.subs.get(key);
    if (!found) {
      let level: Schema[] = [];
      this.expand(this.root, level, 0);
      for (const step of path) {
        const next: Schema[] = [];
        for (const s of level) for (const c of this.children(s, step)) this.expand(c, next, 0);
        level = next;
        if (!level.length) break;
      }
      found = level;
      this.subs.set(key, found);
    }
    return found;
  }

  nodeKey(n: Schema): string {
    let k = this.keys.get(n);
    if (k === undefined) {
      k = keyOf(n);
      this.keys.set(n, k);
    }
    return k;
  }

  /** Names worth adding to an object at `path`: declared, required, depended on, matching a pattern. */
  names(path: Step[]): string[] {
    const out: string[] = [];
    for (const s of this.subsAt(path)) {
      if (isObject(s.properties)) out.push(...Object.keys(s.properties));
      if (Array.isArray(s.required)) out.push(...s.required.filter((r): r is string => typeof r === 'string'));
      for (const k of ['dependentRequired', 'dependencies', 'dependentSchemas'])
        if (isObject(s[k]))
          for (const [name, v] of Object.entries(s[k])) {
            out.push(name);
            if (Array.isArray(v)) out.push(...v.filter((r): r is string => typeof r === 'string'));
          }
      if (isObject(s.patternProperties))
        for (const p of Object.keys(s.patternProperties)) out.push(...patternStrings(p).matching.slice(0, 2));
      if (isObject(s.propertyNames)) {
        const p = s.propertyNames.pattern;
        if (typeof p === 'string') out.push(...patternStrings(p).matching.slice(0, 1), ...patternStrings(p).missing.slice(0, 1));
      }
    }
    return out;
  }
}

const safeMatch = (pattern: string, s: string) => {
  try {
    return new RegExp(pattern, 'u').test(s);
  } catch {
    return false;
  }
};

type Verdict = 'witness' | 'valid' | 'invalid';

/** Numbers past the safe-integer range: a witness made of them is tried last (the gate reads such bounds as none, by design). */
function unsafe(x: unknown): boolean {
  if (typeof x === 'number') return Math.abs(x) > Number.MAX_SAFE_INTEGER;
  if (Array.isArray(x)) return x.some(unsafe);
  if (isObject(x)) return Object.values(x).some(unsafe);
  return false;
}
const DEFERRED_LIMIT = 400;

class OutOfBudget extends Error {}

/** Copies the containers along `path` and sets the value there (or deletes it when `value` is undefined). */
export function setAt(x: unknown, path: Step[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [step, ...rest] = path;
  if (Array.isArray(x) && typeof step === 'number') {
    const copy = [...x];
    if (rest.length === 0 && value === undefined) copy.splice(step, 1);
    else copy[step] = setAt(x[step], rest, value);
    return copy;
  }
  if (isObject(x) && typeof step === 'string') {
    const copy: Schema = { ...x };
    if (rest.length === 0 && value === undefined) delete copy[step];
    else copy[step] = setAt(x[step], rest, value);
    return copy;
  }
  return x;
}

export function getAt(x: unknown, path: Step[]): unknown {
  let v = x;
  for (const step of path) v = Array.isArray(v) ? v[step as number] : isObject(v) ? v[step as string] : undefined;
  return v;
}

/** ajv's instancePath as steps, numbers where the instance holds an array. */
function stepsOf(pointer: string, instance: unknown): Step[] {
  const steps: Step[] = [];
  let v = instance;
  for (const raw of pointer.split('/').slice(1)) {
    const k = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(v)) {
      steps.push(Number(k));
      v = v[Number(k)];
    } else {
      steps.push(k);
      v = isObject(v) ? v[k] : undefined;
    }
  }
  return steps;
}

interface Location {
  path: Step[];
  /** A property or item that is not there yet. */
  slot: boolean;
}

class Search {
  readonly a: Side;
  readonly q: Side;
  readonly accepts: Validator;
  readonly refuses: Validator;
  tried = 0;
  private cands = new Map<string, unknown[]>();
  private hot = new Map<string, boolean>();
  constructor(
    accepting: Schema,
    refusing: Schema,
    readonly opts: SearchOptions,
  ) {
    this.a = new Side(accepting);
    this.q = new Side(refusing);
    this.accepts = validatorOf(accepting);
    this.refuses = validatorOf(refusing);
  }

  /** Instances with unsafe numbers, judged only when nothing else is a witness. */
  deferred: unknown[] = [];
  private lastPass = false;

  test(x: unknown): Verdict {
    if (!this.lastPass && unsafe(x)) {
      if (this.deferred.length < DEFERRED_LIMIT) this.deferred.push(x);
      return 'invalid';
    }
    if (this.lastPass) this.tried++;
    else if (++this.tried > this.opts.budget) throw new OutOfBudget();
    if (!this.accepts(x)) return 'invalid';
    return this.refuses(x) ? 'valid' : 'witness';
  }

  /** The deferred instances, last. */
  finish(): void {
    this.lastPass = true;
    for (const x of this.deferred) if (this.test(x) === 'witness') throw new Found(x);
  }

  /** Candidate values at a location: generated from every subschema there, on both sides (or only the accepting one). */
  candidates(path: Step[], acceptingOnly = false): unknown[] {
    const key = `${acceptingOnly ? 'a' : 'aq'}${keyOf(path)}`;
    let found = this.cands.get(key);
    if (!found) {
      const lists = this.a.subsAt(path).map((s) => this.a.gen.of(s));
      if (!acceptingOnly) lists.push(...this.q.subsAt(path).map((s) => this.q.gen.of(s)));
      found = unique([...interleave(lists), ...TYPE_SWEEP], 120);
      this.cands.set(key, found);
    }
    return found;
  }

  /** Whether the two schemas say something different at this location (or at its parent). */
  isHot(path: Step[]): boolean {
    const key = keyOf(path);
    let hot = this.hot.get(key);
    if (hot === undefined) {
      const sig = (side: Side) =>
        side
          .subsAt(path)
          .map((n) => side.nodeKey(n))
          .join('\u0000');
      hot = sig(this.a) !== sig(this.q) || (path.length > 0 && this.isHot(path.slice(0, -1)));
      this.hot.set(key, hot);
    }
    return hot;
  }

  locations(seed: unknown): Location[] {
    const out: Location[] = [];
    const visit = (v: unknown, path: Step[], depth: number) => {
      if (out.length > 400 || depth > 12) return;
      out.push({ path, slot: false });
      if (isObject(v)) {
        for (const k of Object.keys(v)) visit(v[k], [...path, k], depth + 1);
        const names = new Set([...this.a.names(path), ...this.q.names(path), EXTRA_NAME, LONG_NAME]);
        for (const n of names) if (!Object.hasOwn(v, n)) out.push({ path: [...path, n], slot: true });
      } else if (Array.isArray(v)) {
        v.forEach((e, i) => visit(e, [...path, i], depth + 1));
        out.push({ path: [...path, v.length], slot: true });
      }
    };
    visit(seed, [], 0);
    const hot = out.filter((l) => this.isHot(l.path));
    return [...hot, ...out.filter((l) => !hot.includes(l))];
  }

  /** Edits of the value at a location other than replacing it: fewer properties, items removed, duplicated, cut, reordered. */
  structural(seed: unknown, path: Step[]): unknown[] {
    const v = getAt(seed, path);
    const out: unknown[] = [];
    if (isObject(v)) for (const k of Object.keys(v)) out.push(setAt(seed, [...path, k], undefined));
    if (Array.isArray(v)) {
      const at = (w: unknown[]) => setAt(seed, path, w);
      for (let i = 0; i < Math.min(v.length, 8); i++) out.push(setAt(seed, [...path, i], undefined));
      if (v.length) out.push(at([...v, v[0]]), at([...v, v[v.length - 1]]), at([...v].reverse()), at([v[0]]), at([]), at([...v, ...v]));
    }
    return out;
  }

  /** Repairs an instance the accepting schema refuses, guided by ajv's first error each time; null when it gives up. */
  repair(start: unknown, steps: number): unknown | null {
    let cur = start;
    const counters = new Map<string, number>();
    const next = (path: Step[]) => {
      const key = keyOf(path);
      const n = counters.get(key) ?? 0;
      counters.set(key, n + 1);
      const current = keyOf(getAt(cur, path));
      const options = this.candidates(path, true).filter((c) => keyOf(c) !== current);
      return options.length ? options[n % options.length] : undefined;
    };
    for (let step = 0; step < steps; step++) {
      const verdict = this.test(cur);
      if (verdict !== 'invalid') return cur;
      const e: ErrorObject | null = this.accepts.error();
      if (!e) return null;
      const path = stepsOf(e.instancePath, cur);
      const here = getAt(cur, path);
      const p = e.params as Record<string, unknown>;
      switch (e.keyword) {
        case 'required':
        case 'dependentRequired':
        case 'dependencies': {
          const name = String(p.missingProperty);
          cur = setAt(cur, [...path, name], next([...path, name]));
          break;
        }
        case 'additionalProperties':
          cur = setAt(cur, [...path, String(p.additionalProperty)], undefined);
          break;
        case 'unevaluatedProperties':
          cur = setAt(cur, [...path, String(p.unevaluatedProperty)], undefined);
          break;
        case 'propertyNames':
          cur = setAt(cur, [...path, String(p.propertyName)], undefined);
          break;
        case 'maxProperties':
          if (isObject(here)) cur = setAt(cur, [...path, Object.keys(here).pop()!], undefined);
          break;
        case 'minProperties':
          if (isObject(here)) {
            const name = [...this.a.names(path), ...Array.from({ length: 64 }, (_, i) => `${EXTRA_NAME}${i}`)].find((n) => !(n in here));
            if (name) cur = setAt(cur, [...path, name], next([...path, name]));
          }
          break;
        case 'minItems':
        case 'contains':
        case 'minContains':
          if (Array.isArray(here)) cur = setAt(cur, [...path, here.length], next([...path, here.length]));
          break;
        case 'maxItems':
        case 'additionalItems':
        case 'unevaluatedItems':
        case 'maxContains':
          if (Array.isArray(here)) cur = setAt(cur, path, here.slice(0, -1));
          break;
        case 'uniqueItems':
          if (Array.isArray(here)) cur = setAt(cur, [...path, Number(p.i)], undefined);
          break;
        case 'false schema':
          if (path.length && !Array.isArray(getAt(cur, path.slice(0, -1)))) cur = setAt(cur, path, undefined);
          else cur = setAt(cur, path, next(path));
          break;
        default:
          cur = setAt(cur, path, next(path));
      }
    }
    return this.test(cur) === 'invalid' ? null : cur;
  }

  seeds(): unknown[] {
    const fromBoth = unique(interleave([this.a.gen.of(this.a.root), this.q.gen.of(this.q.root)]), 160);
    const seeds: unknown[] = [];
    const seen = new Set<string>();
    const keep = (x: unknown) => {
      const k = keyOf(x);
      if (!seen.has(k)) {
        seen.add(k);
        seeds.push(x);
      }
    };
    const refused: unknown[] = [];
    for (const x of fromBoth) {
      const v = this.test(x);
      if (v === 'witness') throw new Found(x);
      if (v === 'valid') keep(x);
      else refused.push(x);
    }
    for (const x of refused.slice(0, this.opts.deep ? 24 : 8)) {
      if (seeds.length >= this.opts.seeds) break;
      const fixed = this.repair(x, this.opts.deep ? 40 : 20);
      if (fixed === null) continue;
      if (this.test(fixed) === 'witness') throw new Found(fixed);
      keep(fixed);
    }
    return seeds.slice(0, this.opts.seeds * 2);
  }

  perturb(seed: unknown, repairSteps: number): void {
    for (const { path } of this.locations(seed)) {
      for (const c of this.candidates(path)) this.check(setAt(seed, path, c), repairSteps);
      for (const x of this.structural(seed, path)) this.check(x, repairSteps);
    }
  }

  check(x: unknown, repairSteps: number): Verdict {
    const v = this.test(x);
    if (v === 'witness') throw new Found(x);
    if (v === 'invalid' && repairSteps > 0) {
      const fixed = this.repair(x, repairSteps);
      if (fixed !== null && this.test(fixed) === 'witness') throw new Found(fixed);
    }
    return v;
  }

  /** Two locations at once, among those where the schemas differ. */
  pairs(seed: unknown): void {
    const hot = this.locations(seed)
      .filter((l) => this.isHot(l.path))
      .slice(0, 12);
    for (const l1 of hot)
      for (const c1 of this.candidates(l1.path).slice(0, 12)) {
        const x1 = setAt(seed, l1.path, c1);
        for (const l2 of hot) {
          if (l2 === l1 || keyOf(getAt(x1, l2.path.slice(0, -1))) === 'undefined') continue;
          for (const c2 of this.candidates(l2.path).slice(0, 12)) this.check(setAt(x1, l2.path, c2), 0);
        }
      }
  }

  /** A seeded random walk: up to three edits in a row from a seed, each repaired when refused. */
  walk(seeds: unknown[], r: Rng): void {
    for (;;) {
      let x = r.pick(seeds);
      for (let k = 1 + r.int(3); k > 0; k--) {
        const locs = this.locations(x);
        const hot = locs.filter((l) => this.isHot(l.path));
        const loc = hot.length && r.chance(0.7) ? r.pick(hot) : r.pick(locs);
        const options = [...this.candidates(loc.path), ...this.structural(x, loc.path).slice(0, 4)];
        const c = r.pick(options);
        x = options.indexOf(c) >= this.candidates(loc.path).length ? c : setAt(x, loc.path, c);
        if (this.check(x, 6) === 'invalid') break;
      }
    }
  }
}

class Found {
  constructor(readonly witness: unknown) {}
}

/** An instance `accepting` takes and `refusing` refuses, if the search finds one within the budget. */
export function searchWitness(accepting: Schema, refusing: Schema, opts: SearchOptions = FAST): SearchResult {
  const s = new Search(accepting, refusing, opts);
  const run = (phase: () => void): SearchResult | null => {
    try {
      phase();
    } catch (e) {
      if (e instanceof Found) return { found: true, witness: e.witness, tried: s.tried };
      if (!(e instanceof OutOfBudget)) throw e;
    }
    return null;
  };
  const found =
    run(() => {
      const seeds = s.seeds();
      if (!seeds.length) return;
      for (const seed of seeds) s.perturb(seed, opts.deep ? 8 : 0);
      if (opts.deep) {
        for (const seed of seeds.slice(0, 6)) s.pairs(seed);
        s.walk(seeds, rng(opts.seed));
      }
    }) ?? run(() => s.finish());
  return found ?? { found: false, tried: s.tried };
}
