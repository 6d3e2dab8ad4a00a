import { describe, expect, it } from 'vitest';
import { SchemaWork } from '../../src/contract/schema-work.js';
import { DEFAULTS } from '../../src/config/types.js';
import { decide } from '../../src/decide/decide.js';
import { collectSignals } from '../../src/decide/signals.js';
import { diffContracts } from '../../src/diff/index.js';
import type { Change } from '../../src/findings/types.js';
import { contractOf, inputPairs, obj, outputPairs, tool } from '../helpers/contracts.js';

// docs/verdicts.md, "Calm needs a proof": a change the walk held is let go only on a proof (the same
// normal form, a structural rule, patterns compared as languages). A search that finds nothing
// proves nothing: what it could not witness stays held, and says so.

const str = { type: 'string' };
const diff = (before: Record<string, unknown>, after: Record<string, unknown>): Change[] =>
  diffContracts(contractOf(tool('t', before)), contractOf(tool('t', after)));
const verdictOf = (changes: Change[]) =>
  decide(collectSignals(changes, [], []), { ...DEFAULTS.promotion, rules: {}, exceptions: [] }, '2026-12-01').verdict;
const withPattern = (pattern: string) => obj({ ref: { type: 'string', pattern } }, ['ref']);

describe('patterns are compared as regular languages', () => {
  it('a pattern tightened against values real refs carry is a break, with a witness the search never drew before', () => {
    const changes = diff(withPattern('^.+$'), withPattern('^[^-][^/]*$'));
    expect(changes.map((c) => [c.code, c.severity])).toEqual([['input-constraint-tightened', 'breaking']]);
    const [c] = changes;
    expect(c!.witness).toMatchObject({ status: 'found', side: 'input' });
    // Not option-like: a '/' the candidate refuses, so it is no argument-injection hardening either.
    expect((c!.witness!.instance as { ref: string }).ref).toMatch(/^[^-].*\//);
    expect(c!.witness!.optionLike).toBeUndefined();
    expect(verdictOf(changes)).toBe('Rollback');
  });

  it('the other values a search never drew: a dot, upper case', () => {
    expect(inputPairs(withPattern('^.*$'), withPattern('^[^.]*$'))).toEqual([['input-constraint-tightened', 'breaking']]);
    expect(inputPairs(withPattern('^[A-Za-z]+$'), withPattern('^[a-z]+$'))).toEqual([['input-constraint-tightened', 'breaking']]);
  });

  it('where every string told apart starts with a dash, it is argument-injection hardening, held', () => {
    const changes = diff(withPattern('^[a-z-]+$'), withPattern('^[a-z][a-z-]*$'));
    expect(changes.map((c) => [c.code, c.severity])).toEqual([['input-constraint-tightened', 'dangerous']]);
    expect(changes[0]!.witness?.optionLike).toBe(true);
    expect(verdictOf(changes)).toBe('Hold');
  });

  it('a pattern rewritten to accept the same strings is proven the same, and is no Hold', () => {
    const changes = diff(withPattern('^[a-z]+$'), withPattern('^[a-z]{1,}$'));
    expect(changes.map((c) => [c.code, c.severity])).toEqual([['schema-annotation-changed', 'safe']]);
    expect(changes[0]!.message).toContain('Compared as regular languages, the two patterns accept the same strings.');
  });

  it('patterns refa cannot compare are held, with the reason, never calm', () => {
    // The same language (an even number of a's), through a backreference no automaton holds.
    const changes = diff(withPattern('^(a+)\\1$'), withPattern('^(?:aa)+$'));
    expect(changes.map((c) => [c.code, c.severity])).toEqual([['schema-changed', 'dangerous']]);
    expect(changes[0]!.message).toContain('could not be compared as languages (it uses a backreference)');
    expect(verdictOf(changes)).toBe('Hold');
  });

  it('on outputs, a pattern that lets more through is held with the string it lets through', () => {
    const output = (pattern: string) => ({ type: 'object', properties: { id: { type: 'string', pattern } }, required: ['id'] });
    expect(outputPairs(output('^[a-z]+$'), output('^[a-z0-9]+$'))).toEqual([['output-constraint-loosened', 'dangerous']]);
    expect(outputPairs(output('^[a-z0-9]+$'), output('^[a-z]+$'))).toEqual([['output-constraint-tightened', 'safe']]);
  });
});

describe('a step or a format swapped for one neither wider nor narrower', () => {
  const field = (v: Record<string, unknown>) => ({ type: 'object', properties: { v }, required: ['v'] });
  it('on an output it lets more through, and is held as a loosening, not passed as a tightening', () => {
    expect(outputPairs(field({ type: 'integer', multipleOf: 2 }), field({ type: 'integer', multipleOf: 3 }))).toEqual([
      ['output-constraint-loosened', 'dangerous'],
    ]);
    expect(outputPairs(field({ type: 'string', format: 'date' }), field({ type: 'string', format: 'date-time' }))).toEqual([
      ['output-constraint-loosened', 'dangerous'],
    ]);
    // A step that divides the old one, or a format that holds the old one, is a tightening still.
    expect(outputPairs(field({ type: 'integer', multipleOf: 2 }), field({ type: 'integer', multipleOf: 4 }))).toEqual([
      ['output-constraint-tightened', 'safe'],
    ]);
  });

  it('on an input it refuses what was taken: a break', () => {
    expect(inputPairs(field({ type: 'integer', multipleOf: 2 }), field({ type: 'integer', multipleOf: 3 }))).toEqual([
      ['input-constraint-tightened', 'breaking'],
    ]);
  });
});

describe('a search that finds nothing proves nothing', () => {
  it('a break no call witnesses stays held, unconfirmed, and says the search proves nothing', () => {
    // `not` excludes strings of 5 or more, which maxLength already refused: no witness exists, but
    // no rule proves it either, so it is held, not let go.
    const changes = diff(obj({ s: { type: 'string', maxLength: 3 } }), obj({ s: { type: 'string', maxLength: 3, not: { minLength: 5 } } }));
    expect(changes.map((c) => [c.code, c.severity])).toEqual([['input-constraint-tightened', 'dangerous']]);
    expect(changes[0]!.witness?.status).toBe('unconfirmed');
    expect(changes[0]!.message).toContain('A search that finds nothing proves nothing');
    expect(verdictOf(changes)).toBe('Hold');
  });

  it('a change the walk could not classify, with no witness either way and no proof, is held and says why', () => {
    const changes = diff(obj({ s: str }), obj({ s: { type: 'string', 'x-unknown-assertion': 1, unknownKeyword: { a: 1 } } }));
    expect(changes.map((c) => [c.code, c.severity])).toContainEqual(['schema-changed', 'dangerous']);
    expect(changes.find((c) => c.code === 'schema-changed')!.message).toContain('a search that finds nothing proves nothing');
    expect(verdictOf(changes)).toBe('Hold');
  });
});

/** A layout node that holds a list of its own kind, in draft-07's spelling or 2020-12's. */
function tree(defs: 'definitions' | '$defs', inBranch: boolean, text: Record<string, unknown> = str): Record<string, unknown> {
  const back = { $ref: `#/${defs}/node` };
  const size =
    defs === 'definitions'
      ? { type: 'array', items: [{ type: 'number' }, { type: 'number' }], additionalItems: false }
      : { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false };
  const node = obj({ size, children: { type: 'array', items: inBranch ? { anyOf: [obj({ text }), back] } : back } });
  return { ...obj({ content: { type: 'array', items: inBranch ? { anyOf: [str, back] } : back } }, ['content']), [defs]: { node } };
}

describe('schemas equal by construction are proven equal, never held', () => {
  const same: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['anyOf branches reordered', obj({ a: { anyOf: [str, { type: 'integer' }] } }), obj({ a: { anyOf: [{ type: 'integer' }, str] } })],
    ['oneOf branches reordered', obj({ a: { oneOf: [str, { type: 'null' }] } }), obj({ a: { oneOf: [{ type: 'null' }, str] } })],
    [
      'a local $ref inlined',
      { ...obj({ a: { $ref: '#/$defs/A' } }), $defs: { A: { type: 'string', maxLength: 3 } } },
      obj({ a: { type: 'string', maxLength: 3 } }),
    ],
    ['a one-branch allOf wrap', obj({ a: str }), { allOf: [obj({ a: str })] }],
    ['multipleOf: 1 on an integer', obj({ n: { type: 'integer' } }), obj({ n: { type: 'integer', multipleOf: 1 } })],
    ['number with multipleOf: 1 is integer', obj({ n: { type: 'integer' } }), obj({ n: { type: 'number', multipleOf: 1 } })],
    [
      'unevaluatedProperties: false where additionalProperties: false means the same',
      obj({ a: str }, [], { additionalProperties: false }),
      obj({ a: str }, [], { unevaluatedProperties: false }),
    ],
    [
      'uniqueItems under maxItems: 1',
      obj({ l: { type: 'array', maxItems: 1 } }),
      obj({ l: { type: 'array', maxItems: 1, uniqueItems: true } }),
    ],
    ['items set to true', obj({ l: { type: 'array' } }), obj({ l: { type: 'array', items: true } })],
    ['not that excludes another type', obj({ s: str }), obj({ s: { type: 'string', not: { type: 'integer' } } })],
    [
      'if that no instance satisfies',
      obj({ s: str, t: str }),
      { ...obj({ s: str, t: str }), if: { properties: { s: { type: 'integer' } }, required: ['s'] }, then: { required: ['t'] } },
    ],
    [
      'dependentSchemas that asks what is already required',
      obj({ a: str, b: str }, ['b']),
      { ...obj({ a: str, b: str }, ['b']), dependentSchemas: { a: { required: ['b'] } } },
    ],
    [
      'contains that every item of a non-empty list satisfies',
      obj({ l: { type: 'array', items: str, minItems: 1 } }),
      obj({ l: { type: 'array', items: str, minItems: 1, contains: str } }),
    ],
    // The oracle's contains-implied on dataforseo-mcp-server's `filters`, whose condition branch
    // declares `items: {}`: a list with no `items` takes every item, so `contains: {}` asks nothing.
    [
      'contains that takes anything, on a non-empty list of anything',
      obj({ l: { type: 'array', items: {}, minItems: 3 } }),
      obj({ l: { type: 'array', items: {}, minItems: 3, contains: {} } }),
    ],
    [
      'unevaluatedProperties beside an additionalProperties that takes anything',
      obj({ m: { type: 'object' } }),
      obj({ m: { type: 'object', additionalProperties: true, unevaluatedProperties: str } }),
    ],
    // @neverinfamous/mysql-mcp 5.1.0's mysql_json_get output (the oracle's if-requires-already-required,
    // after the thirteenth held-out set joined its bases): a member that takes anything beside it.
    [
      'then that requires what is already required, beside a member that takes anything',
      obj({ value: {}, rowFound: { type: 'boolean' } }, ['value']),
      { ...obj({ value: {}, rowFound: { type: 'boolean' } }, ['value']), if: { required: ['rowFound'] }, then: { required: ['value'] } },
    ],
    ['null spelled as a const', obj({ s: { type: ['string', 'null'] } }), obj({ s: { anyOf: [str, { const: null }] } })],
    // The oracle's null-spelled-as-const on a base with an exclusive bound: a bound applies to numbers
    // alone, so `[integer, null]` takes whole numbers only and its exclusive bound has an inclusive twin.
    [
      'null spelled as a const beside an exclusive bound on an integer',
      obj({ n: { type: ['integer', 'null'], maximum: 35, exclusiveMinimum: 0 } }),
      obj({ n: { anyOf: [{ type: 'integer', maximum: 35, exclusiveMinimum: 0 }, { const: null }] } }),
    ],
    ['an enum spelled as consts', obj({ s: { enum: ['a', 'b'] } }), obj({ s: { anyOf: [{ const: 'a' }, { const: 'b' }] } })],
    // The oracle's items-array-form-draft07 on mongodb-mcp-server 1.12.0's insert-many output (after
    // the fourteenth held-out set joined its bases): a tuple of positions that take anything.
    [
      'a draft-07 tuple of positions that take anything, on a list of anything',
      { $schema: 'http://json-schema.org/draft-07/schema#', ...obj({ l: { type: 'array', items: {} } }) },
      { $schema: 'http://json-schema.org/draft-07/schema#', ...obj({ l: { type: 'array', items: [{}], additionalItems: {} } }) },
    ],
    ['a format ajv does not know', obj({ s: str }), obj({ s: { type: 'string', format: 'x-ticket' } })],
    // @modelcontextprotocol/server-pdf 2.0.4 (the ninth held-out set's FI31, where it was held).
    ['anyOf of bare types as a type list', obj({ v: { anyOf: [str, { type: 'boolean' }] } }), obj({ v: { type: ['string', 'boolean'] } })],
    ['oneOf of types that share no value', obj({ v: { oneOf: [str, { type: 'integer' }] } }), obj({ v: { type: ['integer', 'string'] } })],
    // @mcp-z/mcp-pdf 3.2.1 (the eleventh held-out set's FK13, where it was held): zod 4 under the
    // SDK's 2020-12 writes draft-07's recursive layout tree with `$defs` and `prefixItems`.
    ['a recursive definition moved from definitions to $defs', tree('definitions', false), tree('$defs', false)],
    ['the same, its way back inside an anyOf branch, a tuple beside it', tree('definitions', true), tree('$defs', true)],
    // A member keeps an `items` that takes anything for the node it joins; where that node has no
    // unevaluated keyword, the conjunction drops it as before.
    [
      'an items that takes anything in a nested allOf member',
      obj({ l: { type: 'array' } }),
      obj({ l: { type: 'array', allOf: [{ allOf: [{ items: true }] }] } }),
    ],
    // An `unevaluatedItems` read where nothing else evaluates items is `items`; a conditional or a
    // dependent schema whose mark no unevaluated keyword reads asks nothing; a `$ref` beside
    // `unevaluatedProperties` is read as a member, whose names that keyword sees (found in review).
    [
      'items that takes anything beside unevaluatedItems',
      obj({ l: { type: 'array' } }),
      obj({ l: { type: 'array', items: {}, unevaluatedItems: false } }),
    ],
    [
      'a member unevaluatedItems as items',
      obj({ l: { type: 'array', items: false } }),
      obj({ l: { type: 'array', allOf: [{ unevaluatedItems: false }] } }),
    ],
    ['unevaluatedItems alone as items', obj({ l: { type: 'array', items: str } }), obj({ l: { type: 'array', unevaluatedItems: str } })],
    [
      'an else of items that take anything',
      obj({ l: { type: 'array' } }),
      obj({ l: { type: 'array', if: { type: 'string' }, else: { items: {} } } }),
    ],
    [
      'a dependent schema that takes any name',
      obj({ m: { type: 'object' } }),
      obj({ m: { type: 'object', dependentSchemas: { a: { additionalProperties: true } } } }),
    ],
    [
      'a $ref closed by unevaluatedProperties beside it',
      obj({ x: { type: 'object', properties: { a: str }, additionalProperties: false } }),
      { ...obj({ x: { $ref: '#/$defs/B', unevaluatedProperties: false } }), $defs: { B: { type: 'object', properties: { a: str } } } },
    ],
    // A conditional settled leaves `unevaluatedProperties` read as `additionalProperties` (found in review).
    [
      'an unevaluatedProperties beside a then that always applies',
      obj({ m: { type: 'object', properties: { a: {}, b: {} }, additionalProperties: false } }),
      obj({ m: { type: 'object', properties: { a: {} }, unevaluatedProperties: false, if: {}, then: { properties: { b: {} } } } }),
    ],
    // ...and an `additionalProperties` that takes anything, joined to a node with patterns (found in review).
    ...(() => {
      const pp = (extra: Record<string, unknown>) => obj({ m: { type: 'object', patternProperties: { '^x': str }, ...extra } });
      const defs = { $defs: { o: { additionalProperties: true } } };
      return [
        ['an additionalProperties that takes anything in a member beside patterns', pp({}), pp({ allOf: [{ additionalProperties: {} }] })],
        ['the same behind a $ref', { ...pp({}), ...defs }, { ...pp({ $ref: '#/$defs/o' }), ...defs }],
      ] as [string, Record<string, unknown>, Record<string, unknown>][];
    })(),
    // An `if` whose only keyword takes anything passes every instance; its mark matters only to an
    // `unevaluated*` (found in review).
    [
      'an if that every list passes, its then conjoined',
      obj({ l: { type: 'array', maxItems: 3 } }),
      obj({ l: { type: 'array', if: { items: {} }, then: { maxItems: 3 } } }),
    ],
    [
      'an items that takes anything behind a $ref beside other keywords',
      { ...obj({ l: { type: 'array', minItems: 1 } }), $defs: { any: { items: {} } } },
      { ...obj({ l: { type: 'array', minItems: 1, $ref: '#/$defs/any' } }), $defs: { any: { items: {} } } },
    ],
    // unstructured-client 0.29.1 (the eighteenth held-out set's FR2, where it was held): zod restates
    // an enum beside a plain string as one const per value; the values were suggestions the schema
    // never enforced.
    [
      'an enum beside a plain string, restated as consts',
      obj({ s: { anyOf: [{ type: 'string', enum: ['fast', 'auto'] }, str], default: 'auto' } }),
      obj({ s: { anyOf: [{ type: 'string', const: 'fast' }, { type: 'string', const: 'auto' }, str], default: 'auto' } }),
    ],
    // Under draft-07 an `unevaluated*` keyword does not exist, so it reads no marks and the alternatives are gathered.
    [
      'an enum beside a plain string, as the plain string, beside a draft-07 unevaluatedProperties',
      {
        $schema: 'http://json-schema.org/draft-07/schema#',
        ...obj({ s: { anyOf: [{ type: 'string', enum: ['x', 'y'] }, str] } }),
        unevaluatedProperties: false,
      },
      { $schema: 'http://json-schema.org/draft-07/schema#', ...obj({ s: str }), unevaluatedProperties: false },
    ],
    [
      'an enum beside a plain string, as the plain string',
      obj({ s: { anyOf: [{ type: 'string', enum: ['gpt-4o', 'claude'] }, str] } }),
      obj({ s: str }),
    ],
  ];

  it.each(same)('%s: nothing held, and nothing calm on a search alone', (_, before, after) => {
    for (const [b, a] of [
      [before, after],
      [after, before],
    ]) {
      const changes = diff(b!, a!);
      expect(changes.filter((c) => c.severity !== 'safe').map((c) => [c.code, c.severity, c.message])).toEqual([]);
      // A calm change rests on a proof: never on a witness search that found nothing.
      expect(changes.filter((c) => c.witness && c.witness.status !== 'proven')).toEqual([]);
      expect(verdictOf(changes)).toBe('Promote');
    }
  });
});

describe('alternatives that take the same arguments, where the rest of the schema changed too', () => {
  // FR2: the whole schemas differ (a new optional argument), so the proof is the place's own.
  const before = obj({
    s: { anyOf: [{ type: 'string', enum: ['fast', 'auto'] }, str] },
    m: { anyOf: [{ type: 'string', enum: ['a', 'b'] }, str] },
  });
  const after = obj({ s: { anyOf: [{ type: 'string', const: 'fast' }, { type: 'string', const: 'auto' }, str] }, m: str, n: str });

  it('the values read as dropped are proven calm at their place, and the release promotes', () => {
    const changes = diff(before, after);
    expect(changes.filter((c) => c.severity !== 'safe')).toEqual([]);
    const dropped = changes.filter((c) => c.code === 'input-enum-dropped');
    expect(dropped.length).toBe(2);
    for (const c of dropped) expect(c.message).toContain('the alternatives here have the same normal form on both sides');
    expect(verdictOf(changes)).toBe('Promote');
  });

  it('a value that goes from the consts is still held: the place takes the same arguments no longer', () => {
    const narrowed = obj({ s: { anyOf: [{ type: 'string', const: 'fast' }, { type: 'integer' }] }, n: str });
    const changes = diff(before, narrowed);
    expect(changes.some((c) => c.severity !== 'safe')).toBe(true);
    expect(verdictOf(changes)).not.toBe('Promote');
  });
});

describe('an alternative that appears twice pairs with its twin', () => {
  // dataforseo-mcp-server's `filters` items: an anyOf with `{}` twice over (once in a nested anyOf).
  // Each of the baseline's two pairs with one of the candidate's, so neither side has one left over
  // to report as "now also accepts a value of another shape".
  const filters = (third: Record<string, unknown>) =>
    obj({ f: { type: 'array', items: { anyOf: [{ type: 'string', enum: ['and', 'or'] }, third, { anyOf: [str, {}] }, {}] } } });
  const list = { type: 'array', minItems: 3, maxItems: 3, items: {} };

  it('the same schema with an implied contains on one branch reports nothing but its definition', () => {
    const changes = diff(filters(list), filters({ ...list, contains: {} }));
    expect(changes.map((c) => [c.code, c.severity])).toEqual([['tool-definition-changed', 'safe']]);
  });
});

describe('a contains that takes anything', () => {
  it('an items or additionalProperties that takes anything is kept beside an unevaluated keyword: it marks what it covers evaluated', () => {
    const list = (extra: Record<string, unknown>) => obj({ l: { type: 'array', unevaluatedItems: str, ...extra } });
    const map = (extra: Record<string, unknown>) => obj({ m: { type: 'object', unevaluatedProperties: str, ...extra } });
    const arr = (extra: Record<string, unknown>) => obj({ l: { type: 'array', ...extra } });
    for (const [before, after] of [
      [list({ items: {} }), list({})],
      [map({ additionalProperties: true }), map({})],
      // So does a tuple's position that takes anything: dropped, the list would take no item at all;
      // and beside an unevaluatedItems on the node it is merged into (found in review).
      [list({ prefixItems: [{}] }), list({})],
      [list({ allOf: [{ prefixItems: [{}] }] }), list({})],
      [list({ allOf: [{ prefixItems: [{}, true] }] }), list({ allOf: [{ prefixItems: [{}] }] })],
      // An `items` or `additionalProperties` that takes anything, in a member or behind a `$ref`
      // merged into a node with an unevaluated keyword, marks what it covers there too (found in review).
      [list({ allOf: [{ items: {} }] }), list({})],
      [map({ allOf: [{ additionalProperties: true }] }), map({})],
      [
        { ...list({ $ref: '#/$defs/any' }), $defs: { any: { items: {} } } },
        { ...list({}), $defs: { any: { items: {} } } },
      ],
      // A member's `unevaluatedItems` sees the member's items only, not the node's it joins; a
      // conditional's branch or a dependent schema marks what it covers for the node's (found in review).
      [arr({ items: {}, unevaluatedItems: false }), arr({ items: {}, allOf: [{ unevaluatedItems: false }] })],
      [arr({ prefixItems: [str], unevaluatedItems: false }), arr({ prefixItems: [str], allOf: [{ unevaluatedItems: false }] })],
      [arr({ unevaluatedItems: false, if: {}, then: { items: {} } }), arr({ unevaluatedItems: false })],
      [arr({ unevaluatedItems: false, if: { type: 'string' }, else: { items: {} } }), arr({ unevaluatedItems: false })],
      [arr({ unevaluatedItems: false, if: { items: {} } }), arr({ unevaluatedItems: false })],
      [
        obj({ m: { type: 'object', unevaluatedProperties: false, dependentSchemas: { a: { additionalProperties: true } } } }),
        obj({ m: { type: 'object', unevaluatedProperties: false, dependentSchemas: { a: { minProperties: 0 } } } }),
      ],
    ])
      expect(diff(before!, after!).filter((c) => c.code !== 'tool-definition-changed')).not.toEqual([]);
  });

  it('beside unevaluatedItems, a contains that takes anything is not implied: it marks the items evaluated', () => {
    // Without it, `unevaluatedItems: false` refuses every item, and `minItems: 1` every list.
    const list = (extra: Record<string, unknown>) => obj({ l: { type: 'array', minItems: 1, unevaluatedItems: false, ...extra } });
    for (const [before, after] of [
      [list({ contains: {} }), list({})],
      [list({}), list({ contains: {} })],
    ])
      expect(diff(before!, after!).map((c) => c.path)).toContain('/inputSchema/properties/l/contains');
  });
});

describe('a recursion is compared to its end, whatever its definitions are called', () => {
  it('a difference deep in a recursive definition is told, not taken for spelling', () => {
    const changes = diff(tree('definitions', true), tree('$defs', true, { type: 'integer' }));
    expect(changes.filter((c) => c.severity !== 'safe').length).toBeGreaterThan(0);
    expect(verdictOf(changes)).not.toBe('Promote');
  });
});

describe('the search runs once per distinct pair of schemas', () => {
  const family = (n: number, schema: (i: number) => Record<string, unknown>) =>
    contractOf(...Array.from({ length: n }, (_, i) => tool(`tool_${i}`, schema(i))));

  it('identical releases run no search', () => {
    const work = new SchemaWork();
    const release = family(5, () => obj({ q: str, limit: { type: 'integer', maximum: 100 } }));
    expect(
      diffContracts(
        release,
        family(5, () => obj({ q: str, limit: { type: 'integer', maximum: 100 } })),
        undefined,
        work,
      ),
    ).toEqual([]);
    expect(work.searches).toBe(0);
  });

  it('a release-wide change over N tools runs the searches of one', () => {
    const [before, after] = [
      obj({ q: str, limit: { type: 'integer', maximum: 100 } }),
      obj({ q: str, limit: { type: 'integer', maximum: 10 } }),
    ];
    const one = new SchemaWork();
    diffContracts(
      family(1, () => before),
      family(1, () => after),
      undefined,
      one,
    );
    const many = new SchemaWork();
    const changes = diffContracts(
      family(12, () => before),
      family(12, () => after),
      undefined,
      many,
    );
    expect(changes.filter((c) => c.code === 'input-constraint-tightened')).toHaveLength(12);
    expect(one.searches).toBeGreaterThan(0);
    expect(many.searches).toBe(one.searches);
  });

  it('a side that differs only in annotations ($schema) is proven the same and not searched', () => {
    const work = new SchemaWork();
    const draft7 = { $schema: 'http://json-schema.org/draft-07/schema#', ...obj({ q: str }) };
    const changes = diffContracts(
      family(3, () => draft7),
      family(3, () => obj({ q: str })),
      undefined,
      work,
    );
    expect(changes.map((c) => c.code)).toEqual(['schema-annotation-changed', 'schema-annotation-changed', 'schema-annotation-changed']);
    expect(work.searches).toBe(0);
  });
});

describe('what an unevaluated keyword reads, where the form cannot say, is not called calm (found in review)', () => {
  const w = (v: Record<string, unknown>) => ({ type: 'object', properties: { v }, required: ['v'] });
  const draft07 = 'http://json-schema.org/draft-07/schema#';
  const T = { properties: { a: {} }, anyOf: [{ required: ['a'] }, { required: ['b'] }], unevaluatedProperties: str };
  const chain = (extra: Record<string, unknown>) => {
    const $defs: Record<string, unknown> = { L70: { type: 'object', properties: { z: str } } };
    for (let i = 0; i < 70; i++) $defs[`L${i}`] = { $ref: `#/$defs/L${i + 1}`, ...(i === 0 ? extra : {}) };
    return { type: 'object', properties: { root: { $ref: '#/$defs/L0' } }, $defs };
  };
  const recursive = (c: Record<string, unknown>) => ({
    $schema: 'https://json-schema.org/draft/2019-09/schema',
    $recursiveAnchor: true,
    type: 'object',
    properties: { a: str, c: { $recursiveRef: '#', ...c } },
  });
  it.each([
    [
      'an items mark in one member, a tuple in another',
      w({ type: 'array', unevaluatedItems: false, allOf: [{ items: {} }, { prefixItems: [str] }] }),
      w({ type: 'array', prefixItems: [str], items: false }),
    ],
    [
      'unevaluatedItems under draft-07, which has none',
      { $schema: draft07, ...w({ type: 'array', unevaluatedItems: false }) },
      { $schema: draft07, ...w({ type: 'array', items: false }) },
    ],
    [
      'unevaluatedProperties under draft-07',
      { $schema: draft07, type: 'object', properties: { a: str }, unevaluatedProperties: false },
      { $schema: draft07, type: 'object', properties: { a: str }, additionalProperties: false },
    ],
    ['beside a $recursiveRef', recursive({ unevaluatedProperties: false }), recursive({ additionalProperties: false })],
    [
      'beside a $ref whose target keeps its own',
      { type: 'object', $ref: '#/$defs/T', unevaluatedProperties: false, $defs: { T } },
      { type: 'object', $ref: '#/$defs/T', additionalProperties: false, $defs: { T } },
    ],
    ['a definition changed past the depth bound', chain({}), chain({ minProperties: 1 })],
    // An alternative whose form is another's plus a bound, but which marks every name evaluated.
    [
      'an anyOf alternative that marks names, under unevaluatedProperties',
      {
        type: 'object',
        unevaluatedProperties: false,
        anyOf: [{ required: ['a'] }, { required: ['a'], minProperties: 2, additionalProperties: true }, { required: ['z'] }],
      },
      { type: 'object', unevaluatedProperties: false, anyOf: [{ required: ['a'] }, { required: ['z'] }] },
    ],
    // The same, under a property: the alternatives' pairing read the parent's unevaluatedProperties
    // as a conjunct of its own, closed on both sides, and the alternative's removal as calm.
    [
      'an anyOf alternative that marks names, under unevaluatedProperties, beneath a property',
      obj(
        {
          o: {
            type: 'object',
            unevaluatedProperties: false,
            anyOf: [{ required: ['a'] }, { required: ['a'], minProperties: 2, additionalProperties: true }, { required: ['z'] }],
          },
        },
        ['o'],
      ),
      obj({ o: { type: 'object', unevaluatedProperties: false, anyOf: [{ required: ['a'] }, { required: ['z'] }] } }, ['o']),
    ],
    // Two chains of `$ref`s that lead back as far, to different definitions: the form writes both as
    // one recursion, so a break the walk found under an alternative is not let go as alike.
    ...(() => {
      const B = (to: string) => ({ type: 'object', properties: { y: { $ref: to } }, additionalProperties: false });
      const p = { anyOf: [{ type: 'object', properties: { x: { $ref: '#/$defs/B' } }, additionalProperties: false }, str] };
      const r = { type: 'string', pattern: '^(a)\\1$' };
      const before = {
        type: 'object',
        properties: { p, r },
        required: ['p'],
        $defs: { B: B('#/$defs/C'), C: { type: 'object', properties: { z: { $ref: '#/$defs/B' } }, additionalProperties: false } },
      };
      const after = {
        type: 'object',
        properties: { p, r, q: str },
        required: ['p'],
        $defs: {
          B: B('#/$defs/C1'),
          C1: { $ref: '#/$defs/C2' },
          C2: { type: 'object', properties: { z: { $ref: '#/$defs/C1' } }, additionalProperties: false },
        },
      };
      // The same two chains with nothing else changed: the whole schema's form wrote both returns as
      // two refs back, where one returns to B and the other to the alias C1 (found in review).
      const whole = (s: Record<string, unknown>) => ({
        type: 'object',
        properties: { p: { $ref: '#/$defs/B' } },
        required: ['p'],
        $defs: s.$defs,
      });
      return [
        ['a recursion under an alternative that leads back as far to another definition', before, after],
        ['a recursion that leads back as many refs to another definition, the whole schema alike but for it', whole(before), whole(after)],
        // A way back to a node that is its definition and more: `{$ref: B, required: [x]}` at the top,
        // B open below, against B2 requiring x all the way down (found in review).
        (() => {
          const node = (to: string) => ({ type: 'object', properties: { x: str, next: { $ref: to } } });
          const top = (p: Record<string, unknown>, defs: Record<string, unknown>) => ({
            type: 'object',
            properties: { p },
            required: ['p'],
            $defs: defs,
          });
          return [
            'a recursion whose top joins keywords beside its $ref, against a definition that has them all the way down',
            top({ $ref: '#/$defs/B', required: ['x'] }, { B: node('#/$defs/B') }),
            top({ $ref: '#/$defs/B2' }, { B2: { ...node('#/$defs/B2'), required: ['x'] } }),
          ] as [string, Record<string, unknown>, Record<string, unknown>];
        })(),
      ] as [string, Record<string, unknown>, Record<string, unknown>][];
    })(),
    // A `$ref` the gate does not resolve, to a definition whose type changed: the form leaves it out.
    ...(() => {
      const byAnchor = (type: string) => ({
        type: 'object',
        properties: { p: { $ref: '#foo' } },
        required: ['p'],
        $defs: { A: { $anchor: 'foo', type } },
      });
      const byUri = (type: string) => ({
        $id: 'http://e.com/root.json',
        type: 'object',
        properties: { p: { $ref: 'http://e.com/root.json#/$defs/A' } },
        required: ['p'],
        $defs: { A: { type } },
      });
      return [
        ['a definition reached by an anchor, its type changed', byAnchor('string'), byAnchor('integer')],
        ['a definition reached by an absolute URI, its type changed', byUri('string'), byUri('integer')],
      ] as [string, Record<string, unknown>, Record<string, unknown>][];
    })(),
  ])('%s: not a Promote', (_, before, after) => {
    expect(verdictOf(diff(before, after))).not.toBe('Promote');
  });
});
