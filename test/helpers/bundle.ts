import { Ajv } from 'ajv';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BundleSummary } from '../../src/report/bundle-summary.js';
import { ROOT } from './cli.js';

const validate = new Ajv({ allErrors: true, strict: false, validateFormats: false }).compile(
  JSON.parse(readFileSync(join(ROOT, 'schemas/bundle.schema.json'), 'utf8')) as object,
);

/** Reads a bundle summary and checks it against schemas/bundle.schema.json. */
export function readBundleFile(path: string): BundleSummary {
  const value = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  if (!validate(value)) throw new Error(`bundle summary ${path} does not validate:\n${JSON.stringify(validate.errors, null, 2)}`);
  return value as BundleSummary;
}

/** What must agree between a bundle `run` and `plan` + `run --server` + `merge`: everything but times and paths. */
export const comparable = (summary: BundleSummary) => ({
  verdict: summary.verdict,
  decided: summary.decided,
  servers: summary.servers.map(({ report: _report, ...rest }) => rest),
  collisions: summary.collisions,
  decision: summary.decision,
});
