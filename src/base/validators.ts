import { Ajv, type Options, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BUILT_VALIDATORS } from './built-validators.js';
import { packageFile } from './package-root.js';

const require = createRequire(import.meta.url);

export interface ValidatorSpec {
  /** The ajv class: draft-07 (`ajv`) or draft 2020-12 (`ajv/dist/2020`). */
  draft: '07' | '2020';
  /** A file in schemas/, or null for the draft's own meta-schema (checks that a schema is a schema). */
  schema: string | null;
  options: Options;
}

/**
 * Every JSON Schema validator on the gate's path. `npm run build` compiles each one to code in
 * dist/generated (scripts/compile-schemas.mjs, ajv's standalone output, bundled with the few ajv
 * runtime helpers it calls), so a run neither loads ajv's compiler nor compiles a schema; both cost
 * more than a server's whole tools/list. A release carries dist/ and no node_modules: nothing
 * here may need a package at run time that the packed file does not hold.
 * @public scripts/compile-schemas.mjs reads it from dist/.
 */
export const VALIDATORS = {
  config: { draft: '07', schema: 'gate.config.schema.json', options: { allErrors: true, strict: false } },
  dataset: { draft: '07', schema: 'dataset.schema.json', options: { allErrors: true, strict: false } },
  // A saved report: its shape is what readers depend on; formats (date-time) are documentation.
  report: { draft: '07', schema: 'report.schema.json', options: { allErrors: true, strict: false, validateFormats: false } },
  // Schemas from servers: a quick check that stops at the first error, then every error for the few that fail.
  'meta-draft-07': { draft: '07', schema: null, options: { allErrors: false, strict: false, validateFormats: false } },
  'meta-draft-07-all': { draft: '07', schema: null, options: { allErrors: true, strict: false, validateFormats: false } },
  // The 2020-12 quick check is src/audit/meta-2020.ts; this one words the errors.
  'meta-draft-2020-all': { draft: '2020', schema: null, options: { allErrors: true, strict: false, validateFormats: false } },
} satisfies Record<string, ValidatorSpec>;

export type ValidatorName = keyof typeof VALIDATORS;

const loaded = new Map<ValidatorName, ValidateFunction>();

/** The built validator (dist/generated), or, before any build, one compiled now, once per process. */
export function validator(name: ValidatorName): ValidateFunction {
  let validate = loaded.get(name);
  if (!validate) {
    validate = precompiled(name) ?? compileValidator(VALIDATORS[name]).validate;
    loaded.set(name, validate);
  }
  return validate;
}

/** The validator for a file in schemas/ that VALIDATORS lists. */
export function schemaValidator(file: string): ValidateFunction {
  const listed = (Object.keys(VALIDATORS) as ValidatorName[]).find((name) => VALIDATORS[name].schema === file);
  if (!listed) throw new Error(`mcp-gate: no validator is built for schemas/${file} (src/base/validators.ts)`);
  return validator(listed);
}

/**
 * The built validator, or null before a build (the tests run src/). A built file that cannot load is
 * an error, never a quiet fallback: that fallback once hid a release that could not run without
 * node_modules.
 */
function precompiled(name: ValidatorName): ValidateFunction | null {
  const built = BUILT_VALIDATORS?.[name];
  if (built) return built();
  const file = packageFile(`dist/generated/${name}.cjs`);
  return existsSync(file) ? (require(file) as ValidateFunction) : null;
}

/** Compiles with ajv now. The build step calls this with `source: true`, then writes the code out. */
export function compileValidator(spec: ValidatorSpec, source = false): { ajv: Ajv; validate: ValidateFunction } {
  const ajv = spec.draft === '2020' ? new Ajv2020({ ...spec.options, code: { source } }) : new Ajv({ ...spec.options, code: { source } });
  if (spec.schema === null) return { ajv, validate: ajv.getSchema(ajv.defaultMeta() as string)! };
  const schema = JSON.parse(readFileSync(packageFile(`schemas/${spec.schema}`), 'utf8')) as object;
  return { ajv, validate: ajv.compile(schema) };
}
