#!/usr/bin/env node
// The GitHub Action's launcher (action.yml runs it): runs the bundled gate (see bin/launch.js).
import { loadGate } from './launch.js';

const gate = await loadGate();
await gate?.runAction();
