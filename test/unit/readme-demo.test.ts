import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCENARIOS } from '../../scripts/demo.mjs';
import { ROOT } from '../helpers/cli.js';

/**
 * `npm run demo` (scripts/demo.mjs) gates the scenarios the README's table shows, each with the exit
 * code the table gives it, and the README's first line counts them right.
 */
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const section = README.slice(
  README.indexOf('## What the demo shows'),
  README.indexOf('\n## ', README.indexOf('## What the demo shows') + 1),
);
const rows = [...section.matchAll(/^\| `baseline` → `([^`]+)` \|.*\| \*\*(\w+)\*\* \| (\d) \|$/gm)].map(([, candidate, verdict, code]) => ({
  candidate,
  verdict: verdict as 'Promote' | 'Rollback' | 'Hold',
  code: Number(code),
}));
const COUNTS = ['none', 'one', 'both', 'three', 'four', 'five'];

describe('the demo', () => {
  it("gates each scenario of the README's table, with the table's exit code", () => {
    expect(rows.length).toBeGreaterThan(1);
    expect(SCENARIOS.map((s) => ({ candidate: s.candidate, code: s.expect }))).toEqual(
      rows.map((r) => ({ candidate: r.candidate, code: r.code })),
    );
    for (const row of rows) expect(row.code, row.candidate).toBe({ Promote: 0, Rollback: 1, Hold: 2 }[row.verdict]);
  });

  it("is counted right in the README's first line", () => {
    const line = README.split('\n').find((l) => l.startsWith('npm ci && npm run demo'))!;
    expect(line).toMatch(new RegExp(`\\b${COUNTS[rows.length]} scenarios\\b`));
  });
});
