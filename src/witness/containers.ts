import { memberOf, setMember } from '../base/json-object.js';
import { canonicalJson } from '../contract/canonical.js';
import type { JsonSchema } from '../contract/types.js';
import { patternSamples } from './pattern-sample.js';
import { isObject, type Chooser, type SchemaNode } from './reader.js';
import { NOTHING, type Filler } from './filler.js';

/**
 * Objects and arrays for a flattened location. Objects: the required properties only, every
 * declared property, each optional one alone, one undeclared property more, one fewer required.
 * Arrays: empty, at and past minItems and maxItems, the tuple and one item past it, duplicates,
 * and `contains` at and past its counts. Children take their likeliest valid value.
 */
const MAX_KEYS = 40;
const MAX_ITEMS = 20;

const numbersOf = (conj: JsonSchema[], key: string): number[] => conj.map((n) => n[key]).filter((v): v is number => typeof v === 'number');
const stringList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);
const unique = <T>(list: T[]): T[] => [...new Set(list)];

/** The keys that must come with the given ones (dependentRequired, dependencies with a list). */
function dependentKeys(conj: JsonSchema[], keys: string[]): string[] {
  const out = [...keys];
  for (let i = 0; i < out.length && out.length < MAX_KEYS; i++) {
    for (const n of conj) {
      for (const deps of [n.dependentRequired, n.dependencies]) {
        if (isObject(deps)) out.push(...stringList(memberOf(deps, out[i]!)).filter((k) => !out.includes(k)));
      }
    }
  }
  return out;
}

/** The schemas the given keys bring in (dependentSchemas, dependencies with a schema). */
function dependentSchemas(conj: JsonSchema[], keys: string[]): SchemaNode[] {
  const out: SchemaNode[] = [];
  for (const n of conj) {
    for (const deps of [n.dependentSchemas, n.dependencies]) {
      if (!isObject(deps)) continue;
      for (const k of keys) {
        const dep = memberOf(deps, k);
        if (isObject(dep) || typeof dep === 'boolean') out.push(dep as SchemaNode);
      }
    }
  }
  return out;
}

function buildObject(maker: Filler, conj: JsonSchema[], keys: string[], choose: Chooser): unknown {
  const triggered = dependentSchemas(conj, keys);
  const full = triggered.length ? (maker.reader.flatten([...conj, ...triggered], choose)?.filter(isObject) ?? conj) : conj;
  const required = new Set(full.flatMap((n) => stringList(n.required)));
  const object: Record<string, unknown> = {};
  for (const key of unique([...keys, ...dependentKeys(full, [...required])])) {
    const value = maker.child(maker.reader.propertySchemas(full, key), choose);
    if (value !== NOTHING) setMember(object, key, value);
    else if (required.has(key)) return NOTHING;
  }
  return object;
}

/** A property name the object does not declare: from propertyNames or patternProperties when they say. */
function extraKeys(maker: Filler, conj: JsonSchema[], choose: Chooser): string[] {
  const names = conj.filter((n) => n.propertyNames !== undefined).map((n) => n.propertyNames as SchemaNode);
  const fromNames = names.length ? maker.values(names, choose, true).filter((k): k is string => typeof k === 'string') : [];
  const fromPatterns = conj.flatMap((n) =>
    Object.keys(isObject(n.patternProperties) ? n.patternProperties : {}).flatMap((p) => patternSamples(p, maker.rng, 2)),
  );
  // A plain name and an unusual one, for a propertyNames the other side adds.
  return unique([...fromNames.slice(0, 2), ...fromPatterns, 'extra', 'Extra-1 x', ...fromNames.slice(-2)]);
}

export function objectValues(maker: Filler, conj: JsonSchema[], choose: Chooser, wide: boolean): unknown[] {
  const declared = unique(conj.flatMap((n) => Object.keys(isObject(n.properties) ? n.properties : {}))).slice(0, MAX_KEYS);
  const required = dependentKeys(conj, unique(conj.flatMap((n) => stringList(n.required))));
  const optional = declared.filter((k) => !required.includes(k));
  const minProps = Math.max(0, ...numbersOf(conj, 'minProperties'));
  const base = [...required, ...optional.slice(0, Math.max(0, minProps - required.length))];
  const everything = [...required, ...optional];
  const fill = maker.richHere ? everything.slice(0, 16) : base;
  const shapes: string[][] = wide
    ? [base, everything, ...optional.slice(0, 8).map((k) => [...base, k]), [], required.slice(1)]
    : [fill, base];
  const built = new Map<string, unknown>();
  for (const keys of shapes) {
    const joined = keys.join('\u0000');
    if (!built.has(joined)) built.set(joined, buildObject(maker, conj, keys, choose));
    if (!wide && built.get(joined) !== NOTHING) break;
  }
  const out = [...built.values()].filter((v) => v !== NOTHING);
  if (!wide) return out.slice(0, 1);
  const all = built.get(everything.join('\u0000'));
  if (isObject(all)) {
    for (const key of extraKeys(maker, conj, choose).slice(0, 6)) {
      const value = maker.one(maker.reader.propertySchemas(conj, key), choose);
      if (!Object.hasOwn(all, key)) out.push({ ...all, [key]: value === NOTHING ? 'x' : value });
    }
  }
  return out;
}

function buildArray(maker: Filler, conj: JsonSchema[], length: number, choose: Chooser, lead: unknown[]): unknown {
  const distinct = conj.some((n) => n.uniqueItems === true);
  const used = new Set<string>();
  const items: unknown[] = [];
  for (let i = 0; i < length; i++) {
    const nodes = maker.reader.itemSchemas(conj, i);
    const value = i < lead.length ? lead[i] : distinct ? maker.distinct(nodes, choose, used) : maker.child(nodes, choose);
    if (value === NOTHING) return NOTHING;
    used.add(canonicalJson(value));
    items.push(value);
  }
  return items;
}

export function arrayValues(maker: Filler, conj: JsonSchema[], choose: Chooser, wide: boolean): unknown[] {
  const minItems = Math.max(0, ...numbersOf(conj, 'minItems'));
  const maxItems = Math.min(Infinity, ...numbersOf(conj, 'maxItems'));
  const contains = conj.filter((n) => n.contains !== undefined).map((n) => n.contains as SchemaNode);
  const declaredMin = numbersOf(conj, 'minContains');
  const minContains = contains.length ? (declaredMin.length ? Math.max(...declaredMin) : 1) : 0;
  const maxContains = Math.min(MAX_ITEMS, ...numbersOf(conj, 'maxContains'));
  // What `contains` looks for must also be a valid item: made from both.
  const both = contains.length ? maker.one([...contains, ...maker.reader.itemSchemas(conj, 0)], choose) : NOTHING;
  const hit = both === NOTHING && contains.length ? maker.one(contains, choose) : both;
  const lead = hit === NOTHING ? [] : Array<unknown>(Math.min(minContains, MAX_ITEMS)).fill(hit);
  const tuple = Math.max(
    0,
    ...conj.map((n) => (Array.isArray(n.prefixItems) ? n.prefixItems.length : Array.isArray(n.items) ? n.items.length : 0)),
  );
  const least = Math.max(minItems, lead.length);
  const shapes: [number, unknown[]][] = [
    [maker.richHere ? Math.max(least, tuple + 1) : least, lead],
    [least, lead],
  ];
  if (wide) {
    for (const n of [0, 1, 2, minItems, minItems - 1, maxItems, maxItems + 1, tuple, tuple + 1])
      if (Number.isFinite(n)) shapes.push([n, lead]);
    if (hit !== NOTHING) shapes.push([maxContains + 1, Array<unknown>(maxContains + 1).fill(hit)], [0, []]);
  }
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const [length, head] of shapes) {
    const key = `${length}/${head.length}`;
    if (length < 0 || length > MAX_ITEMS + 1 || seen.has(key)) continue;
    seen.add(key);
    const built = buildArray(maker, conj, length, choose, head.slice(0, length));
    if (built !== NOTHING) out.push(built);
    if (!wide && out.length) return out;
  }
  if (wide) {
    const first = out.find((a): a is unknown[] => Array.isArray(a) && a.length > 0);
    if (first) out.push([first[0], first[0]]);
  }
  return out;
}
