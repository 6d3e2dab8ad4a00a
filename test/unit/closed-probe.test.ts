import { describe, expect, it } from 'vitest';
import { buildContract } from '../../src/contract/normalize.js';
import type { Contract, JsonSchema } from '../../src/contract/types.js';
import { diffContracts } from '../../src/diff/index.js';
import { isClosingProbe, UNDECLARED_ARGUMENT } from '../../src/findings/instance-path.js';

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

  it('is not built where the candidate declares the argument, or the baseline refuses its name', () => {
    const declares = { ...closed, properties: { ...closed.properties, [UNDECLARED_ARGUMENT]: { type: 'boolean' } } };
    expect(closing(open, declares)?.witness).toBeUndefined();
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
