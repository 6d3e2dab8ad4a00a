#!/usr/bin/env node
// The CLI's launcher: runs src/cli.ts, packed (see bin/launch.js).
import { launch } from './launch.js';

await launch((gate) => gate.main(process.argv.slice(2)));
