import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';

/**
 * The judge: ajv alone decides whether an instance is valid, under each schema's own dialect
 * (draft-07 with ajv's draft-07 class, 2020-12 with Ajv2020, no `$schema` read as 2020-12, which is
 * what MCP specifies), with the formats of ajv-formats asserted. Nothing here knows the gate.
 */
export type Schema = Record<string, unknown>;
export type Dialect = 'draft-04' | 'draft-07' | '2019-09' | '2020-12';

export function dialectOf(schema: unknown): Dialect {
  const id = schema !== null && typeof schema === 'object' ? (schema as Schema).$schema : undefined;
  if (typeof id !== 'string') return '2020-12';
  if (/draft-0[67]\b/.test(id)) return 'draft-07';
  if (/draft-04\b/.test(id)) return 'draft-04';
  if (/2019-09/.test(id)) return '2019-09';
  return '2020-12';
}

export interface Validator {
  (value: unknown): boolean;
  /** The first error of the last refusal (ajv's own report), for the search to repair an instance. */
  error(): ErrorObject | null;
}

const OPTIONS: Options = { strict: false, allErrors: false, validateFormats: true, logger: false };
type AnyAjv = Ajv | Ajv2019 | Ajv2020;
const withFormats = <T extends AnyAjv>(ajv: T): T => {
  (addFormats as unknown as (a: AnyAjv) => void)(ajv);
  return ajv;
};
const makers: Record<Dialect, () => AnyAjv> = {
  'draft-04': () => withFormats(new (AjvDraft04 as unknown as typeof Ajv)(OPTIONS)),
  'draft-07': () => withFormats(new Ajv(OPTIONS)),
  '2019-09': () => withFormats(new Ajv2019(OPTIONS)),
  '2020-12': () => withFormats(new Ajv2020(OPTIONS)),
};

let instances: Partial<Record<Dialect, AnyAjv>> = {};
let cache = new Map<string, Validator | Error>();
const CACHE_LIMIT = 1500;

/** A validator for a whole schema, compiled once per distinct schema text; throws when ajv refuses the schema. */
export function validatorOf(schema: Schema): Validator {
  const dialect = dialectOf(schema);
  const key = `${dialect}\u0000${JSON.stringify(schema)}`;
  let found = cache.get(key);
  if (!found) {
    if (cache.size >= CACHE_LIMIT) {
      // ajv keeps every compiled schema; a fresh instance lets the old ones go.
      cache = new Map();
      instances = {};
    }
    const ajv = (instances[dialect] ??= makers[dialect]());
    let copy = structuredClone(schema);
    if (dialect === '2020-12' && typeof copy.$schema === 'string' && !copy.$schema.includes('2020-12')) {
      const { $schema: _unknown, ...rest } = copy;
      copy = rest;
    }
    try {
      const validate: ValidateFunction = ajv.compile(copy);
      const check = ((value: unknown) => validate(value) as boolean) as Validator;
      check.error = () => validate.errors?.[0] ?? null;
      found = check;
    } catch (error) {
      found = error instanceof Error ? error : new Error(String(error));
    }
    cache.set(key, found);
  }
  if (found instanceof Error) throw found;
  return found;
}

export function compiles(schema: Schema): boolean {
  try {
    validatorOf(schema);
    return true;
  } catch {
    return false;
  }
}
