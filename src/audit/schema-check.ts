import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonSchema } from '../contract/types.js';

/**
 * JSON Schema checks with the draft the schema asks for: 2020-12 unless `$schema` names draft-07
 * (what the SDK's zod conversion emits). Instances are made on first use: ajv is costly to load.
 */
let draft07: Ajv | null = null;
let draft2020: Ajv2020 | null = null;

const isDraft07 = (schema: JsonSchema) => typeof schema.$schema === 'string' && /draft-0[4-7]/.test(schema.$schema);

function ajvFor(schema: JsonSchema): Ajv | Ajv2020 {
  if (isDraft07(schema)) return (draft07 ??= new Ajv({ strict: false, allErrors: true, validateFormats: false }));
  return (draft2020 ??= new Ajv2020({ strict: false, allErrors: true, validateFormats: false }));
}

/** Problems with the schema itself, against its meta-schema, without compiling it. */
export function schemaProblems(schema: JsonSchema): string[] {
  const ajv = ajvFor(schema);
  const { $schema: _ignored, ...body } = schema;
  if (ajv.validateSchema(body)) return [];
  return (ajv.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
}

const compiled = new WeakMap<JsonSchema, ValidateFunction | string>();

/** Validates a value; returns the first errors with their paths, or [] when valid. */
export function validationErrors(schema: JsonSchema, value: unknown): string[] {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    try {
      const { $schema: _ignored, $id: _id, ...body } = schema;
      validate = ajvFor(schema).compile(body);
    } catch (error) {
      validate = `the outputSchema does not compile: ${(error as Error).message}`;
    }
    compiled.set(schema, validate);
  }
  if (typeof validate === 'string') return [validate];
  if (validate(value)) return [];
  return (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
}
