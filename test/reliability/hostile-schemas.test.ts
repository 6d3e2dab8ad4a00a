import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { audit } from '../../src/audit/index.js';
import { DEFAULTS } from '../../src/config/defaults.js';
import { subsetMismatches, withoutVolatile } from '../../src/cases/expect.js';
import type { Observation } from '../../src/cases/types.js';
import { diffContracts } from '../../src/diff/index.js';
import { contractOf } from '../helpers/contracts.js';
import { property, runs } from '../helpers/property.js';

// A candidate writes its schemas and results as it likes. Random ones built from what has broken
// the gate before must never make the diff, the audit or a case's checks throw: member names that
// every JavaScript object already has (`__proto__`, `constructor`, `toString`), values whose
// `toString` is a number (ajv's equality calls it), `$ref: "#"` inside `anyOf` (alternatives that
// lead back into themselves), and the keywords that walk into subschemas. A throw there ends the
// run with "could not decide", so a hostile candidate could stop its own gate (docs/security.md,
// "A name is only a name").
//
// The schemas are JSON text, parsed, so that `__proto__` is an own member, as a server's JSON makes it.
// Seeded: a failure repeats, and fast-check prints the smallest pair it found.

const NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'q', 'x'] as const;
const name = fc.constantFrom(...NAMES);
const HOSTILE_VALUES = [
  '{"toString":1}',
  '{"valueOf":2}',
  '{"constructor":{"a":1}}',
  '{"__proto__":{"x":1}}',
  '[{"toString":1},{"toString":1}]',
  '"s"',
  '"(unclosed"',
  '1',
  '-1',
  '1e400',
  'true',
  'null',
  '[]',
  '{}',
];
const value = fc.constantFrom(...HOSTILE_VALUES);
const KEYWORDS = [
  'type',
  'format',
  'pattern',
  'minimum',
  'exclusiveMaximum',
  'maxLength',
  'minItems',
  'title',
  'description',
  '$schema',
  '$id',
  'required',
  'properties',
  'items',
  'deprecated',
  'readOnly',
  'multipleOf',
  'propertyNames',
  'contains',
  'if',
  'then',
  'additionalProperties',
  'x-order',
] as const;

/** JSON text of an object with these members, in this order (a repeated name keeps the last, as JSON.parse does). */
const object = (members: [string, string][]) => `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
const list = (items: string[]) => `[${items.join(',')}]`;

const { schema } = fc.letrec<{ schema: string; leaf: string; node: string }>((tie) => ({
  leaf: fc.constantFrom('{"type":"string"}', '{"type":"integer","maximum":5}', 'true'),
  // The leaf first: fast-check leans to it as the schema gets deeper.
  schema: fc.oneof({ depthSize: 'small' }, tie('leaf'), tie('node')),
  node: fc
    .array(
      fc.oneof(
        fc.tuple(
          fc.constantFrom('properties', '$defs', 'dependentSchemas', 'patternProperties'),
          fc.array(fc.tuple(name, tie('schema')), { maxLength: 2 }).map(object),
        ),
        fc.tuple(
          fc.constant('required'),
          fc.array(name, { maxLength: 2 }).map((names) => JSON.stringify(names)),
        ),
        fc.tuple(fc.constant('enum'), fc.array(value, { minLength: 1, maxLength: 2 }).map(list)),
        fc.tuple(fc.constantFrom('const', 'default'), value),
        fc.tuple(fc.constant('type'), fc.constantFrom('"object"', '"string"', '["string","null"]', '[{"toString":1}]')),
        fc.tuple(fc.constantFrom('items', 'additionalProperties', 'not'), tie('schema')),
        fc.tuple(fc.constantFrom('anyOf', 'allOf', 'oneOf'), fc.array(tie('schema'), { minLength: 1, maxLength: 2 }).map(list)),
        fc.tuple(fc.constant('uniqueItems'), fc.constant('true')),
        fc.tuple(
          fc.constant('dependentRequired'),
          fc.array(fc.tuple(name, name), { maxLength: 1 }).map((pairs) => object(pairs.map(([k, v]) => [k, JSON.stringify([v])]))),
        ),
        fc.tuple(
          fc.constant('$ref'),
          fc.oneof(
            fc.constant('"#"'),
            name.map((n) => JSON.stringify(`#/$defs/${n}`)),
            name.map((n) => JSON.stringify(`#/properties/${n}`)),
          ),
        ),
        fc.tuple(name, value),
        // Any keyword may hold any value: a schema that breaks its own meta-schema is still read.
        fc.tuple(fc.constantFrom(...KEYWORDS), value),
      ),
      { minLength: 1, maxLength: 4 },
    )
    .map(object),
}));

const toolText = (toolName: string, input: string, output: string | null) =>
  object([
    ['name', JSON.stringify(toolName)],
    ['description', '"The tool, described well enough for an agent to choose it."'],
    ['inputSchema', input],
    ...(output === null ? [] : ([['outputSchema', output]] as [string, string][])),
  ]);

const toolName = fc.constantFrom('a', '__proto__', 'constructor');
const tool = (named: string) => fc.tuple(schema, fc.option(schema, { nil: null })).map(([input, output]) => toolText(named, input, output));
/** A baseline and a candidate tool of one name: unchanged, or each drawn on its own. */
const pair = toolName.chain((named) => fc.tuple(tool(named), fc.oneof(fc.constant(null), tool(named))));

/** Pairs this test found, kept whatever the seed draws. */
const FOUND: [[string, string | null]][] = [
  // The judge was compiled from the contract's own objects, so the first search accepted the
  // enum's object by identity and a later one threw on a copy: one pair, judged two ways.
  [
    [
      toolText('constructor', '{"type":"integer","maximum":5}', '{"type":"integer","maximum":5}'),
      toolText(
        'constructor',
        '{"uniqueItems":true,"allOf":[{"type":"string"},{"type":"string"}],"required":["x"]}',
        '{"enum":[{"toString":1}],"items":{"items":{"type":"string"}}}',
      ),
    ],
  ],
  // A message described a `type` list by joining it, and an object in it whose `toString` is a
  // number made the join throw: the run would have ended with exit 3.
  [
    [
      toolText('constructor', '{"type":"string"}', '{"type":"string"}'),
      toolText(
        'constructor',
        '{"type":"string"}',
        '{"anyOf":[{"anyOf":[{"type":"string"}]},{"items":{"type":[{"toString":1}]},"default":{"toString":1}}],"dependentRequired":{}}',
      ),
    ],
  ],
];

describe('hostile schemas and results', () => {
  property('never make the diff or the audit throw, and a tool against itself is no change', () => {
    fc.assert(
      fc.property(pair, ([before, drawn]) => {
        const after = drawn ?? before;
        const baseline = contractOf(JSON.parse(before) as Record<string, unknown>);
        const candidate = contractOf(JSON.parse(after) as Record<string, unknown>);
        const changes = diffContracts(baseline, candidate);
        if (after === before) expect(changes).toEqual([]);
        // The same pair, judged again, gives the same changes in the same order.
        expect(diffContracts(baseline, candidate)).toEqual(changes);
        audit(
          { side: 'baseline', contract: baseline, observations: [] },
          { side: 'candidate', contract: candidate, observations: [] },
          DEFAULTS.audit,
        );
      }),
      { seed: 32, numRuns: runs(500), examples: FOUND },
    );
  });

  // What a server returns is as hostile as what it lists: the same names and values as members
  // of results, read by the audit (each result against its tool's outputSchema, and baseline
  // against candidate) and by a case's `expect` (a subset of the result, volatile places left out).
  property('in results never make the audit or the case checks throw', () => {
    const { result } = fc.letrec<{ result: string; member: string }>((tie) => ({
      result: fc.oneof({ depthSize: 'small' }, value, tie('member')),
      member: fc.oneof(
        fc.array(fc.tuple(name, tie('result')), { maxLength: 3 }).map(object),
        fc.array(tie('result'), { maxLength: 3 }).map(list),
      ),
    }));
    const observation = (caseId: string, structured: string, text: string): Observation => ({
      caseId,
      tool: 'a',
      args: {},
      result: JSON.parse(
        object([
          [
            'content',
            list([
              object([
                ['type', '"text"'],
                ['text', JSON.stringify(text)],
              ]),
            ]),
          ],
          ['structuredContent', structured],
        ]),
      ),
      resultBytes: structured.length + text.length,
      volatile: ['/*/toString', '/__proto__'],
    });
    fc.assert(
      fc.property(
        tool('a'),
        tool('a'),
        fc.array(fc.tuple(result, result, result), { minLength: 1, maxLength: 3 }),
        (before, after, results) => {
          const observed = (side: 0 | 1) => results.map((r, i) => observation(`C-${i}`, r[side], r[2]));
          audit(
            { side: 'baseline', contract: contractOf(JSON.parse(before) as Record<string, unknown>), observations: observed(0) },
            { side: 'candidate', contract: contractOf(JSON.parse(after) as Record<string, unknown>), observations: observed(1) },
            DEFAULTS.audit,
          );
          for (const [expected, actual] of results) {
            subsetMismatches(JSON.parse(expected), JSON.parse(actual));
            withoutVolatile(JSON.parse(actual), (pointer) => pointer.endsWith('/toString'));
          }
        },
      ),
      { seed: 32, numRuns: runs(300) },
    );
  });
});
