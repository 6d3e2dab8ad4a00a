#!/usr/bin/env node
// The GitHub Action's launcher (action.yml runs it): runs the bundled gate (see bin/launch.js).
import { bundles } from './launch.js';

const load = await bundles();
await load?.('mcp-gate.cjs').runAction();
