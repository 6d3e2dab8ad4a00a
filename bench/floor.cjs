#!/usr/bin/env node
// The floor: the least any gate must do, with no SDK and no checks. Spawns both servers in parallel,
// sends initialize and notifications/initialized, follows tools/list to the end, makes the probe
// calls (cases in flight up to the same concurrency as the gate, a case's probes one after the
// other), then ends each session: stdin closed, SIGTERM, wait for the exit.
// Usage: node bench/floor.cjs PLAN.json  (the plan is written by bench/scenarios.mjs)
// Prints one JSON line: per side, the tools listed, pages read and probes called, and when the
// server answered initialize (`readyAt`, epoch ms).
'use strict';
const { readFileSync } = require('node:fs');
const { rawSession, runPlan } = require('./floor-client.cjs');

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'));
runPlan(plan, (server) => rawSession(server, plan.protocolVersion)).then((sides) => process.stdout.write(`${JSON.stringify(sides)}\n`));
