import { describe, expect, it } from 'vitest';
import { canonicalHash } from '../../src/contract/canonical.js';
import { diffContracts } from '../../src/diff/index.js';
import { contractOf } from '../helpers/contracts.js';
import { consecutiveReleases, type RawTool as Listed } from '../helpers/releases.js';
import { sampled, sweep } from '../helpers/property.js';

// A server names what it likes: an argument `constructor`, a definition `__proto__`. A JavaScript
// object holds those names already (Object.prototype), so `out[name] = value` and `object[name]`
// misread them unless the code asks for own members (src/base/json-object.ts, memberOf and
// setMember). Held here to a plain twin: the same pair of schemas with an ordinary name in place
// of the special one must give the same changes.

const SPECIAL = ['__proto__', 'constructor', 'toString'] as const;
const SEVERITY = { safe: 0, dangerous: 1, breaking: 2 } as const;

/** A tool from JSON text, so that `__proto__` is an own member, as a server's JSON makes it. */
const tool = (input: string, output?: string) =>
  JSON.parse(
    `{"name":"t","description":"The t tool, described well enough.","inputSchema":${input}${output ? `,"outputSchema":${output}` : ''}}`,
  ) as Record<string, unknown>;

/** Each change as `code/severity`, sorted. */
const judged = (before: Record<string, unknown>, after: Record<string, unknown>): string[] =>
  diffContracts(contractOf(before), contractOf(after))
    .map((c) => `${c.code}/${c.severity}`)
    .sort();

/** Pairs of schemas written with NAME, each a change a caller would feel. */
const PAIRS: [label: string, before: string, after: string, output?: [string, string]][] = [
  [
    'a $defs entry tightened',
    '{"type":"object","properties":{"q":{"$ref":"#/$defs/NAME"}},"$defs":{"NAME":{"type":"string","maxLength":500}}}',
    '{"type":"object","properties":{"q":{"$ref":"#/$defs/NAME"}},"$defs":{"NAME":{"type":"string","maxLength":5}}}',
  ],
  [
    'an argument retyped',
    '{"type":"object","properties":{"NAME":{"type":"string"}}}',
    '{"type":"object","properties":{"NAME":{"type":"integer"}}}',
  ],
  [
    'a nested argument tightened',
    '{"type":"object","properties":{"x":{"type":"object","properties":{"NAME":{"type":"string","maxLength":9}}}}}',
    '{"type":"object","properties":{"x":{"type":"object","properties":{"NAME":{"type":"string","maxLength":2}}}}}',
  ],
  [
    'a required argument removed',
    '{"type":"object","properties":{"NAME":{"type":"string"}},"required":["NAME"]}',
    '{"type":"object","properties":{}}',
  ],
  ['an optional argument added', '{"type":"object","properties":{}}', '{"type":"object","properties":{"NAME":{"type":"integer"}}}'],
  [
    'an argument made required',
    '{"type":"object","properties":{"NAME":{"type":"string"}}}',
    '{"type":"object","properties":{"NAME":{"type":"string"}},"required":["NAME"]}',
  ],
  [
    'a required name with no declaration',
    '{"type":"object","properties":{"x":{"type":"string"}}}',
    '{"type":"object","properties":{"x":{"type":"string"}},"required":["NAME"]}',
  ],
  [
    'a const object changed',
    '{"type":"object","properties":{"m":{"const":{"NAME":1}}}}',
    '{"type":"object","properties":{"m":{"const":{"NAME":2}}}}',
  ],
  [
    'an enum of objects narrowed',
    '{"type":"object","properties":{"m":{"enum":[{"NAME":1},{"NAME":2}]}}}',
    '{"type":"object","properties":{"m":{"enum":[{"NAME":1}]}}}',
  ],
  [
    'a dependentRequired entry added',
    '{"type":"object","properties":{"NAME":{"type":"string"},"y":{"type":"string"}}}',
    '{"type":"object","properties":{"NAME":{"type":"string"},"y":{"type":"string"}},"dependentRequired":{"NAME":["y"]}}',
  ],
  [
    'a description added to a new argument',
    '{"type":"object","properties":{}}',
    '{"type":"object","properties":{"NAME":{"type":"string","description":"Which one, by its name."}}}',
  ],
  [
    'an output member removed',
    '{"type":"object"}',
    '{"type":"object"}',
    ['{"type":"object","properties":{"NAME":{"type":"string"}},"required":["NAME"]}', '{"type":"object","properties":{}}'],
  ],
];

const pairWith = (name: string, [, before, after, output]: (typeof PAIRS)[number]) => {
  const named = (text: string) => text.replaceAll('NAME', name);
  return [tool(named(before), output && named(output[0])), tool(named(after), output && named(output[1]))] as const;
};

describe('member names that Object.prototype holds', () => {
  it.each(PAIRS)('%s: the same changes as under a plain name', (...pair) => {
    const plain = judged(...pairWith('plainName', pair));
    expect(plain.length).toBeGreaterThan(0);
    for (const name of SPECIAL) expect(judged(...pairWith(name, pair)), name).toEqual(plain);
  });

  it('a member named __proto__ is part of the canonical hash', () => {
    const [a, b] = [JSON.parse('{"$defs":{"__proto__":{"maxLength":500}}}'), JSON.parse('{"$defs":{"__proto__":{"maxLength":5}}}')];
    expect(canonicalHash(a)).not.toBe(canonicalHash(b));
    expect(canonicalHash(a)).not.toBe(canonicalHash({ $defs: {} }));
  });

  sweep('recorded releases: an argument renamed to each special name is judged as before (sampled)', () => {
    const all = releasePairs();
    expect(all.length).toBeGreaterThan(7_000);
    const pairs = sampled(all, 200);
    let checked = 0;
    for (const [i, [before, after]] of pairs.entries()) {
      const names = argumentNames(before, after);
      const special = SPECIAL[i % SPECIAL.length]!;
      const name = names[i % names.length];
      if (name === undefined || JSON.stringify([before, after]).includes(`"${special}"`)) continue;
      // The rules that read what a name says (`exposeToMcp`, `noVerify`) cannot read it once renamed.
      const unread = (judgements: string[]) => judgements.filter((j) => !READS_NAMES.has(codeOf(j)!));
      const want = unread(judged(before, after));
      // Nor whether it counts (diff/degenerate-bound.ts): a bound on `numResults` is degenerate, on `__proto__` not.
      if (want.some((j) => codeOf(j) === 'input-constraint-declared-degenerate')) continue;
      // ajv checks no member named __proto__, so no instance can carry one to a refusal: a break that
      // only a spot check's witness shows (`input-call-refused`) is not found under that name. A known
      // limit, met on tradingview-mcp-server 0.6.1's `sort_by`; the walk's own codes are still compared.
      if (special === '__proto__' && want.some((j) => codeOf(j) === 'input-call-refused')) continue;
      const got = unread(judged(renamed(before, name, special), renamed(after, name, special)));
      const what = `${String(before.name)}: ${name} -> ${special}`;
      expect(got.map(codeOf), what).toEqual(want.map(codeOf));
      // ajv leaves a member named __proto__ unchecked, so a search cannot clear such a change:
      // it may stay stricter than its twin, never looser. The other names are judged alike.
      for (const [k, g] of got.entries()) {
        if (special === '__proto__') expect(severityOf(g), what).toBeGreaterThanOrEqual(severityOf(want[k]!));
        else expect(g, what).toBe(want[k]);
      }
      checked++;
    }
    // Most sampled pairs rename something (189 of 200 when sampled first).
    expect(checked).toBeGreaterThan(pairs.length * 0.8);
  });
});

const codeOf = (judgement: string) => judgement.split('/')[0];
/** Codes an argument's own name raises (diff/new-options.ts). */
const READS_NAMES = new Set(['input-destructive-option-added', 'input-safety-override-added']);
const severityOf = (judgement: string) => SEVERITY[judgement.split('/')[1] as keyof typeof SEVERITY];

/** A listed tool, read for its arguments. */
type RawTool = Listed & { inputSchema?: { properties?: Record<string, unknown> } };

/** Every changed tool of consecutive recorded versions, both ways, as the server listed it. */
function releasePairs(): [RawTool, RawTool][] {
  const out: [RawTool, RawTool][] = [];
  for (const [older, newer] of consecutiveReleases()) {
    const next = new Map(newer.map((t) => [t.name, t]));
    for (const t of older) {
      const s = next.get(t.name);
      if (s && JSON.stringify(s) !== JSON.stringify(t)) out.push([t, s]);
    }
  }
  return out;
}

const argumentNames = (a: RawTool, b: RawTool): string[] =>
  [...new Set([...Object.keys(a.inputSchema?.properties ?? {}), ...Object.keys(b.inputSchema?.properties ?? {})])].sort();

/** The tool with argument `from` named `to` wherever a schema declares, requires or points to it. */
function renamed(t: RawTool, from: string, to: string): RawTool {
  const rename = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rename);
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value).map(([key, v]): [string, unknown] => {
      if (key === 'properties' && v !== null && typeof v === 'object' && !Array.isArray(v))
        return [key, Object.fromEntries(Object.entries(v).map(([name, s]) => [name === from ? to : name, rename(s)]))];
      if (key === 'required' && Array.isArray(v)) return [key, v.map((n) => (n === from ? to : n))];
      if (key === '$ref' && typeof v === 'string') return [key, v.replace(new RegExp(`/properties/${from}(?=/|$)`), `/properties/${to}`)];
      return [key, rename(v)];
    });
    return Object.fromEntries(entries);
  };
  return {
    ...t,
    inputSchema: rename(t.inputSchema) as RawTool['inputSchema'],
    ...(t.outputSchema ? { outputSchema: rename(t.outputSchema) } : {}),
  };
}
