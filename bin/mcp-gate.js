#!/usr/bin/env node
// The CLI's launcher: runs the bundled gate (see bin/launch.js).
import { loadGate } from './launch.js';

const gate = await loadGate();
gate?.runCli(process.argv.slice(2));
