#!/usr/bin/env node
// The GitHub Action's launcher (action.yml runs it): runs the bundled gate (see bin/launch.js).
import { launch } from './launch.js';

await launch((load) => load('mcp-gate.cjs').runAction());
