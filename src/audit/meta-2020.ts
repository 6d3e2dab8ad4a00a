import { isObject } from '../base/json-object.js';
/**
 * Whether a value is a valid JSON Schema 2020-12 schema: the verdict of the official meta-schema
 * (its seven vocabularies and the deprecated keywords it still defines) as ajv gives it with the
 * options the audit uses, formats unchecked and numbers not required to be finite.
 *
 * Written out because it is the audit's hottest check: ajv's code for the meta-schema tests every
 * one of its sixty keywords at every node of a schema, and a server with a thousand tools has tens
 * of thousands of nodes. This looks only at the keywords a node has. test/unit/meta-schema.test.ts
 * holds it to ajv's verdicts (a list of mistakes, and 3,000 generated schemas); ajv with the
 * official meta-schema still words the errors of a schema this rejects (schema-check.ts).
 */

const SIMPLE_TYPES = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']);
const ANCHOR = /^[A-Za-z_][-A-Za-z0-9._]*$/u;
/** `$id` may end in an empty fragment, and hold no other. */
const ID = /^[^#]*#?$/u;

type Check = (value: unknown) => boolean;

const isString: Check = (value) => typeof value === 'string';
const isBoolean: Check = (value) => typeof value === 'boolean';
const isArray: Check = (value) => Array.isArray(value);
// ajv's "number" and "integer" without strictNumbers: Infinity counts, and NaN is a number.
const isNumber: Check = (value) => typeof value === 'number';
const isCount: Check = (value) => typeof value === 'number' && !(value % 1) && !Number.isNaN(value) && !(value < 0);
const isAnchor: Check = (value) => typeof value === 'string' && ANCHOR.test(value);
const isUniqueStrings: Check = (value) =>
  Array.isArray(value) && value.every((s) => typeof s === 'string') && new Set(value).size === value.length;
const isSimpleType = (value: unknown) => typeof value === 'string' && SIMPLE_TYPES.has(value);

export const isSchema2020 = (value: unknown): boolean => typeof value === 'boolean' || (isObject(value) && keywordsValid(value));
const isSchemaMap: Check = (value) => isObject(value) && Object.values(value).every(isSchema2020);
const isSchemaList: Check = (value) => Array.isArray(value) && value.length > 0 && value.every(isSchema2020);

/** Every keyword the meta-schema defines, with what its value must be. Other keywords may hold anything. */
export const KEYWORD_CHECKS: Readonly<Record<string, Check>> = {
  // core
  $id: (value) => typeof value === 'string' && ID.test(value),
  $schema: isString,
  $ref: isString,
  $anchor: isAnchor,
  $dynamicRef: isString,
  $dynamicAnchor: isAnchor,
  $vocabulary: (value) => isObject(value) && Object.values(value).every(isBoolean),
  $comment: isString,
  $defs: isSchemaMap,
  // applicator
  prefixItems: isSchemaList,
  items: isSchema2020,
  contains: isSchema2020,
  additionalProperties: isSchema2020,
  properties: isSchemaMap,
  patternProperties: isSchemaMap,
  dependentSchemas: isSchemaMap,
  propertyNames: isSchema2020,
  if: isSchema2020,
  then: isSchema2020,
  else: isSchema2020,
  allOf: isSchemaList,
  anyOf: isSchemaList,
  oneOf: isSchemaList,
  not: isSchema2020,
  // unevaluated
  unevaluatedItems: isSchema2020,
  unevaluatedProperties: isSchema2020,
  // validation
  type: (value) =>
    isSimpleType(value) || (Array.isArray(value) && value.length > 0 && value.every(isSimpleType) && new Set(value).size === value.length),
  const: () => true,
  enum: isArray,
  multipleOf: (value) => typeof value === 'number' && value > 0, // NaN fails ajv's exclusiveMinimum
  maximum: isNumber,
  exclusiveMaximum: isNumber,
  minimum: isNumber,
  exclusiveMinimum: isNumber,
  maxLength: isCount,
  minLength: isCount,
  pattern: isString,
  maxItems: isCount,
  minItems: isCount,
  uniqueItems: isBoolean,
  maxContains: isCount,
  minContains: isCount,
  maxProperties: isCount,
  minProperties: isCount,
  required: isUniqueStrings,
  dependentRequired: (value) => isObject(value) && Object.values(value).every(isUniqueStrings),
  // meta-data, format, content
  title: isString,
  description: isString,
  default: () => true,
  deprecated: isBoolean,
  readOnly: isBoolean,
  writeOnly: isBoolean,
  examples: isArray,
  format: isString,
  contentEncoding: isString,
  contentMediaType: isString,
  contentSchema: isSchema2020,
  // earlier drafts' keywords, still defined by the 2020-12 meta-schema
  definitions: isSchemaMap,
  dependencies: (value) => isObject(value) && Object.values(value).every((d) => isSchema2020(d) || isUniqueStrings(d)),
  $recursiveAnchor: isAnchor,
  $recursiveRef: isString,
};

function keywordsValid(node: Record<string, unknown>): boolean {
  for (const key of Object.keys(node)) {
    const value = node[key];
    if (value !== undefined && Object.hasOwn(KEYWORD_CHECKS, key) && !KEYWORD_CHECKS[key]!(value)) return false;
  }
  return true;
}
