import { describe, expect, it } from 'vitest';
import { toolChange } from '../../src/diff/change.js';
import { applyLive } from '../../src/diff/confirm-live.js';
import { withWitness } from '../../src/diff/confirm-words.js';
import type { Change } from '../../src/findings/types.js';
import { isClosingProbe } from '../../src/findings/instance-path.js';
import { diffContracts } from '../../src/diff/index.js';
import { judgeOf, type Judge } from '../../src/witness/judge.js';
import { contractOf, obj, tool } from '../helpers/contracts.js';

// docs/verdicts.md, "A witness shows its own change": the instance shown for a change is refused
// where that change is, for its keyword; and a live answer that contradicts the schemas' claim
// changes the sentence.

const diff = (before: Record<string, unknown>, after: Record<string, unknown>): Change[] =>
  diffContracts(contractOf(tool('t', before)), contractOf(tool('t', after)));
const witnessOf = (changes: Change[], path: string) => {
  const c = changes.find((x) => x.path === path);
  expect(c, path).toBeDefined();
  return { instance: c!.witness?.instance, refusal: c!.witness?.refusal };
};

describe('a witness exercises the change it is shown for', () => {
  it('"whole numbers only" is shown with a fraction, not with the new minimum beside it', () => {
    // `level` counts nothing by its name, so both bounds are held and shown (a `page` would be listed: degenerate-bound.ts).
    const changes = diff(obj({ level: { type: 'number' } }), obj({ level: { type: 'integer', minimum: 1 } }));
    const integer = witnessOf(changes, '/inputSchema/properties/level/type');
    expect(Number.isInteger((integer.instance as { level: number }).level)).toBe(false);
    expect(integer.refusal).toBe('/level: must be integer');
    expect(witnessOf(changes, '/inputSchema/properties/level/minimum').refusal).toBe('/level: must be >= 1');
  });

  it('each of two bounds declared on one argument is shown with a value only that bound refuses', () => {
    // `0.5` is a fraction under the new minimum: it would show neither bound alone.
    const changes = diff(
      obj({ level: { type: 'number' }, weight: { type: 'number' } }),
      obj({ level: { type: 'integer', minimum: 1 }, weight: { type: 'integer', maximum: 5 } }),
    );
    const level = (witnessOf(changes, '/inputSchema/properties/level/type').instance as { level: number }).level;
    expect([Number.isInteger(level), level >= 1]).toEqual([false, true]);
    const below = (witnessOf(changes, '/inputSchema/properties/level/minimum').instance as { level: number }).level;
    expect([Number.isInteger(below), below < 1]).toEqual([true, true]);
    const weight = (witnessOf(changes, '/inputSchema/properties/weight/type').instance as { weight: number }).weight;
    expect([Number.isInteger(weight), weight <= 5]).toEqual([false, true]);
    const above = (witnessOf(changes, '/inputSchema/properties/weight/maximum').instance as { weight: number }).weight;
    expect([Number.isInteger(above), above > 5]).toEqual([true, true]);
  });

  it('an exclusive bound on a number, kept on an integer, is the same bound over the integers: only the type is told', () => {
    const changes = diff(
      obj({ revision: { type: 'number', exclusiveMinimum: 0 } }),
      obj({ revision: { type: 'integer', exclusiveMinimum: 0 } }),
    );
    expect(changes.map((c) => [c.code, c.path])).toEqual([['input-constraint-declared', '/inputSchema/properties/revision/type']]);
  });

  it('an argument removed from a closed input is shown with that argument, another change with its own', () => {
    const before = obj({ reasoning_effort: { type: 'string' }, strip_thinking: { type: 'boolean' } }, [], { additionalProperties: false });
    const after = obj({ strip_thinking: { type: 'boolean', const: true } }, [], { additionalProperties: false });
    const changes = diff(before, after);
    const removed = witnessOf(changes, '/inputSchema/properties/reasoning_effort');
    expect(Object.keys(removed.instance as object)).toContain('reasoning_effort');
    expect(removed.refusal).toContain("('reasoning_effort')");
    // Two held changes on one side, neither a break: each is shown with a call of its own.
    const open = obj({ strip_thinking: { type: 'boolean' }, limit: { type: 'string', maxLength: 100 } });
    const held = diff(
      open,
      obj({ strip_thinking: { type: 'boolean', const: true }, limit: { type: 'string', maxLength: 100, pattern: '^[a-z]+$' } }),
    );
    expect(witnessOf(held, '/inputSchema/properties/strip_thinking/enum').instance).toMatchObject({ strip_thinking: false });
    expect(Object.keys(witnessOf(held, '/inputSchema/properties/limit/pattern').instance as object)).toContain('limit');
  });
});

describe('a live answer that contradicts the claim changes the sentence', () => {
  it('refuted: the message no longer says the call is now refused, only that the schema refuses it', () => {
    const found = {
      kind: 'found',
      instance: {},
      refusal: "must have required property 'scope'",
      at: '',
      keyword: 'required',
      tried: 2,
    } as const;
    const c = withWitness(
      toolChange('required-argument-added', 'Notes.Count', ['inputSchema', 'properties', 'scope'], 'optional', 'required'),
      'input',
      found,
    );
    expect(c.message).toContain('`{}` was accepted and is now refused');
    const [live] = applyLive([c], new Map([[0, { outcome: 'refuted', candidate: { kind: 'result', text: '0 notes (mine)' } }]]));
    expect(live!.message).not.toContain('was accepted and is now refused');
    expect(live!.message).toContain(
      "`{}` is refused by the candidate's schema (must have required property 'scope'); the baseline's accepted it.",
    );
    expect(live!.message).toMatch(
      /Refuted live: the candidate answered this call without an error \("0 notes \(mine\)"\), so it is held, not rolled back\.$/,
    );
  });
});

describe('a witness is a call the baseline as served accepts', () => {
  it('closing oneOf branches for the search does not make an ambiguous call one the baseline took', () => {
    // Served, `{a: {p: 1}}` matches both open branches, so the baseline's oneOf refuses it. Read as a
    // caller reads it (each `a` takes only its own names) it matches one branch: accepted. The
    // candidate types `p`, which refuses it; that is no call that worked before.
    const branch = (name: string, type?: string) => ({
      type: 'object',
      properties: { a: { type: 'object', properties: { [name]: type ? { type } : {} } } },
    });
    const before = obj({ x: { oneOf: [branch('p'), branch('q')] } });
    const after = obj({ x: { oneOf: [branch('p', 'string'), branch('q')] } });
    const changes = diff(before, after);
    const served = judgeOf(before) as Judge;
    const witnessed = changes.filter((c) => c.witness?.instance !== undefined);
    for (const c of witnessed) expect(served.accepts(c.witness!.instance), `${c.code} ${c.path}`).toBe(true);
    // Every object `x` matches both open branches, so no call with `x` ever worked: nothing is shown as one.
    expect(witnessed).toEqual([]);
    expect(changes.map((c) => c.code)).toContain('input-constraint-declared');
  });
});

describe('a witness is a call the baseline as served accepts, whichever tool searched first', () => {
  it('two baselines a caller reads alike, served apart, share no search', () => {
    // t1's baseline closes its objects; t2's leaves them open, so its oneOf refuses `{a: {p}}`
    // (both branches match). Read as a caller reads them the two are one schema (found in review).
    const branch = (name: string, closed: boolean) => ({
      type: 'object',
      properties: { a: { type: 'object', properties: { [name]: { type: 'string' } }, ...(closed && { additionalProperties: false }) } },
      required: ['a'],
      ...(closed && { additionalProperties: false }),
    });
    const mk = (closed: boolean, max: number) =>
      obj({ x: { oneOf: [branch('p', closed), branch('q', closed)] }, n: { type: 'integer', maximum: max } }, ['x', 'n']);
    const changes = diffContracts(
      contractOf(tool('t1', mk(true, 10)), tool('t2', mk(false, 10))),
      contractOf(tool('t1', mk(true, 5)), tool('t2', mk(true, 5))),
    );
    const served = judgeOfServed(mk(false, 10));
    const t2 = changes.filter((c) => c.tool === 't2' && c.witness?.status === 'found');
    for (const c of t2) expect(served.accepts(c.witness!.instance), `${c.code} ${c.path}`).toBe(true);
    expect(changes.some((c) => c.tool === 't1' && c.witness?.status === 'found')).toBe(true);
  });
});

describe('a definition is read as the places that reference it', () => {
  const withDefs = (defs: Record<string, unknown>, body: Record<string, unknown>) => ({ type: 'object', $defs: defs, ...body });
  const base = { type: 'object', properties: { a: { type: 'string' } } };

  it('a definition merged beside other names (an allOf member) stays open, as the same member inline does', () => {
    // OpenAPI output: `allOf: [{$ref: Base}]` beside the operation's own properties. Closing Base
    // to its own names would refuse every call that sends `extra`, so its break went unwitnessed.
    const schema = (extra: Record<string, unknown>) =>
      withDefs({ Base: base }, { allOf: [{ $ref: '#/$defs/Base' }], properties: { a: {}, extra } });
    const changes = diff(schema({ type: 'string' }), schema({ type: 'integer' }));
    const c = changes.find((x) => x.path === '/inputSchema/properties/extra/type');
    expect(c?.witness).toMatchObject({ status: 'found', instance: { extra: expect.any(String) } });
    expect(judgeOfServed(schema({ type: 'string' })).accepts(c!.witness!.instance)).toBe(true);
  });

  it('a definition reached by an anchor, or in part, from an allOf stays open too (found in review)', () => {
    const anchored = (extra: Record<string, unknown>) =>
      withDefs({ Base: { ...base, $anchor: 'base' } }, { allOf: [{ $ref: '#base' }], properties: { a: {}, extra } });
    const inPart = (extra: Record<string, unknown>) =>
      withDefs(
        { H: { type: 'object', properties: { inner: base } } },
        { allOf: [{ $ref: '#/$defs/H/properties/inner' }], properties: { a: {}, extra } },
      );
    for (const schema of [anchored, inPart]) {
      const changes = diff(schema({ type: 'string' }), schema({ type: 'integer' }));
      const c = changes.find((x) => x.path === '/inputSchema/properties/extra/type');
      expect(c?.witness).toMatchObject({ status: 'found', instance: { extra: expect.any(String) } });
    }
  });

  it('branches that are references take the names their sibling branches declare, as inline branches do (found in review)', () => {
    // A asks for `b`, which only B declares: read alone, A could take no call at all.
    const a = (type: string) => ({ type: 'object', properties: { a: { type } }, required: ['a', 'b'] });
    const b = { type: 'object', properties: { b: { type: 'null' } }, required: ['b'], additionalProperties: false };
    const schema = (type: string) =>
      withDefs({ A: a(type), B: b }, { properties: { v: { anyOf: [{ $ref: '#/$defs/A' }, { $ref: '#/$defs/B' }] } } });
    const changes = diff(schema('string'), schema('integer'));
    const c = changes.find((x) => x.path === '/inputSchema/$defs/A/properties/a/type' || x.code === 'input-type-changed');
    expect(c?.witness).toMatchObject({ status: 'found', instance: { v: { a: expect.any(String), b: expect.anything() } } });
  });

  it('a definition referenced alone as an argument is closed there, as inline: a name it never declared is no break', () => {
    const schema = (cfg: Record<string, unknown>) => withDefs({ Cfg: cfg }, { properties: { cfg: { $ref: '#/$defs/Cfg' } } });
    const changes = diff(schema(base), schema({ ...base, additionalProperties: false }));
    // The closing's only witness is its probe (diff/confirm-closed.ts): a question for the server, not a break.
    expect(changes.filter((c) => c.witness?.status === 'found' && !isClosingProbe(c))).toEqual([]);
    expect(changes.filter(isClosingProbe).map((c) => c.path)).toEqual(['/inputSchema/properties/cfg/additionalProperties']);
  });
});

const judgeOfServed = (schema: Record<string, unknown>) => judgeOf(schema) as Judge;
