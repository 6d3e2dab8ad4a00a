#!/usr/bin/env node
// `npm run schemas`: writes schemas/gate.config.schema.json from the config's one definition
// (src/config/definition.ts, built to dist/). test/unit/config-definition.test.ts fails while the
// committed file differs from what the definition says, so run this after changing it.
import { writeFileSync } from 'node:fs';
import { configJsonSchema } from '../dist/config/definition.js';

const file = new URL('../schemas/gate.config.schema.json', import.meta.url);
writeFileSync(file, `${JSON.stringify(configJsonSchema(), null, 2)}\n`);
process.stderr.write('wrote schemas/gate.config.schema.json\n');
