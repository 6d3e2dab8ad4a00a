import type { JsonSchema } from '../contract/types.js';
import { FORMAT_SAMPLES, PLAIN_STRINGS } from './formats.js';
import { patternSamples } from './pattern-sample.js';
import type { Rng } from './prng.js';
import { keyMatches } from './regex.js';

/**
 * Numbers and strings for a flattened location: the values that fit every conjunct first, then the
 * boundaries and the values just past them. Past-the-boundary values matter: a tightened `maximum`
 * is witnessed by the new bound + 1, which the old bound still takes.
 */
const numbersOf = (conj: JsonSchema[], key: string): number[] => conj.map((n) => n[key]).filter((v): v is number => typeof v === 'number');
// Rounds away float noise (0.1 * 3); integers stay exact, up to and past the safe range.
const tidy = (v: number): number => (Number.isInteger(v) ? v : Number(v.toPrecision(12)));

interface Bounds {
  lo: number;
  loOpen: boolean;
  hi: number;
  hiOpen: boolean;
  steps: number[];
}

function boundsOf(conj: JsonSchema[]): Bounds {
  const b: Bounds = {
    lo: -Infinity,
    loOpen: false,
    hi: Infinity,
    hiOpen: false,
    steps: numbersOf(conj, 'multipleOf').filter((m) => m > 0),
  };
  const raise = (v: number, open: boolean) => {
    if (v > b.lo || (v === b.lo && open)) [b.lo, b.loOpen] = [v, open];
  };
  const lower = (v: number, open: boolean) => {
    if (v < b.hi || (v === b.hi && open)) [b.hi, b.hiOpen] = [v, open];
  };
  for (const n of conj) {
    // draft-04's boolean exclusive bounds turn minimum/maximum exclusive; later drafts give numbers.
    if (typeof n.minimum === 'number') raise(n.minimum, n.exclusiveMinimum === true);
    if (typeof n.maximum === 'number') lower(n.maximum, n.exclusiveMaximum === true);
    if (typeof n.exclusiveMinimum === 'number') raise(n.exclusiveMinimum, true);
    if (typeof n.exclusiveMaximum === 'number') lower(n.exclusiveMaximum, true);
  }
  return b;
}

function fitsBounds(v: number, b: Bounds, integer: boolean): boolean {
  if (integer && !Number.isInteger(v)) return false;
  if (v < b.lo || (v === b.lo && b.loOpen) || v > b.hi || (v === b.hi && b.hiOpen)) return false;
  return b.steps.every((m) => Number.isInteger(tidy(v / m)));
}

export function numberValues(conj: JsonSchema[], integer: boolean, wide: boolean): number[] {
  const b = boundsOf(conj);
  const m = b.steps[0] ?? 1;
  const finite = [b.lo, b.hi].filter(Number.isFinite);
  const raw = [0, ...finite, ...finite.flatMap((v) => [v - 1, v + 1, v - 0.5, v + 0.5, Math.ceil(v / m) * m, Math.floor(v / m) * m])];
  raw.push(...finite.flatMap((v) => [Math.ceil(v / m) * m + m, Math.floor(v / m) * m - m]));
  // Off the grid near each bound: a multipleOf added or refined refuses these.
  raw.push(...finite.flatMap((v) => [v + m / 2, v - m / 2, v + 0.25, v - 0.25, v + 0.1]));
  raw.push(m, 2 * m, 3 * m, -m, m / 2, 1, -1, 0.5, 1.5, 0.1, 0.25, 2, 10, 100, 1e6);
  const seen = new Set<number>();
  const fit: number[] = [];
  const unfit: number[] = [];
  for (const v of raw.map(tidy)) {
    if (!Number.isFinite(v) || seen.has(v)) continue;
    seen.add(v);
    (fitsBounds(v, b, integer) ? fit : unfit).push(v);
  }
  return wide ? [...fit, ...unfit].slice(0, 32) : [...fit, ...unfit].slice(0, 1);
}

const lengthOf = (s: string): number => [...s].length;
const stringsOf = (conj: JsonSchema[], key: string): string[] => conj.map((n) => n[key]).filter((v): v is string => typeof v === 'string');

/** Padded with its own last character (or 'a') up to `n` characters, or cut down to `n`. */
function toLength(s: string, n: number): string {
  const chars = [...s];
  if (chars.length >= n) return chars.slice(0, Math.max(0, n)).join('');
  return s + (chars[chars.length - 1] ?? 'a').repeat(n - chars.length);
}

export function stringValues(conj: JsonSchema[], rng: Rng, wide: boolean): string[] {
  const min = Math.max(0, ...numbersOf(conj, 'minLength'));
  const max = Math.min(Infinity, ...numbersOf(conj, 'maxLength'));
  const patterns = stringsOf(conj, 'pattern');
  const formats = stringsOf(conj, 'format');
  const bases = [
    ...patterns.flatMap((p) => patternSamples(p, rng, wide ? 4 : 2)),
    ...formats.flatMap((f) => FORMAT_SAMPLES[f] ?? []),
    ...PLAIN_STRINGS,
  ];
  const fitsText = (s: string) => lengthOf(s) >= min && lengthOf(s) <= max && patterns.every((p) => keyMatches(p, s));
  // A format is judged by ajv only; here a string fits it when it is one of the format's samples.
  const fitsFormats = (s: string) => formats.every((f) => !FORMAT_SAMPLES[f] || FORMAT_SAMPLES[f].includes(s));
  const fits = (s: string) => fitsText(s) && fitsFormats(s);
  const fitted = (s: string) => [s, toLength(s, min), toLength(s, Math.min(max, Math.max(min, 1)))];
  if (!wide) {
    // One value to fill a location the search is not looking at: the first that fits a pattern and a
    // format both (a pattern's sample may break the format beside it), else one that fits the text.
    for (const s of bases) if (fits(s)) return [s];
    for (const s of bases.slice(0, 6)) for (const v of fitted(s)) if (fitsText(v)) return [v];
    return [toLength(bases[0] ?? 'x', Math.min(max, Math.max(min, 1)))];
  }
  const edges = [min, min - 1, max, max + 1].filter((n) => n >= 0 && n <= 256);
  const first = bases[0] ?? 'x';
  // A match with text around it: an unanchored pattern takes it, an anchored one does not.
  const framed = patterns.length ? bases.slice(0, 2).flatMap((s) => [`${s}!`, `!${s}`]) : [];
  const raw = [
    ...bases,
    ...bases.slice(0, 4).flatMap(fitted),
    ...framed,
    ...edges.map((n) => toLength(first, n)),
    ...edges.map((n) => toLength('a', n)),
  ];
  const unique = [...new Set(raw)];
  return [...unique.filter(fits), ...unique.filter((s) => !fits(s) && fitsText(s)), ...unique.filter((s) => !fitsText(s))].slice(0, 24);
}
