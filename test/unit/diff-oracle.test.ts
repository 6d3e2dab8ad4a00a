import fc from 'fast-check';
import { describe, it } from 'vitest';
import { CLASSES, holdTally, judge, MUTATIONS, nodes, type Schema, type Tally } from '../helpers/mutations.js';

/**
 * The structural classification held to an oracle. Schema pairs come from a generated baseline and
 * one mutation (applied forwards and backwards); ajv searches for an input the baseline accepts and
 * the candidate refuses. "Breaking" must mean such an input exists, and where one exists the diff
 * must flag it (breaking, or dangerous for a person to look at): never a silent pass.
 */
const leaf: fc.Arbitrary<Schema> = fc.oneof(
  fc.record(
    {
      type: fc.constant('string'),
      minLength: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
      maxLength: fc.option(fc.integer({ min: 10, max: 30 }), { nil: undefined }),
      format: fc.option(fc.constantFrom('email', 'uri', 'date'), { nil: undefined }),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record({ type: fc.constant('string'), enum: fc.uniqueArray(fc.constantFrom('a', 'abc', 'x y', 'ABC'), { minLength: 2 }) }),
  fc.record(
    {
      type: fc.constantFrom('integer', 'number'),
      minimum: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
      maximum: fc.option(fc.integer({ min: 10, max: 100 }), { nil: undefined }),
      multipleOf: fc.option(fc.constantFrom(1, 2, 5), { nil: undefined }),
    },
    { requiredKeys: ['type'] },
  ),
  fc.constant({ type: 'boolean' }),
  fc.constant({ anyOf: [{ type: 'string' }, { type: 'null' }] }),
);

const node: fc.Arbitrary<Schema> = fc.letrec<{ node: Schema; object: Schema }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    leaf,
    tie('object'),
    fc.record(
      { type: fc.constant('array'), items: leaf, maxItems: fc.option(fc.constant(5), { nil: undefined }) },
      { requiredKeys: ['type', 'items'] },
    ),
  ),
  object: fc
    .dictionary(fc.constantFrom('id', 'name', 'tags', 'limit', 'mode'), tie('node'), { minKeys: 1, maxKeys: 3 })
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

describe('schema diff against the ajv oracle (fast-check)', () => {
  it('never passes an input the candidate refuses in silence, and says breaking only when one exists', () => {
    const tally: Tally = { pairs: 0, agree: 0, silent: [], unwarranted: [], byDesign: 0 };
    const perClass = new Map<string, number>();
    fc.assert(
      fc.property(node, fc.constantFrom(...CLASSES), fc.nat(), fc.nat(), (base, cls, pick, k) => {
        const mutated = structuredClone(base);
        const targets = nodes(mutated);
        if (!MUTATIONS[cls]!(targets[pick % targets.length]!, mutated, k)) return;
        perClass.set(cls, (perClass.get(cls) ?? 0) + 1);
        judge(base, mutated, `${cls} forwards`, tally);
        judge(mutated, base, `${cls} backwards`, tally);
      }),
      { numRuns: 1500, seed: 20261123 },
    );
    holdTally('oracle', tally, perClass.size);
  }, 120_000);
});
