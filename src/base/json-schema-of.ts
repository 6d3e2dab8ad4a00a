import * as z from 'zod';

/**
 * A file of schemas/ as its one definition, a zod schema, says it: draft-07 (for ajv and editors),
 * under the address it is published at. `npm run schemas` writes each (scripts/write-schemas.mjs),
 * and test/unit/schema-definitions.test.ts fails while a committed file differs. What is in an
 * object but not named is let through (zod's input side), as readers of older files need.
 */
export function jsonSchemaOf(schema: z.ZodType, file: string): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'throw' });
  return { $schema: json.$schema, $id: `https://mcp-gate.dev/schemas/${file}`, ...(tidy(json) as Record<string, unknown>) };
}

/**
 * What a schema accepts, as the compiler sees a value the gate writes: read-only lists are lists,
 * and an object the schema leaves open (any members) takes any object, an interface too. A type
 * checked against `Written<z.input<...>>` fails the typecheck where the schema would refuse it.
 */
export type Written<T> = T extends (infer U)[]
  ? readonly Written<U>[]
  : T extends object
    ? string extends keyof T
      ? object
      : { readonly [K in keyof T]: Written<T[K]> }
    : T;

/** What zod adds that says nothing here: "a safe integer" bounds, and `type: string` on a record's keys. */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'maximum' && value === Number.MAX_SAFE_INTEGER) || (key === 'minimum' && value === Number.MIN_SAFE_INTEGER)) continue;
    if (key === 'propertyNames') {
      const { type: _string, ...rest } = value as Record<string, unknown>;
      if (Object.keys(rest).length) out[key] = rest;
      continue;
    }
    out[key] = tidy(value);
  }
  return out;
}
