#!/usr/bin/env node
// `npm run schemas`: writes each file of schemas/ from its one definition (built to dist/): the
// config (src/config/definition.ts), a dataset (src/cases/definition.ts), a report
// (src/report/definition.ts) and a bundle summary (src/report/bundle-definition.ts).
// test/unit/schema-definitions.test.ts fails while a committed file differs from what its
// definition says, so run this after changing one.
import { writeFileSync } from 'node:fs';
import { datasetJsonSchema } from '../dist/cases/definition.js';
import { configJsonSchema } from '../dist/config/definition.js';
import { bundleJsonSchema } from '../dist/report/bundle-definition.js';
import { reportJsonSchema } from '../dist/report/definition.js';

const SCHEMAS = {
  'gate.config.schema.json': configJsonSchema,
  'dataset.schema.json': datasetJsonSchema,
  'report.schema.json': reportJsonSchema,
  'bundle.schema.json': bundleJsonSchema,
};
for (const [name, schemaOf] of Object.entries(SCHEMAS)) {
  writeFileSync(new URL(`../schemas/${name}`, import.meta.url), `${JSON.stringify(schemaOf(), null, 2)}\n`);
  process.stderr.write(`wrote schemas/${name}\n`);
}
