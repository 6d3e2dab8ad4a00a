#!/usr/bin/env node
// Runs the gate on both Support Ops scenarios and explains each exit code.
// The gate's exit code is its signal (1 = Rollback), so this script checks that each scenario
// ended with the code it should, and itself exits 0 only when both did.
import { spawnSync } from 'node:child_process';

const scenarios = [
  { title: 'baseline -> candidate (drops a required argument, adds a destructive tool)', env: {}, expect: 1 },
  { title: 'baseline -> candidate-safe (adds one read-only tool)', env: { MCPGATE_CANDIDATE: 'candidate-safe' }, expect: 0 },
];
const meaning = { 0: 'Promote', 1: 'Rollback', 2: 'Hold', 3: 'could not decide' };

let ok = true;
for (const s of scenarios) {
  console.log(
    `\n=== ${s.title}\n$ ${Object.entries(s.env)
      .map(([k, v]) => `${k}=${v} `)
      .join('')}npx mcp-gate run\n`,
  );
  const run = spawnSync(process.execPath, ['bin/mcp-gate.js', 'run', '--quiet'], { stdio: 'inherit', env: { ...process.env, ...s.env } });
  const code = run.status ?? 3;
  const as = code === s.expect ? 'as expected' : `EXPECTED ${s.expect}`;
  console.log(
    `--> exit code ${code} (${meaning[code] ?? 'unknown'}), ${as}. In CI a non-zero code fails the job: that is the gate working.`,
  );
  ok &&= code === s.expect;
}
process.exitCode = ok ? 0 : 1;
