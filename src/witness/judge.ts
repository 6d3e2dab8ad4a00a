import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { describe } from '../base/error-text.js';
import { canonicalJson } from '../contract/canonical.js';
import type { JsonSchema } from '../contract/types.js';
import { witnessRegExp } from './regex.js';

/**
 * ajv decides every instance, under the schema's own dialect and with formats asserted as the MCP
 * SDK asserts them. No `$schema` reads as 2020-12 (what MCP specifies, and what the gate's schema
 * check assumes); draft-06 and draft-07 read as draft-07; draft-04 keeps its boolean exclusive bounds.
 */
export type Dialect = 'draft-04' | 'draft-07' | '2019-09' | '2020-12';

export function dialectOf(schema: JsonSchema): Dialect {
  const id = schema.$schema;
  if (typeof id !== 'string') return '2020-12';
  if (/draft-04\b/.test(id)) return 'draft-04';
  if (/draft-0[67]\b/.test(id)) return 'draft-07';
  if (/2019-09/.test(id)) return '2019-09';
  return '2020-12';
}

/**
 * ajv failed on an instance instead of judging it: its deep equality (for `const`, `enum` and
 * `uniqueItems`) calls an object's `valueOf` and `toString`, and JSON can make those members
 * numbers. The search cannot go on without a judge (witness/search.ts says so).
 */
export class JudgeFailure extends Error {
  constructor(cause: unknown) {
    super(`ajv fails on an instance it describes (${describe(cause)})`);
  }
}

export interface Judge {
  readonly dialect: Dialect;
  accepts(instance: unknown): boolean;
  /** Why the last instance judged was refused: ajv's first error as a sentence. */
  refusal(): string;
  /** Where in the last instance judged that error is: a JSON Pointer ('' for the whole instance). */
  refusedAt(): string;
  /** The keyword of that error (`maximum`, `type`, `required`, `anyOf`…). */
  refusedBy(): string;
  /** The member that error names, if any: a required one missing, an additional one sent. */
  refusedName(): string | undefined;
}

const OPTIONS: Options = {
  strict: false,
  allErrors: false,
  validateFormats: true,
  // The SDK compiles tools' schemas without checking them against the meta-schema first.
  validateSchema: false,
  logger: false,
  // JSON Schema's `properties` and `required` name an instance's own members: without this, ajv
  // reads `{}`'s `constructor` and `toString` from Object.prototype (an argument so named).
  ownProperties: true,
  // ajv's passes over the code it generates (unused names, empty blocks) halved what compiling
  // cost, and a judge is compiled for far fewer instances than would earn it back. The code
  // decides the same.
  code: { regExp: witnessRegExp, optimize: false },
};
type AnyAjv = Ajv | Ajv2019 | Ajv2020;
const MAKERS: Record<Dialect, () => AnyAjv> = {
  'draft-04': () => new (AjvDraft04 as unknown as typeof Ajv)(OPTIONS),
  'draft-07': () => new Ajv(OPTIONS),
  '2019-09': () => new Ajv2019(OPTIONS),
  '2020-12': () => new Ajv2020(OPTIONS),
};

const withFormats = (ajv: AnyAjv): AnyAjv => {
  (addFormats as unknown as (a: AnyAjv) => void)(ajv);
  return ajv;
};

// ajv keeps every schema it compiled: past the limit, fresh instances let the old ones go.
const CACHE_LIMIT = 500;
let shared: Partial<Record<Dialect, AnyAjv>> = {};
let cache = new Map<string, ValidateFunction | string>();

/** A judge for a schema, or why ajv cannot compile it. Cached by the schema's canonical JSON. */
export function judgeOf(schema: JsonSchema): Judge | string {
  const dialect = dialectOf(schema);
  const text = canonicalJson(schema);
  const key = `${dialect}\u0000${text}`;
  let compiled = cache.get(key);
  if (compiled === undefined) {
    if (cache.size >= CACHE_LIMIT) {
      cache = new Map();
      shared = {};
    }
    // Compiled from its text, not from the schema given: ajv's code keeps the `enum` and `const`
    // values it was compiled with, and its equality takes a value as equal to itself without
    // looking inside. A search draws its instances from the schema it was given, so a validator
    // holding those very objects would accept one where a copy makes ajv throw (a member
    // `toString` that is a number). The cache would then judge the same pair two ways, by which
    // copy compiled first.
    compiled = compile(JSON.parse(text) as JsonSchema, dialect, text.includes('"$id":'));
    cache.set(key, compiled);
  }
  if (typeof compiled === 'string') return compiled;
  const validate = compiled;
  return {
    dialect,
    accepts: (instance) => {
      try {
        return validate(instance) as boolean;
      } catch (error) {
        throw new JudgeFailure(error);
      }
    },
    refusal: () => sentence(validate.errors?.[0]),
    refusedAt: () => validate.errors?.[0]?.instancePath ?? '',
    refusedBy: () => validate.errors?.[0]?.keyword ?? '',
    refusedName: () => nameOf(validate.errors?.[0]),
  };
}

function compile(schema: JsonSchema, dialect: Dialect, hasId: boolean): ValidateFunction | string {
  // The dialect is chosen here; a `$schema` the class does not know would only make ajv look it up.
  const { $schema: _dialect, ...body } = schema;
  // Two schemas with the same `$id` cannot share an instance: such a schema gets its own.
  const ajv = hasId ? withFormats(MAKERS[dialect]()) : (shared[dialect] ??= withFormats(MAKERS[dialect]()));
  try {
    return ajv.compile(body);
  } catch (error) {
    return `ajv cannot compile it: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function nameOf(error: ErrorObject | undefined): string | undefined {
  const params = (error?.params ?? {}) as Record<string, unknown>;
  const named = params.missingProperty ?? params.additionalProperty ?? params.unevaluatedProperty;
  return typeof named === 'string' ? named : undefined;
}

function sentence(error: ErrorObject | undefined): string {
  if (!error) return 'refused';
  const params = error.params as Record<string, unknown>;
  const named = params.additionalProperty ?? params.unevaluatedProperty;
  const message = `${error.message ?? error.keyword}${typeof named === 'string' ? ` ('${named}')` : ''}`;
  return error.instancePath ? `${error.instancePath}: ${message}` : message;
}
