import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSchema2020, KEYWORD_CHECKS } from '../../src/audit/meta-2020.js';
import { schemaProblems } from '../../src/audit/schema-check.js';
import { compileValidator } from '../../src/base/validators.js';
import { syntheticTool } from '../fixtures/synthetic/tools.mjs';
import { ROOT } from '../helpers/cli.js';
import { property, runs } from '../helpers/property.js';

/**
 * The audit's quick check of a 2020-12 schema (src/audit/meta-2020.ts) is the official meta-schema
 * written out by hand. It must say "valid" exactly when ajv with the official one does, with the
 * audit's options, or a broken schema would pass the audit unseen, or a good one be reported with
 * no errors to show.
 */
const official = compileValidator({
  draft: '2020',
  schema: null,
  options: { allErrors: false, strict: false, validateFormats: false },
}).validate;
const fast = isSchema2020;
const FAST_KEYWORDS = Object.keys(KEYWORD_CHECKS);

const agree = (schema: unknown) => expect({ schema, fast: fast(schema) }).toEqual({ schema, fast: official(schema) });

describe('the hand-written 2020-12 meta-schema check', () => {
  it('covers every keyword of the official meta-schema and its vocabularies', () => {
    const refs = join(ROOT, 'node_modules/ajv/dist/refs/json-schema-2020-12');
    const files = [
      'schema.json',
      ...['core', 'applicator', 'unevaluated', 'validation', 'meta-data', 'format-annotation', 'content'].map((v) => `meta/${v}.json`),
    ];
    const keywords = files.flatMap((f) =>
      Object.keys((JSON.parse(readFileSync(join(refs, f), 'utf8')) as { properties: object }).properties),
    );
    expect([...new Set(keywords)].sort()).toEqual([...FAST_KEYWORDS].sort());
  });

  it('agrees with the official meta-schema on real tool schemas and on each kind of mistake', () => {
    for (let i = 0; i < 50; i++) for (const variant of [0, 1]) agree(syntheticTool(i, variant).inputSchema);
    const mistakes: unknown[] = [
      { type: 'object', properties: { a: { type: 'strin' } } },
      { type: [] },
      { type: ['string', 'string'] },
      { type: 'object', required: ['a', 'a'] },
      { type: 'object', required: 'a' },
      { allOf: [] },
      { anyOf: [{ type: 'string' }, 3] },
      { minLength: -1 },
      { maxItems: 1.5 },
      { minContains: Infinity },
      { maxLength: NaN },
      { multipleOf: 0 },
      { multipleOf: NaN },
      { maximum: Infinity },
      { type: ['null', 'nul'] },
      { $anchor: 'ok-anchor.1' },
      { $vocabulary: { 'https://x': true } },
      { required: [] },
      { dependentRequired: { a: ['b', 'b'] } },
      { prefixItems: [] },
      { properties: { a: true, b: false } },
      { contentSchema: 3 },
      { enum: 'a' },
      { $id: 'urn:x#frag' },
      { $anchor: '1bad' },
      { $defs: { a: 7 } },
      { dependencies: { a: ['b', 'b'] } },
      { dependencies: { a: { type: 'string' } } },
      { dependentRequired: { a: [1] } },
      { properties: { a: { items: { not: { type: 'nope' } } } } },
      { $vocabulary: { 'https://x': 'yes' } },
      { examples: {} },
      true,
      false,
      'object',
      null,
      [],
    ];
    for (const schema of mistakes) agree(schema);
    expect(mistakes.filter((s) => !fast(s)).length).toBeGreaterThan(20); // the list is mostly mistakes
  });

  property('agrees with the official meta-schema on generated schemas, valid and not', () => {
    const scalar = fc.oneof(
      fc.string({ maxLength: 3 }),
      fc.integer({ min: -2, max: 4 }),
      fc.double({ noNaN: true }),
      fc.boolean(),
      fc.constant(null),
      fc.constantFrom('object', 'array', 'string', 'integer', 'number', 'boolean', 'null', 'bogus', '#a', 'a#', 'a#b', '_x', '1x'),
    );
    const { schema } = fc.letrec<{ schema: unknown; value: unknown }>((tie) => ({
      schema: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.boolean(),
        fc.dictionary(fc.constantFrom(...FAST_KEYWORDS, 'x-extension', 'nullable'), tie('value'), { maxKeys: 4 }),
      ),
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        scalar,
        tie('schema'),
        fc.array(fc.oneof(scalar, tie('schema')), { maxLength: 3 }),
        fc.dictionary(fc.string({ maxLength: 3 }), fc.oneof(tie('schema'), scalar), { maxKeys: 3 }),
      ),
    }));
    fc.assert(
      fc.property(schema, (s) => fast(s) === official(s)),
      { numRuns: runs(3000) },
    );
  });

  it('still words the errors with the official meta-schema', () => {
    expect(schemaProblems({ type: 'object', properties: { a: { minLength: -1 } } })).toEqual(['/properties/a/minLength must be >= 0']);
    expect(schemaProblems({ type: 'object', properties: { a: { type: 'string' } } })).toEqual([]);
  });
});
