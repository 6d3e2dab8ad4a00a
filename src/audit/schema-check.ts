import { Ajv, type Options, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonSchema } from '../contract/types.js';
import { describe } from '../base/error-text.js';
import { validator } from '../base/validators.js';
import { ajvRegExp } from '../base/safe-regex.js';
import { isSchema2020 } from './meta-2020.js';

/**
 * JSON Schema checks with the draft the schema asks for: 2020-12 unless `$schema` names draft-07
 * (what the SDK's zod conversion emits). The meta-schema checks are built ahead (src/base/validators.ts);
 * an ajv instance to compile output schemas is made only when a result must be checked against one.
 */
let draft07: Ajv | null = null;
let draft2020: Ajv | null = null;

const isDraft07 = (schema: JsonSchema) => typeof schema.$schema === 'string' && /draft-0[4-7]/.test(schema.$schema);

/**
 * Output schemas are compiled without ajv checking them against the meta-schema first: that check
 * would compile the meta-schema itself, at each run, and `schemaProblems` has already made it.
 */
const OUTPUT_OPTIONS: Options = {
  allErrors: true,
  strict: false,
  validateFormats: false,
  validateSchema: false,
  // Own members only, as JSON Schema means: not `constructor` and `toString` from Object.prototype.
  ownProperties: true,
  // No passes over the generated code: compiling costs about half as much, and a schema checks a
  // few results, far too few to earn the passes back (src/witness/judge.ts).
  code: { regExp: ajvRegExp, optimize: false },
};

function ajvFor(schema: JsonSchema): Ajv {
  if (isDraft07(schema)) return (draft07 ??= new Ajv(OUTPUT_OPTIONS));
  return (draft2020 ??= new Ajv2020(OUTPUT_OPTIONS));
}

/** Problems with the schema itself, against its meta-schema, without compiling it. */
export function schemaProblems(schema: JsonSchema): string[] {
  const draft07 = isDraft07(schema);
  const { $schema: _ignored, ...body } = schema;
  // A quick yes first (meta-2020.ts for 2020-12), then every error from the official meta-schema.
  try {
    if (draft07 ? validator('meta-draft-07')(body) : isSchema2020(body)) return [];
    const validate = validator(draft07 ? 'meta-draft-07-all' : 'meta-draft-2020-all');
    validate(body);
    return (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
  } catch (error) {
    // ajv's deep equality (`uniqueItems` of `type`) calls members named `toString` and `valueOf`:
    // objects where the meta-schema wants strings, so the schema is not valid either way.
    return [`/ cannot be checked against its meta-schema: ${new ValidatorFailure(error).message}`];
  }
}

/**
 * Compiled output schemas, by their JSON text: a tool both sides list unchanged is compiled once,
 * not once per side (compiling is most of the audit's time on a small pair of servers).
 */
const compiled = new Map<string, ValidateFunction | string>();
const textOf = new WeakMap<JsonSchema, string>();

function outputValidator(schema: JsonSchema): ValidateFunction | string {
  let text = textOf.get(schema);
  if (text === undefined) {
    text = JSON.stringify(schema);
    textOf.set(schema, text);
  }
  let validate = compiled.get(text);
  if (validate === undefined) {
    try {
      const { $schema: _ignored, $id: _id, ...body } = schema;
      validate = ajvFor(schema).compile(body);
    } catch (error) {
      validate = `the outputSchema does not compile: ${(error as Error).message}`;
    }
    compiled.set(text, validate);
  }
  return validate;
}

/** One way a value fails a schema: where (JSON pointer into the value), which keyword, in words. */
export interface ValidationFailure {
  path: string;
  keyword: string;
  message: string;
}

/**
 * ajv failed on a value instead of judging it: its deep equality (`const`, `enum`, `uniqueItems`)
 * calls an object's `valueOf` and `toString`, and a JSON object can carry numbers by those names.
 */
export class ValidatorFailure extends Error {
  constructor(cause: unknown) {
    super(`the validator (ajv) failed on it: ${describe(cause)}`);
  }
}

/**
 * Validates a value; returns the first failures with their paths and keywords, or [] when valid.
 * Throws ValidatorFailure when ajv fails on the value.
 */
export function validationFailures(schema: JsonSchema, value: unknown): ValidationFailure[] {
  const validate = outputValidator(schema);
  if (typeof validate === 'string') return [{ path: '', keyword: 'schema', message: validate }];
  let valid: boolean;
  try {
    valid = validate(value) as boolean;
  } catch (error) {
    throw new ValidatorFailure(error);
  }
  if (valid) return [];
  return (validate.errors ?? [])
    .slice(0, 3)
    .map((e) => ({ path: e.instancePath, keyword: e.keyword, message: `${e.instancePath || '/'} ${e.message ?? e.keyword}` }));
}

/** Validates a value; returns the first errors with their paths, or [] when valid. */
export const validationErrors = (schema: JsonSchema, value: unknown): string[] => validationFailures(schema, value).map((f) => f.message);
