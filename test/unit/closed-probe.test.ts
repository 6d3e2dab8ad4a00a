import { describe, expect, it } from 'vitest';
import { buildContract } from '../../src/contract/normalize.js';
import type { Contract, JsonSchema } from '../../src/contract/types.js';
import { diffContracts } from '../../src/diff/index.js';
import { isClosingProbe, UNDECLARED_ARGUMENT } from '../../src/findings/instance-path.js';
import { closedObject, closedPlace, PROBES_PER_TOOL } from '../../src/diff/confirm-closed.js';
import type { Change } from '../../src/findings/types.js';

// The probe of an input closed to undeclared arguments (src/diff/confirm-closed.ts): built only where
// a call both schemas take, with the undeclared argument added, tells them apart by that argument alone.

const server = { name: 's', version: '1', protocolVersion: null, instructions: null };
const contract = (inputSchema: JsonSchema): Contract =>
  buildContract(server, [{ name: 'docs', description: 'Searches the docs.', inputSchema }], { pages: 1, durationMs: 0, errors: [] });
const closing = (before: JsonSchema, after: JsonSchema) =>
  diffContracts(contract(before), contract(after)).find((c) => c.code === 'input-closed');

const open = { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] };
const closed = { ...open, additionalProperties: false };

describe('the probe of a closing', () => {
  it('a call the baseline takes, with the undeclared argument added, which the candidate refuses for it', () => {
    const c = closing(open, closed);
    expect(c && isClosingProbe(c)).toBe(true);
    expect(c!.witness).toMatchObject({
      status: 'found',
      side: 'input',
      instance: { query: expect.any(String), [UNDECLARED_ARGUMENT]: true },
    });
  });

  it("takes the place of the spot check's witness where the baseline declares no property or says any name is taken", () => {
    const cases: [JsonSchema, JsonSchema][] = [
      [{ type: 'object' }, { type: 'object', additionalProperties: false }],
      [{ ...open, additionalProperties: true }, closed],
      [{ ...open, additionalProperties: {} }, closed],
    ];
    for (const [before, after] of cases) {
      const c = closing(before, after);
      expect(c && isClosingProbe(c), JSON.stringify(before)).toBe(true);
    }
  });

  it('is not built where the candidate declares the argument, whatever its type, or the baseline refuses its name', () => {
    for (const type of ['boolean', 'string']) {
      const declares = { ...closed, properties: { ...closed.properties, [UNDECLARED_ARGUMENT]: { type } } };
      const c = closing(open, declares);
      expect(c && isClosingProbe(c), type).toBe(false);
    }
    // Inside an argument too: a candidate that declares the name there, as a string, refuses `true` for its type, not for the closing.
    const inner = (extra: object) => ({
      type: 'object',
      properties: { filter: { type: 'object', properties: { tag: { type: 'string' }, ...extra }, required: ['tag'] } },
    });
    const before = inner({});
    const after = inner({ [UNDECLARED_ARGUMENT]: { type: 'string' } });
    (after.properties.filter as Record<string, unknown>).additionalProperties = false;
    const nested = closing(before, after);
    expect(nested).toBeDefined();
    expect(isClosingProbe(nested!)).toBe(false);
    const namesUpTo5 = { ...open, propertyNames: { maxLength: 5 } };
    const short = closing(namesUpTo5, { ...namesUpTo5, additionalProperties: false });
    expect(short && isClosingProbe(short)).toBe(false);
  });

  it('an object closed inside the arguments gets the undeclared argument in it, built where it is optional', () => {
    const nested = (inner: object) => ({
      type: 'object',
      properties: { filter: { type: 'object', properties: { tag: { type: 'string' } }, required: ['tag'], ...inner } },
    });
    const inside = closing(nested({}), nested({ additionalProperties: false }));
    expect(inside && isClosingProbe(inside)).toBe(true);
    expect(inside!.witness!.instance).toEqual({ filter: { tag: expect.any(String), [UNDECLARED_ARGUMENT]: true } });
    // Through a list's items and a branch of anyOf: the first item, where the branch applies.
    const listed = (inner: object) => ({
      type: 'object',
      properties: {
        pages: {
          type: 'array',
          items: { anyOf: [{ type: 'object', properties: { id: { type: 'string' } }, ...inner }, { type: 'string' }] },
        },
      },
      required: ['pages'],
    });
    const item = closing(listed({}), listed({ additionalProperties: false }));
    expect(item!.subject).toMatchObject({ at: ['inputSchema', 'properties', 'pages', 'items', 'anyOf', '0', 'additionalProperties'] });
    expect(item && isClosingProbe(item)).toBe(true);
    expect((item!.witness!.instance as { pages: unknown[] }).pages[0]).toMatchObject({ [UNDECLARED_ARGUMENT]: true });
  });

  it('in a union of objects, the probe goes where the closed alternative applies, not the first call found', () => {
    const union = (closedB: boolean) => ({
      type: 'object',
      properties: {
        op: {
          oneOf: [
            { type: 'object', properties: { kind: { const: 'a' } }, required: ['kind'] },
            {
              type: 'object',
              properties: { kind: { const: 'b' }, n: { type: 'integer' } },
              required: ['kind'],
              ...(closedB && { additionalProperties: false }),
            },
          ],
        },
      },
      required: ['op'],
    });
    const c = closing(union(false), union(true));
    expect(c && isClosingProbe(c)).toBe(true);
    expect((c!.witness!.instance as { op: unknown }).op).toMatchObject({ kind: 'b', [UNDECLARED_ARGUMENT]: true });
    expect(closedPlace(c!)).toBe('"op" (one of its alternatives)');
  });

  it("is not built for a closing of a tuple's items: the first item may be governed by its own place", () => {
    const rows = (extra: object, legacy: boolean) => ({
      type: 'object',
      properties: {
        rows: legacy
          ? {
              type: 'array',
              minItems: 2,
              items: [{ type: 'object', properties: { h: { type: 'string' } }, ...extra }],
              additionalItems: { type: 'object', properties: { v: { type: 'string' } }, ...extra },
            }
          : {
              type: 'array',
              minItems: 2,
              prefixItems: [{ type: 'object', properties: { h: { type: 'string' } }, ...extra }],
              items: { type: 'object', properties: { v: { type: 'string' } }, ...extra },
            },
      },
      required: ['rows'],
    });
    // Both the first place and the rest close: a probe in the first item would test the first place's closing only.
    for (const legacy of [false, true]) {
      const closings = diffContracts(contract(rows({}, legacy)), contract(rows({ additionalProperties: false }, legacy))).filter(
        (c) => c.code === 'input-closed',
      );
      expect(closings.length, `legacy ${legacy}`).toBeGreaterThan(0);
      expect(closings.filter(isClosingProbe), `legacy ${legacy}`).toEqual([]);
    }
  });

  it(`probes at most ${PROBES_PER_TOOL} closings of one tool, the whole call first; the rest stay held without one`, () => {
    const objects = (closed: boolean) => ({
      type: 'object',
      properties: Object.fromEntries(
        ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => [
          n,
          { type: 'object', properties: { x: { type: 'string' } }, ...(closed && { additionalProperties: false }) },
        ]),
      ),
      ...(closed && { additionalProperties: false }),
    });
    const changes = diffContracts(contract(objects(false)), contract(objects(true))).filter((c) => c.code === 'input-closed');
    expect(changes).toHaveLength(7);
    // The whole call's closing comes last in the changes, and is probed first.
    expect(changes.filter(isClosingProbe).map((c) => c.path)).toEqual(
      [
        '/inputSchema/additionalProperties',
        '/inputSchema/properties/a/additionalProperties',
        '/inputSchema/properties/b/additionalProperties',
        '/inputSchema/properties/c/additionalProperties',
      ].sort((x, y) => changes.findIndex((c) => c.path === x) - changes.findIndex((c) => c.path === y)),
    );
  });

  it('reads where a closing is from its place in the schema', () => {
    const at = (...steps: string[]) =>
      ({
        code: 'input-closed',
        subject: { kind: 'tool', tool: 't', at: ['inputSchema', ...steps, 'additionalProperties'] },
      }) as unknown as Change;
    expect(closedObject(at())).toEqual([]);
    expect(closedObject(at('properties', 'filter'))).toEqual(['filter']);
    expect(closedObject(at('properties', 'pages', 'items'))).toEqual(['pages', '0']);
    expect(closedObject(at('properties', 'op', 'anyOf', '1'))).toEqual(['op']);
    expect(closedObject(at('properties', 'items', 'properties', 'properties'))).toEqual(['items', 'properties']);
    // Places the instance path cannot name: a map's values, a pattern's members, a tuple's place, a conditional.
    expect(closedObject(at('properties', 'env', 'additionalProperties'))).toBeUndefined();
    expect(closedObject(at('properties', 'env', 'patternProperties', '^x'))).toBeUndefined();
    expect(closedObject(at('properties', 'rows', 'prefixItems', '0'))).toBeUndefined();
    expect(closedObject(at('properties', 'o', 'then'))).toBeUndefined();
    expect(closedPlace(at('properties', 'pages', 'items'))).toBe('the items of "pages"');
    expect(closedPlace(at('properties', 'pages', 'items', 'properties', 'filter'))).toBe('"pages[].filter"');
  });

  it('is not built for an object the instance path cannot name: the values of a map', () => {
    const map = (inner: object) => ({
      type: 'object',
      properties: { env: { type: 'object', additionalProperties: { type: 'object', properties: { v: { type: 'string' } }, ...inner } } },
    });
    const values = closing(map({}), map({ additionalProperties: false }));
    expect(values).toBeDefined();
    expect(isClosingProbe(values!)).toBe(false);
  });

  it('is the same probe on every run', () => {
    expect(closing(open, closed)!.witness).toEqual(closing(open, closed)!.witness);
  });
});
