#!/usr/bin/env node
// Runs the gate on each Support Ops scenario of the README's demo table and explains each exit code.
// The gate's exit code is its signal (1 = Rollback), so this script checks that each scenario
// ended with the code it should, and itself exits 0 only when every one did.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The README's table, "What the demo shows", row by row (test/unit/readme-demo.test.ts holds the two alike). */
export const SCENARIOS = [
  { candidate: 'candidate', title: 'drops a required argument, adds a destructive tool', expect: 1 },
  { candidate: 'candidate-safe', title: 'adds one read-only tool', expect: 0 },
  { candidate: 'candidate-template', title: "renames the ticket template's variable", expect: 1 },
];
const meaning = { 0: 'Promote', 1: 'Rollback', 2: 'Hold', 3: 'could not decide' };

function demo() {
  let ok = true;
  for (const s of SCENARIOS) {
    const env = s.candidate === 'candidate' ? {} : { MCPGATE_CANDIDATE: s.candidate };
    console.log(
      `\n=== baseline -> ${s.candidate} (${s.title})\n$ ${Object.entries(env)
        .map(([k, v]) => `${k}=${v} `)
        .join('')}npx mcp-gate run\n`,
    );
    const run = spawnSync(process.execPath, ['bin/mcp-gate.js', 'run', '--quiet'], { stdio: 'inherit', env: { ...process.env, ...env } });
    const code = run.status ?? 3;
    const as = code === s.expect ? 'as expected' : `EXPECTED ${s.expect}`;
    console.log(
      `--> exit code ${code} (${meaning[code] ?? 'unknown'}), ${as}. In CI a non-zero code fails the job: that is the gate working.`,
    );
    ok &&= code === s.expect;
  }
  process.exitCode = ok ? 0 : 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) demo();
