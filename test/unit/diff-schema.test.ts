import { describe, expect, it } from 'vitest';
import { listedInText } from '../../src/diff/documented-values.js';
import { diffContracts } from '../../src/diff/index.js';
import { contractOf, inputPairs, obj, outputPairs, tool } from '../helpers/contracts.js';

const str = { type: 'string' };

describe('input schema: tightening breaks callers, loosening is safe', () => {
  it('required arguments added, removed, made optional', () => {
    expect(inputPairs(obj({ a: str }), obj({ a: str, b: str }, ['b']))).toEqual([['required-argument-added', 'breaking']]);
    expect(inputPairs(obj({ a: str }), obj({ a: str }, ['a']))).toEqual([['required-argument-added', 'breaking']]);
    expect(inputPairs(obj({ a: str, b: str }, ['b']), obj({ a: str }))).toEqual([['required-argument-removed', 'breaking']]);
    expect(inputPairs(obj({ a: str }, ['a']), obj({ a: str }))).toEqual([['argument-became-optional', 'safe']]);
  });

  it('optional properties added and removed', () => {
    expect(inputPairs(obj({ a: str }), obj({ a: str, b: str }))).toEqual([['input-property-added', 'safe']]);
    expect(inputPairs(obj({ a: str, b: str }), obj({ a: str }))).toEqual([['input-property-removed', 'dangerous']]);
    // Where the input refuses undeclared names, a caller that still sends it is refused: a Rollback
    // (@postman/postman-mcp-server 2.13.0 renames folderId to folder this way).
    const closed = { additionalProperties: false };
    expect(inputPairs(obj({ a: str, b: str }, [], closed), obj({ a: str }, [], closed))).toEqual([
      ['input-property-removed-closed', 'breaking'],
    ]);
  });

  it('an optional argument added where the input says additionalProperties: true is an addition: no model sent the name before', () => {
    // @softeria/ms-365-mcp-server 0.154.0 adds `skiptoken` to every list tool this way (zod's passthrough).
    const open = { additionalProperties: true, $schema: 'http://json-schema.org/draft-07/schema#' };
    expect(inputPairs(obj({ a: str }, [], open), obj({ a: str, skiptoken: str }, [], open))).toEqual([['input-property-added', 'safe']]);
    // A map that types every other name still says what a caller may send under any name.
    const map = { additionalProperties: { type: 'number' } };
    expect(inputPairs(obj({ a: str }, [], map), obj({ a: str, skiptoken: str }, [], map))).not.toEqual([['input-property-added', 'safe']]);
  });

  it('a type declared where the argument declared none is a bound declared, held as integer-for-number is', () => {
    // @digitalocean/mcp 1.0.65: AppSlugs' items, any value before, are strings now.
    expect(inputPairs(obj({ n: { description: 'The slug.' } }), obj({ n: { type: 'string', description: 'The slug.' } }))).toEqual([
      ['input-constraint-declared', 'dangerous'],
    ]);
    expect(inputPairs(obj({ a: { type: 'array', items: {} } }), obj({ a: { type: 'array', items: str } }))).toEqual([
      ['input-constraint-declared', 'dangerous'],
    ]);
    // A type taken away is still a kind taken away.
    expect(inputPairs(obj({ n: str }), obj({ n: { type: 'boolean' } }))).toEqual([['input-type-changed', 'breaking']]);
  });

  it('types narrowed, widened and changed, including integer and number', () => {
    // An integer where any number was refuses only fractions: a bound declared, held
    // (docs/verdicts.md, "Held by documented policy").
    expect(inputPairs(obj({ n: { type: 'number' } }), obj({ n: { type: 'integer' } }))).toEqual([
      ['input-constraint-declared', 'dangerous'],
    ]);
    expect(inputPairs(obj({ n: { type: 'string' } }), obj({ n: { type: 'integer' } }))).toEqual([['input-type-changed', 'breaking']]);
    expect(inputPairs(obj({ n: { type: 'integer' } }), obj({ n: { type: 'number' } }))).toEqual([['input-type-widened', 'safe']]);
    expect(inputPairs(obj({ n: { type: 'string' } }), obj({ n: { type: ['string', 'null'] } }))).toEqual([['input-type-widened', 'safe']]);
    expect(inputPairs(obj({ n: { type: 'string' } }), obj({ n: { type: 'boolean' } }))).toEqual([['input-type-changed', 'breaking']]);
  });

  it('enums and const', () => {
    expect(inputPairs(obj({ s: { type: 'string', enum: ['a', 'b'] } }), obj({ s: { type: 'string', enum: ['a'] } }))).toEqual([
      ['input-enum-narrowed', 'breaking'],
    ]);
    expect(inputPairs(obj({ s: { type: 'string', enum: ['a'] } }), obj({ s: { type: 'string', enum: ['a', 'b'] } }))).toEqual([
      ['input-enum-widened', 'safe'],
    ]);
    expect(inputPairs(obj({ s: str }), obj({ s: { type: 'string', const: 'x' } }))).toEqual([['input-enum-declared', 'dangerous']]);
    expect(inputPairs(obj({ s: { type: 'string', enum: ['a', 'b'] } }), obj({ s: str }))).toEqual([['input-enum-dropped', 'dangerous']]);
  });

  it('bounds, lengths, patterns and formats', () => {
    expect(inputPairs(obj({ n: { type: 'integer', maximum: 100 } }), obj({ n: { type: 'integer', maximum: 50 } }))).toEqual([
      ['input-constraint-tightened', 'breaking'],
    ]);
    expect(inputPairs(obj({ n: { type: 'integer', minimum: 5 } }), obj({ n: { type: 'integer', minimum: 1 } }))).toEqual([
      ['input-constraint-loosened', 'safe'],
    ]);
    // A bound declared where there was none is held; one that moves still rolls back.
    expect(inputPairs(obj({ s: str }), obj({ s: { type: 'string', maxLength: 10 } }))).toEqual([
      ['input-constraint-declared', 'dangerous'],
    ]);
    expect(inputPairs(obj({ s: { type: 'array', minItems: 2 } }), obj({ s: { type: 'array' } }))).toEqual([
      ['input-constraint-loosened', 'safe'],
    ]);
    expect(inputPairs(obj({ s: str }), obj({ s: { type: 'string', pattern: '^a' } }))).toEqual([
      ['input-constraint-declared', 'dangerous'],
    ]);
    expect(inputPairs(obj({ s: { type: 'string', format: 'email' } }), obj({ s: str }))).toEqual([['input-constraint-loosened', 'safe']]);
  });

  it('additionalProperties closed and opened', () => {
    expect(inputPairs(obj({ a: str }), obj({ a: str }, [], { additionalProperties: false }))).toEqual([['input-closed', 'dangerous']]);
    expect(inputPairs(obj({ a: str }, [], { additionalProperties: false }), obj({ a: str }))).toEqual([['input-opened', 'safe']]);
  });

  it('defaults added or changed', () => {
    expect(inputPairs(obj({ n: { type: 'integer', default: 10 } }), obj({ n: { type: 'integer', default: 20 } }))).toEqual([
      ['input-default-changed', 'dangerous'],
    ]);
    expect(inputPairs(obj({ n: { type: 'integer' } }), obj({ n: { type: 'integer', default: 20 } }))).toEqual([
      ['input-default-changed', 'dangerous'],
    ]);
  });

  // Every call the baseline accepted sent an argument it required, so no call that worked meets the
  // default: n8n-mcp 2.79.0 made `action` optional with the default `list` (docs/judgements.md, FS12).
  it('a default given to an argument the baseline required decides nothing for a call that worked', () => {
    const action = { type: 'string', enum: ['list', 'get', 'delete'] };
    expect(inputPairs(obj({ action }, ['action']), obj({ action: { ...action, default: 'list' } }))).toEqual([
      ['argument-became-optional', 'safe'],
      ['schema-annotation-changed', 'safe'],
    ]);
    expect(inputPairs(obj({ n: { type: 'integer', default: 1 } }, ['n']), obj({ n: { type: 'integer', default: 2 } }, ['n']))).toEqual([
      ['schema-annotation-changed', 'safe'],
    ]);
    // Nested: the rule reads the object the argument belongs to.
    const nested = (required: string[]) => obj({ opts: obj({ mode: { type: 'string' } }, required) });
    const nestedAfter = obj({ opts: obj({ mode: { type: 'string', default: 'fast' } }) });
    expect(inputPairs(nested(['mode']), nestedAfter)).toEqual([
      ['argument-became-optional', 'safe'],
      ['schema-annotation-changed', 'safe'],
    ]);
    expect(inputPairs(nested([]), nestedAfter)).toEqual([['input-default-changed', 'dangerous']]);
  });

  it('walks nested objects, array items, local $ref and anyOf, with JSON-pointer paths', () => {
    const before = obj({ filter: obj({ tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } } }) });
    const after = obj({ filter: obj({ tags: { type: 'array', items: { type: 'string', enum: ['a'] } } }) });
    expect(inputPairs(before, after)).toEqual([['input-enum-narrowed', 'breaking']]);

    const refBefore = { ...obj({ who: { $ref: '#/$defs/Person' } }), $defs: { Person: obj({ email: str }) } };
    const refAfter = { ...obj({ who: { $ref: '#/$defs/Person' } }), $defs: { Person: obj({ email: str }, ['email']) } };
    expect(inputPairs(refBefore, refAfter)).toEqual([['required-argument-added', 'breaking']]);

    const anyBefore = obj({ id: { anyOf: [str, { type: 'integer' }] } });
    const anyAfter = obj({ id: { anyOf: [str] } });
    expect(inputPairs(anyBefore, anyAfter)).toEqual([['input-type-changed', 'breaking']]);
  });

  // Published ragie 1.12.2 (FQ13): `provider: atlassian | dropbox | …` became one object per provider.
  it('an object split into one alternative per value of a name it requires takes what it took: no value is lost', () => {
    // The reading itself, without the search that may prove a small pair equal on its own.
    const read = (b: Record<string, unknown>, a: Record<string, unknown>) =>
      diffContracts(contractOf(tool('t', b)), contractOf(tool('t', a)), null)
        .filter((c) => c.severity === 'breaking')
        .map((c) => c.code);
    const account = (provider: Record<string, unknown>) => obj({ provider, name: str }, ['provider', 'name']);
    const before = obj({
      request: obj({ provider: { type: 'string', enum: ['a', 'b', 'c'] }, name: str }, ['provider', 'name'], {
        additionalProperties: false,
      }),
    });
    // Each alternative its own: the last takes a name of its own too, so they do not merge back into one.
    const per = (values: string[]) =>
      obj({
        request: {
          anyOf: values.map((v, n) =>
            n === values.length - 1
              ? obj({ provider: { type: 'string', const: v }, name: str, project: str }, ['provider', 'name'])
              : account({ type: 'string', const: v }),
          ),
        },
      });
    expect(read(before, per(['a', 'b', 'c']))).toEqual([]);
    expect(read(before, per(['c', 'a', 'b', 'd']))).toEqual([]);
    // A value no alternative takes is still lost.
    expect(inputPairs(before, per(['a', 'b'])).filter(([, severity]) => severity === 'breaking')).toEqual([
      ['input-enum-narrowed', 'breaking'],
    ]);
    // So is a call one alternative refuses for another reason (here: `name` now a number).
    const renamed = obj({
      request: {
        anyOf: [
          account({ const: 'a' }),
          account({ const: 'b' }),
          obj({ provider: { const: 'c' }, name: { type: 'number' } }, ['provider', 'name']),
        ],
      },
    });
    expect(read(before, renamed)).not.toEqual([]);
  });

  // Published @moovio/sdk 26.7.1, mutated by the oracle: a `oneOf` inside an `anyOf` whose branches come to overlap.
  it('a oneOf nested in an anyOf whose alternatives may now both match one input is not calm', () => {
    const code = (minLength: number) =>
      obj({
        kind: {
          anyOf: [
            { type: 'integer' },
            {
              oneOf: [
                { type: 'string', maxLength: 3 },
                { type: 'string', minLength },
              ],
            },
          ],
        },
      });
    const held = diffContracts(contractOf(tool('t', code(5))), contractOf(tool('t', code(3))), null).filter((c) => c.severity !== 'safe');
    expect(held.map((c) => [c.code, c.message.includes('may now both match one input')])).toEqual([['schema-changed', true]]);
  });

  it('treats nullable forms alike: anyOf [X, null] equals type [X, null]', () => {
    expect(inputPairs(obj({ s: { anyOf: [str, { type: 'null' }] } }), obj({ s: { type: ['string', 'null'] } }))).toEqual([]);
    expect(inputPairs(obj({ s: { anyOf: [str, { type: 'null' }] } }), obj({ s: str }))).toEqual([['input-type-changed', 'breaking']]);
    // A oneOf whose types share a value is no type list: 3 is an integer and a number, and oneOf refuses it.
    expect(
      inputPairs(obj({ n: { type: ['integer', 'number'] } }), obj({ n: { oneOf: [{ type: 'integer' }, { type: 'number' }] } })),
    ).not.toEqual([]);
    // A branch that asserts more than its type is no bare type.
    expect(
      inputPairs(
        obj({ v: { type: ['string', 'boolean'] } }),
        obj({ v: { anyOf: [{ type: 'string', maxLength: 3 }, { type: 'boolean' }] } }),
      ),
    ).not.toEqual([]);
  });

  it('survives a $ref cycle', () => {
    const cyclic = (extra: Record<string, unknown>) => ({
      ...obj({ node: { $ref: '#/$defs/Node' } }),
      $defs: { Node: obj({ next: { $ref: '#/$defs/Node' }, ...extra }) },
    });
    expect(inputPairs(cyclic({}), cyclic({ label: str }))).toEqual([['input-property-added', 'safe']]);
  });
});

describe('output schema: the same changes, judged from the consumer side', () => {
  it('enum values removed are safe, added are dangerous', () => {
    expect(outputPairs(obj({ s: { type: 'string', enum: ['a', 'b'] } }), obj({ s: { type: 'string', enum: ['a'] } }))).toEqual([
      ['output-enum-narrowed', 'safe'],
    ]);
    expect(outputPairs(obj({ s: { type: 'string', enum: ['a'] } }), obj({ s: { type: 'string', enum: ['a', 'b'] } }))).toEqual([
      ['output-enum-widened', 'dangerous'],
    ]);
  });

  it('fields removed or no longer guaranteed break consumers', () => {
    expect(outputPairs(obj({ a: str, b: str }, ['a', 'b']), obj({ a: str }, ['a']))).toEqual([['output-property-removed', 'breaking']]);
    expect(outputPairs(obj({ a: str }, ['a']), obj({ a: str }))).toEqual([['output-property-optional', 'breaking']]);
    expect(outputPairs(obj({ a: str }), obj({ a: str, b: str }))).toEqual([['output-property-added', 'safe']]);
  });

  it('a kind of value gained or swapped breaks consumers, null alone gained is noted, narrowed is safe', () => {
    expect(outputPairs(obj({ n: str }), obj({ n: { type: 'number' } }))).toEqual([['output-type-changed', 'breaking']]);
    expect(outputPairs(obj({ n: { type: 'integer' } }), obj({ n: { type: 'number' } }))).toEqual([['output-type-changed', 'breaking']]);
    expect(outputPairs(obj({ n: str }), obj({ n: { type: ['string', 'array'] } }))).toEqual([['output-type-changed', 'breaking']]);
    expect(outputPairs(obj({ n: str }), obj({ n: { anyOf: [str, { type: 'array' }] } }))).toEqual([['output-type-changed', 'breaking']]);
    // Null alone gained: the value may now be absent, every old kind kept.
    expect(outputPairs(obj({ n: str }), obj({ n: { type: ['string', 'null'] } }))).toEqual([['output-type-nullable', 'safe']]);
    expect(outputPairs(obj({ n: str }), obj({ n: { anyOf: [str, { type: 'null' }] } }))).toEqual([['output-type-nullable', 'safe']]);
    // Required, so the baseline refused a result without it or with null there: the witness the
    // search finds is the null itself, which the change explains (no unpromised result).
    expect(outputPairs(obj({ n: str }, ['n']), obj({ n: { type: ['string', 'null'] } }, ['n']))).toEqual([
      ['output-type-nullable', 'safe'],
    ]);
    expect(
      outputPairs(obj({ a: obj({ n: str }, ['n']) }, ['a']), obj({ a: obj({ n: { anyOf: [str, { type: 'null' }] } }, ['n']) }, ['a'])),
    ).toEqual([['output-type-nullable', 'safe']]);
    // One kind kept, one swapped: a consumer of the old boolean may get a number instead.
    expect(outputPairs(obj({ n: { anyOf: [str, { type: 'boolean' }] } }), obj({ n: { anyOf: [str, { type: 'number' }] } }))).toEqual([
      ['output-type-changed', 'breaking'],
    ]);
    expect(outputPairs(obj({ n: { type: 'number' } }), obj({ n: { type: 'integer' } }))).toEqual([['output-type-narrowed', 'safe']]);
  });

  it('constraints loosened are dangerous, tightened safe', () => {
    expect(outputPairs(obj({ s: { type: 'string', maxLength: 5 } }), obj({ s: str }))).toEqual([
      ['output-constraint-loosened', 'dangerous'],
    ]);
    expect(outputPairs(obj({ s: str }), obj({ s: { type: 'string', maxLength: 5 } }))).toEqual([['output-constraint-tightened', 'safe']]);
  });

  it('an output schema added is safe, removed is breaking', () => {
    expect(outputPairs(undefined, obj({ a: str }))).toEqual([['output-schema-added', 'safe']]);
    expect(outputPairs(obj({ a: str }), undefined)).toEqual([['output-schema-removed', 'breaking']]);
  });
});

describe('keywords that were once passed in silence', () => {
  const any = (pairs: [string, string][]) => pairs.map(([code]) => code);
  it('allOf is a conjunction: a required name or a type inside it counts', () => {
    expect(
      inputPairs(obj({ confirm: { type: 'boolean' } }), { ...obj({ confirm: { type: 'boolean' } }), allOf: [{ required: ['confirm'] }] }),
    ).toEqual([['required-argument-added', 'breaking']]);
    expect(
      inputPairs(obj({ n: { type: 'number' } }), {
        ...obj({ n: { type: 'number' } }),
        allOf: [{ properties: { n: { type: 'integer' } } }],
      }),
    ).toEqual([['input-constraint-declared', 'dangerous']]);
    expect(inputPairs(obj({ a: str }), { allOf: [obj({ a: str })] })).toEqual([]);
  });

  it('not, if/then/else, dependentRequired, dependentSchemas and propertyNames', () => {
    expect(inputPairs(obj({ s: str }), obj({ s: { type: 'string', not: { const: 'root' } } }))).toEqual([
      ['input-constraint-tightened', 'breaking'],
    ]);
    expect(inputPairs(obj({ s: { type: 'string', not: { const: 'root' } } }), obj({ s: str }))).toEqual([
      ['input-constraint-loosened', 'safe'],
    ]);
    const conditional = { if: { properties: { mode: { const: 'x' } }, required: ['mode'] }, then: { required: ['target'] } };
    expect(inputPairs(obj({ mode: str, target: str }), { ...obj({ mode: str, target: str }), ...conditional })).toEqual([
      ['input-constraint-tightened', 'breaking'],
    ]);
    expect(inputPairs(obj({ a: str, b: str }), { ...obj({ a: str, b: str }), dependentRequired: { a: ['b'] } })).toEqual([
      ['input-constraint-tightened', 'breaking'],
    ]);
    expect(inputPairs(obj({ a: str, b: str }), { ...obj({ a: str, b: str }), dependentSchemas: { a: { required: ['b'] } } })).toEqual([
      ['required-argument-added', 'breaking'],
    ]);
    // Every declared name fits maxLength 1: only an undeclared name is refused, which is no break
    // (a caller sends what the schema declares). The walk proves it: calm, not held.
    expect(inputPairs(obj({ a: str }), { ...obj({ a: str }), propertyNames: { maxLength: 1 } })).toEqual([
      ['input-constraint-tightened', 'safe'],
    ]);
    expect(inputPairs(obj({ ab: str }), { ...obj({ ab: str }), propertyNames: { maxLength: 1 } })).toEqual([
      ['input-constraint-tightened', 'breaking'],
    ]);
  });

  it('boolean schemas: a property made false is refused, made true is widened', () => {
    expect(inputPairs(obj({ q: str }), obj({ q: false }))).toEqual([['input-type-changed', 'breaking']]);
    expect(inputPairs(obj({ q: false }), obj({ q: str }))).toEqual([['input-type-widened', 'safe']]);
    expect(inputPairs(obj({ q: str }), obj({ q: true }))).toEqual([['input-type-widened', 'safe']]);
  });

  it('additionalProperties as a schema governs a property moved out of properties', () => {
    const before = obj({ a: str, b: { type: 'integer' } }, [], { additionalProperties: str });
    expect(any(inputPairs(before, obj({ a: str }, [], { additionalProperties: str })))).toEqual([
      'input-property-removed',
      'input-type-changed',
    ]);
  });

  it('a name a sibling anyOf branch declares is declared: closing one branch to it is a break', () => {
    // The oracle's silent pass: `sms_to` is declared (by the sms branch), so a caller may send it
    // beside `kind: "mail"`; the mail branch now gives other names a type that refuses a number.
    const branch = (kind: string, to: string, more: Record<string, unknown> = {}) => ({
      type: 'object',
      properties: { kind: { const: kind }, [to]: { type: 'integer' } },
      required: ['kind'],
      ...more,
    });
    const when = (mail: Record<string, unknown>) => obj({ when: { anyOf: [mail, branch('sms', 'sms_to')] } });
    const pairs = inputPairs(when(branch('mail', 'mail_to')), when(branch('mail', 'mail_to', { additionalProperties: str })));
    expect(pairs.some(([, severity]) => severity === 'breaking')).toBe(true);
    // A name no branch declares stays undeclared: the same change on a lone object is not judged.
    expect(
      inputPairs(obj({ when: branch('mail', 'mail_to') }), obj({ when: branch('mail', 'mail_to', { additionalProperties: str }) })),
    ).not.toContainEqual([expect.anything(), 'breaking']);
  });

  it('an external or unresolvable $ref is for a person to look at, never safe', () => {
    expect(inputPairs(obj({ a: { $ref: 'https://example.com/a.json' } }), obj({ a: { $ref: 'https://example.com/b.json' } }))).toEqual([
      ['schema-changed', 'dangerous'],
    ]);
    expect(inputPairs(obj({ a: { $ref: '#/$defs/Missing' } }), obj({ a: str }))).toEqual([['schema-changed', 'dangerous']]);
  });

  it('a change 40 levels deep is still found, and one past the bound is a finding', () => {
    const nest = (depth: number, leafSchema: unknown): Record<string, unknown> =>
      depth === 0 ? obj({ v: leafSchema }) : obj({ n: nest(depth - 1, leafSchema) });
    expect(inputPairs(nest(8, str), nest(8, { type: 'integer' }))).toEqual([['input-type-changed', 'breaking']]);
    // Found by the walk and witnessed: the search builds the 40 optional levels above the focus first.
    expect(inputPairs(nest(40, str), nest(40, { type: 'integer' }))).toEqual([['input-type-changed', 'breaking']]);
    expect(inputPairs(nest(100, str), nest(100, { type: 'integer' }))).toEqual([['schema-changed', 'dangerous']]);
  });

  it('a bound that moves between exclusive and inclusive names both keywords', () => {
    const [change] = diffContracts(
      contractOf(tool('t', obj({ n: { type: 'number', exclusiveMaximum: 50 } }))),
      contractOf(tool('t', obj({ n: { type: 'number', maximum: 50 } }))),
    );
    expect([change!.code, change!.before, change!.after]).toEqual(['input-constraint-loosened', { exclusiveMaximum: 50 }, { maximum: 50 }]);
  });

  it('bounds at the safe-integer limits (zod 4 .int()) exclude nothing', () => {
    expect(
      inputPairs(obj({ n: { type: 'integer' } }), obj({ n: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 } })),
    ).toEqual([]);
    expect(inputPairs(obj({ n: { type: 'integer', exclusiveMinimum: 0 } }), obj({ n: { type: 'integer', minimum: 1 } }))).toEqual([]);
  });

  it('widening into anyOf is compared variant by variant, not read as removal', () => {
    const comment = obj({ path: str, position: { type: 'number' }, body: str }, ['path', 'position', 'body']);
    const variant = obj({ path: str, line: { type: 'number' }, body: str }, ['path', 'line', 'body']);
    const before = obj({ comments: { type: 'array', items: comment } });
    const after = obj({ comments: { type: 'array', items: { anyOf: [comment, variant] } } });
    expect(inputPairs(before, after)).toEqual([['input-type-widened', 'safe']]);
    expect(inputPairs(after, before)).toEqual([['input-type-changed', 'breaking']]);
    const parent = obj({ page_id: str }, ['page_id'], { additionalProperties: false });
    expect(
      inputPairs(
        obj({ parent }),
        obj({ parent: { oneOf: [parent, obj({ database_id: str }, ['database_id'], { additionalProperties: false })] } }),
      ),
    ).toEqual([['input-type-widened', 'safe']]);
  });

  it('oneOf refuses an input that matches two alternatives: a new overlap is for a person to look at', () => {
    // Open objects: { page_id, database_id } was accepted and now matches both alternatives.
    const open = obj({ page_id: str }, ['page_id']);
    expect(inputPairs(obj({ parent: open }), obj({ parent: { oneOf: [open, obj({ database_id: str }, ['database_id'])] } }))).toEqual([
      ['input-type-widened', 'safe'],
      ['schema-changed', 'dangerous'],
    ]);
    // Recorded from a public server (osop-mcp): one alternative's required name dropped makes it match everything.
    const either = (second: string[]) => ({
      ...obj({ content: str, file_path: str }),
      oneOf: [{ required: ['content'] }, { required: second }],
    });
    expect(inputPairs(either(['file_path']), either([])).map(([code]) => code)).toContain('schema-changed');
    // anyOf -> oneOf with overlapping alternatives; alternatives told apart by type or const never overlap.
    expect(
      inputPairs(
        obj({ v: { anyOf: [str, { type: 'string', maxLength: 3 }] } }),
        obj({ v: { oneOf: [str, { type: 'string', maxLength: 3 }] } }),
      ),
      // The walk flags the overlap for a person; the search proves it: "ab" matches both, so oneOf refuses it.
    ).toEqual([
      ['input-call-refused', 'breaking'],
      ['schema-changed', 'dangerous'],
    ]);
    expect(inputPairs(obj({ v: str }), obj({ v: { oneOf: [str, { type: 'integer' }] } }))).toEqual([['input-type-widened', 'safe']]);
    const kind = (k: string, extra: string) => obj({ kind: { const: k }, [extra]: str }, ['kind', extra]);
    expect(inputPairs(obj({ v: kind('a', 'x') }), obj({ v: { oneOf: [kind('a', 'x'), kind('b', 'y')] } }))).toEqual([
      ['input-type-widened', 'safe'],
    ]);
  });

  it('a bound declared that refuses only what no useful call sends is listed, not held (X3, HO31, FD40)', () => {
    const num = { type: 'number' };
    const declared = (name: string, after: Record<string, unknown>, required: string[] = []) =>
      inputPairs(obj({ [name]: num, q: str }, required), obj({ [name]: after, q: str }, required));
    // A count: its lower bound at 0 or 1, and whole numbers only.
    expect(declared('pageno', { type: 'number', minimum: 1 })).toEqual([['input-constraint-declared-degenerate', 'safe']]);
    expect(declared('skip', { type: 'number', minimum: 0 })).toEqual([['input-constraint-declared-degenerate', 'safe']]);
    expect(declared('maxResults', { type: 'integer' })).toEqual([['input-constraint-declared-degenerate', 'safe']]);
    // Null beside the number, kept beside the integer: the same bound (@baruchiro/paperless-mcp 2.2.0).
    const nullable = (type: string[]) => obj({ owner: { type } });
    expect(inputPairs(nullable(['null', 'number']), nullable(['integer', 'null']))).toEqual([['input-constraint-declared', 'dangerous']]);
    expect(inputPairs(nullable(['null', 'number']), nullable(['integer']))).toContainEqual(['input-type-changed', 'breaking']);
    // Past the edge, or a value that is no count: held as before.
    expect(declared('limit', { type: 'number', maximum: 100 })).toEqual([['input-constraint-declared', 'dangerous']]);
    expect(declared('page', { type: 'number', minimum: 2 })).toEqual([['input-constraint-declared', 'dangerous']]);
    expect(declared('temperature', { type: 'number', minimum: 0 })).toEqual([['input-constraint-declared', 'dangerous']]);
    expect(declared('price', { type: 'integer' })).toEqual([['input-constraint-declared', 'dangerous']]);
    // An empty string: degenerate only where every call must send the argument.
    const query = (required: string[]) => inputPairs(obj({ q: str }, required), obj({ q: { type: 'string', minLength: 1 } }, required));
    expect(query(['q'])).toEqual([['input-constraint-declared-degenerate', 'safe']]);
    expect(query([])).toEqual([['input-constraint-declared', 'dangerous']]);
    // A count nested below the arguments has no name of its own that says so: held.
    const nested = (page: Record<string, unknown>) => obj({ paging: obj({ page }) });
    expect(inputPairs(nested(num), nested({ type: 'number', minimum: 1 }))).toEqual([['input-constraint-declared', 'dangerous']]);
  });

  it('a baseline whose input schema is not an object schema is repaired, at most a Hold', () => {
    const broken = { properties: { path: str } };
    expect(inputPairs(broken, obj({ path: str }, ['path']))).toEqual([['input-schema-repaired', 'dangerous']]);
  });

  it('so is one that is a validator serialized by mistake, not JSON Schema (zod 4 under SDK 1.20: {def, type})', () => {
    const serialized = { type: 'object', def: { type: 'object', shape: { query: { def: { type: 'string' } } } } };
    expect(inputPairs(serialized, obj({ query: str }, ['query'], { additionalProperties: false }))).toEqual([
      ['input-schema-repaired', 'dangerous'],
    ]);
    // An object schema that merely carries a vendor member beside its arguments is read as it is.
    const described = { type: 'object', properties: { query: str }, meta: { owner: 'search' } };
    expect(inputPairs(described, obj({ query: str }, ['query']))).toEqual([
      ['required-argument-added', 'breaking'],
      ['schema-changed', 'dangerous'],
    ]);
  });

  it('and one whose arguments are serialized validators in place of schemas (zod 3: _def, ~standard; mcp-gsheets 1.6.0)', () => {
    const zod = (typeName: string) => ({ _def: { checks: [], typeName }, '~standard': { version: 1, vendor: 'zod' } });
    const serialized = { type: 'object', properties: { id: zod('ZodString'), mode: zod('ZodEnum') }, required: ['id', 'mode'] };
    const real = obj({ id: str, mode: { type: 'string', enum: ['a', 'b'] }, rules: { type: 'array' } }, ['id', 'mode', 'rules']);
    expect(inputPairs(serialized, real)).toEqual([['input-schema-repaired', 'dangerous']]);
    // An argument that declares its type and carries a vendor object beside it is a schema, read as it is.
    const vendor = obj({ id: { type: 'string', 'x-meta': { owner: 'a' } } }, ['id']);
    expect(inputPairs(vendor, obj({ id: str, rules: { type: 'array' } }, ['id', 'rules']))[0]).toEqual([
      'required-argument-added',
      'breaking',
    ]);
  });

  it('a required argument that only the text named, where the schema declared none, is the text made schema: a repair, held (context-mode 1.0.146)', () => {
    const pairs = (description: string, after: Record<string, unknown>) =>
      diffContracts(contractOf(tool('purge', obj({}), { description })), contractOf(tool('purge', after, { description }))).map((c) => [
        c.code,
        c.severity,
      ]);
    const requires = obj({ confirm: { type: 'boolean' }, scope: str }, ['confirm']);
    expect(pairs('Delete the index. Call with { confirm: true, scope: "project" }.', requires)).toEqual([
      ['input-schema-repaired', 'dangerous'],
    ]);
    expect(pairs('Delete the index. Pass `confirm` as true.', requires)).toEqual([['input-schema-repaired', 'dangerous']]);
    // Named as a word of prose only, or not at all: a call made from the text did not send it.
    expect(pairs('Delete the index after you confirm with the user.', requires)[0]).toEqual(['required-argument-added', 'breaking']);
    expect(pairs('Delete the index.', requires)[0]).toEqual(['required-argument-added', 'breaking']);
    // A baseline that declared arguments is read as it is: the text is not the only contract.
    const declared = diffContracts(
      contractOf(tool('purge', obj({ scope: str }), { description: 'Call with { confirm: true }.' })),
      contractOf(tool('purge', requires, { description: 'Call with { confirm: true }.' })),
    );
    expect(declared.map((c) => c.code)).toContain('required-argument-added');
  });

  it("values the argument's text already listed, declared as an enum that takes each of them, are listed, not held (tradingview-mcp-server 0.5.0)", () => {
    const op = (description: string | undefined, extra: Record<string, unknown> = {}) =>
      obj({ operator: { type: 'string', ...(description && { description }), ...extra } });
    const listed = (description: string, values: string[]) => inputPairs(op(description), op(description, { enum: values }));
    const text = 'Comparison operator: greater, less, greater_or_equal, equal, in_range, etc.';
    expect(listed(text, ['greater', 'less', 'greater_or_equal', 'equal', 'not_equal', 'in_range'])).toEqual([
      ['input-enum-declared-listed', 'safe'],
    ]);
    expect(listed("Format ('json' or 'csv')", ['json', 'csv'])).toEqual([['input-enum-declared-listed', 'safe']]);
    // A value the text listed is no longer taken, or the text listed none: held as before.
    expect(listed(text, ['greater', 'less', 'equal'])).toEqual([['input-enum-declared', 'dangerous']]);
    expect(listed('The comparison to apply.', ['greater', 'less'])).toEqual([['input-enum-declared', 'dangerous']]);
    expect(listed('Use greater for a floor.', ['greater', 'less'])).toEqual([['input-enum-declared', 'dangerous']]);
    // Server text: long runs of blanks or quotes are read in one pass, not tried from every position.
    expect(listedInText(`${' '.repeat(400_000)}x`, ['greater', 'less'])).toBe(false);
    expect(listedInText(`greater, ${'"'.repeat(400_000)}x, less`, ['greater', 'less'])).toBe(false);
  });

  it('a closed shape opened into a map in the same change keeps its names (published Notion server, 2.0.0 → 2.1.0)', () => {
    const shape = obj({ page: obj({ title: { type: 'array' }, type: str }, ['title'], { additionalProperties: false }) }, ['page']);
    const map = obj({ page: { type: 'object', additionalProperties: true } }, ['page']);
    expect(inputPairs(shape, map)).toEqual([
      ['argument-became-optional', 'safe'],
      ['input-opened', 'safe'],
    ]);
    // The map's own schema is still held to the old property's: a map of strings refuses the array title.
    const strings = obj({ page: { type: 'object', additionalProperties: str } }, ['page']);
    expect(inputPairs(shape, strings)).toContainEqual(['input-type-changed', 'breaking']);
    // An input that only stopped saying `false` is no map: the arguments it no longer names are
    // removed (context-mode 1.0.169's ctx_insight drops `port` and the rest with the `false`).
    const insight = obj({ port: { type: 'integer' }, sessionDir: str }, [], { additionalProperties: false });
    expect(inputPairs(insight, { type: 'object', properties: {} })).toEqual([
      ['input-property-removed', 'dangerous'],
      ['input-property-removed', 'dangerous'],
      ['input-opened', 'safe'],
    ]);
    // The same map, nullable: the walk names the property, not the union's branch it sits in (dub
    // 0.64.6's `geo`, fourteenth held-out set: a closed object of 250 country names became a map of strings).
    const nullable = (s: object) => ({ anyOf: [s, { type: 'null' }] });
    const countries = obj({ geo: nullable({ ...obj({ AF: str, AL: str }), additionalProperties: false }) });
    expect(inputPairs(countries, obj({ geo: nullable({ type: 'object', additionalProperties: str }) }))).toEqual([
      ['input-opened', 'safe'],
    ]);
    // Where the union's object only stopped saying `false`, the names it no longer declares are removed.
    expect(inputPairs(countries, obj({ geo: nullable({ type: 'object', properties: {} }) }))).toEqual([
      ['input-property-removed', 'dangerous'],
      ['input-property-removed', 'dangerous'],
      ['input-opened', 'safe'],
    ]);
    // An argument dropped from an object that was open all along is still a removal (the Support Ops example).
    expect(inputPairs(obj({ severity: str, summary: str }, ['severity', 'summary']), obj({ summary: str }, ['summary']))).toEqual([
      ['required-argument-removed', 'breaking'],
    ]);
  });

  it('a server pattern and name built to backtrack for minutes are matched on RE2, at once', () => {
    const name = `${'a'.repeat(40)}!`;
    const before = { type: 'object', properties: { [name]: str }, patternProperties: { '^(a|aa)+$': { type: 'integer' } } };
    const after = { ...before, patternProperties: { '^(a|aa)+$': { type: 'string' } } };
    expect(inputPairs(before, after)).toEqual([['input-type-changed', 'breaking']]); // integer -> string for the names the pattern governs
  });

  it('text-only edits of a schema are no schema change', () => {
    expect(
      inputPairs(
        obj({ a: { type: 'string', description: 'x', examples: ['a'], $comment: 'c' } }),
        obj({ a: { type: 'string', description: 'y' } }),
      ).filter(([c]) => c !== 'description-reworded'),
    ).toEqual([]);
  });
});

describe('the witness search reads each distinct pair of schemas once, and never another pair', () => {
  // Three tools share one baseline schema; two drift alike, one another way. The search's pair is
  // shared by schema text (diff/confirm-ask.ts `pairOf`): keyed on the baseline alone, the third
  // tool would be searched with the first two's pair and get a witness for a change it never made.
  const base = obj({ n: { type: 'integer', maximum: 100 }, s: { type: 'string', enum: ['a', 'b'] } });
  const lowered = obj({ n: { type: 'integer', maximum: 10 }, s: { type: 'string', enum: ['a', 'b'] } });
  const narrowed = obj({ n: { type: 'integer', maximum: 100 }, s: { type: 'string', enum: ['a'] } });
  const changes = diffContracts(
    contractOf(tool('t1', base), tool('t2', base), tool('t3', base)),
    contractOf(tool('t1', lowered), tool('t2', lowered), tool('t3', narrowed)),
  );
  const witnessOf = (name: string) => changes.find((c) => c.tool === name)?.witness;

  it('tools drifted alike get the same witness, found once', () => {
    expect(witnessOf('t1')?.status).toBe('found');
    expect(witnessOf('t2')).toEqual(witnessOf('t1'));
    expect((witnessOf('t1')?.instance as { n: number }).n).toBeGreaterThan(10);
  });

  it('a tool with the same baseline drifted another way gets a witness for its own change', () => {
    expect(changes.filter((c) => c.tool === 't3').map((c) => c.code)).toEqual(['input-enum-narrowed']);
    expect(witnessOf('t3')?.status).toBe('found');
    expect((witnessOf('t3')?.instance as { s: string }).s).toBe('b');
  });
});

describe('output alternatives that come apart', () => {
  it('a oneOf alternative that accepts less where two overlapped: a result both matched, refused before, may now be returned (oracle, mapbox 0.14.0)', () => {
    const before = obj({
      id: {
        oneOf: [
          { type: 'string', maxLength: 3 },
          { type: 'string', minLength: 3 },
        ],
      },
    });
    const after = obj({
      id: {
        oneOf: [
          { type: 'string', maxLength: 3 },
          { type: 'string', minLength: 5 },
        ],
      },
    });
    expect(outputPairs(before, after)).toContainEqual(['schema-changed', 'dangerous']);
    // Alternatives that could never both match (their types differ) come apart safely.
    const typed = (min: number) => obj({ id: { oneOf: [{ type: 'integer' }, { type: 'string', minLength: min }] } });
    expect(outputPairs(typed(3), typed(5))).not.toContainEqual(['schema-changed', 'dangerous']);
    // anyOf refused nothing for matching twice: a narrower alternative only promises less.
    const any = (min: number) =>
      obj({
        id: {
          anyOf: [
            { type: 'string', maxLength: 3 },
            { type: 'string', minLength: min },
          ],
        },
      });
    expect(outputPairs(any(3), any(5))).not.toContainEqual(['schema-changed', 'dangerous']);
  });
});
