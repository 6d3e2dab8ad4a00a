import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { CODES } from '../../src/findings/codes.js';
import { diffContracts } from '../../src/diff/index.js';
import type { SearchBudget } from '../../src/diff/confirm.js';
import { contractOf } from '../helpers/contracts.js';
import { property, runs } from '../helpers/property.js';

type Schema = Record<string, unknown>;

const leaf: fc.Arbitrary<Schema> = fc.oneof(
  fc.record(
    {
      type: fc.constant('string'),
      maxLength: fc.option(fc.integer({ min: 1, max: 50 }), { nil: undefined }),
      enum: fc.option(fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1 }), { nil: undefined }),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    {
      type: fc.constantFrom('integer', 'number'),
      minimum: fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined }),
      maximum: fc.option(fc.integer({ min: 11, max: 99 }), { nil: undefined }),
    },
    { requiredKeys: ['type'] },
  ),
  fc.constant({ type: 'boolean' }),
);

const schema: fc.Arbitrary<Schema> = fc.letrec<{ node: Schema; object: Schema }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    tie('object'),
    fc.record({ type: fc.constant('array'), items: tie('node') }),
  ),
  object: fc
    .dictionary(fc.constantFrom('id', 'name', 'tags', 'limit', 'filter', 'owner'), tie('node'), { maxKeys: 4 })
    .chain((properties) =>
      fc.record(
        {
          type: fc.constant('object'),
          properties: fc.constant(properties),
          required: fc.subarray(Object.keys(properties)),
          additionalProperties: fc.option(fc.constant(false), { nil: undefined }),
        },
        { requiredKeys: ['type', 'properties', 'required'] },
      ),
    ),
})).object;

const toolWith = (inputSchema: Schema, annotations?: Schema) => ({
  name: 'probe',
  description: 'A tool under test.',
  inputSchema,
  ...(annotations ? { annotations } : {}),
});
const diffOf = (a: Schema, b: Schema, budget?: SearchBudget) => diffContracts(contractOf(toolWith(a)), contractOf(toolWith(b)), budget);
/**
 * Two unrelated schemas differ everywhere, and each break's search runs to its budget: a tenth of
 * the default keeps the searches in the property (they are seeded, so they must be as stable as the
 * walk) at a tenth of the cost.
 */
const SMALL: SearchBudget = { instances: 200, nodes: 20_000, perRun: 2_000 };

/** The same value with every object's keys in reverse order. */
const reordered = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(reordered);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reordered(v)]),
    );
  return value;
};

/** One widening step somewhere in the schema: each accepts everything the input accepted before. */
function widen(root: Schema, pick: number): Schema {
  const copy = structuredClone(root);
  const nodes: Schema[] = [];
  const visit = (node: Schema) => {
    nodes.push(node);
    for (const child of Object.values((node.properties ?? {}) as Record<string, Schema>)) visit(child);
    if (node.items) visit(node.items as Schema);
  };
  visit(copy);
  const node = nodes[pick % nodes.length]!;
  if (Array.isArray(node.required) && node.required.length) node.required = node.required.slice(1);
  else if (node.additionalProperties === false) delete node.additionalProperties;
  else if (Array.isArray(node.enum)) node.enum = [...node.enum, 'zz'];
  else if (node.maxLength !== undefined) delete node.maxLength;
  else if (node.type === 'integer') node.type = 'number';
  else if (node.minimum !== undefined) delete node.minimum;
  else if (node.type === 'object') node.properties = { ...(node.properties as object), extraOptional: { type: 'string' } };
  else if (typeof node.type === 'string') node.type = [node.type, 'null'];
  return copy;
}

// Hundreds of generated pairs, each through the walk and the witness search: minutes on a busy
// machine. The timeout only guards against a hang.
describe('diff invariants (fast-check)', { timeout: 600_000 }, () => {
  property('diff(a, a) is empty', () => {
    fc.assert(
      fc.property(schema, (a) => diffOf(a, structuredClone(a)).length === 0),
      { numRuns: runs(300) },
    );
  });

  property('is stable when keys are reordered', () => {
    fc.assert(
      fc.property(schema, schema, (a, b) => {
        expect(diffOf(a, reordered(a) as Schema)).toEqual([]);
        expect(diffOf(reordered(a) as Schema, reordered(b) as Schema, SMALL)).toEqual(diffOf(a, b, SMALL));
      }),
      { numRuns: runs(200) },
    );
  });

  property('a change that widens the input never yields a breaking input change', () => {
    fc.assert(
      fc.property(schema, fc.nat(), (a, pick) => {
        const breaking = diffOf(a, widen(a, pick)).filter((c) => CODES[c.code].area === 'input' && c.severity === 'breaking');
        expect(breaking).toEqual([]);
      }),
      { numRuns: runs(300) },
    );
  });

  property('the widening helper really changes something (so the property above can fail)', () => {
    fc.assert(
      fc.property(schema, fc.nat(), (a, pick) => diffOf(a, widen(a, pick)).length > 0),
      { numRuns: runs(200) },
    );
  });
});
