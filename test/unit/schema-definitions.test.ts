import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { datasetJsonSchema } from '../../src/cases/definition.js';
import { configJsonSchema } from '../../src/config/definition.js';
import { bundleJsonSchema } from '../../src/report/bundle-definition.js';
import { reportJsonSchema } from '../../src/report/definition.js';
import { ROOT } from '../helpers/cli.js';

/** Each file of schemas/ and the one definition it is written from (scripts/write-schemas.mjs). */
const DEFINITIONS: Record<string, () => Record<string, unknown>> = {
  'gate.config.schema.json': configJsonSchema,
  'dataset.schema.json': datasetJsonSchema,
  'report.schema.json': reportJsonSchema,
  'bundle.schema.json': bundleJsonSchema,
};

describe('every file of schemas/ is written from one definition', () => {
  it('has a definition for each file, and a file for each definition', () => {
    expect(readdirSync(join(ROOT, 'schemas')).sort()).toEqual(Object.keys(DEFINITIONS).sort());
  });

  it.each(Object.entries(DEFINITIONS))(
    '%s is what its definition says, byte for byte (run `npm run schemas` after changing it)',
    (file, jsonSchema) => {
      expect(readFileSync(join(ROOT, 'schemas', file), 'utf8')).toBe(`${JSON.stringify(jsonSchema(), null, 2)}\n`);
    },
  );
});
