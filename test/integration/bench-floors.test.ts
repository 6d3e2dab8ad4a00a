// The bench's two reference clients (bench/floor.mjs and the SDK floor, bench/sdk-floor.mjs) must do
// the gate's work, or every ratio in bench/README.md compares unlike with unlike: the same servers
// spawned, the same tools listed, the same probes called.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
// @ts-expect-error the bench is plain JavaScript, without type declarations
import { buildSdkFloor } from '../../bench/measure.mjs';
// @ts-expect-error the bench is plain JavaScript, without type declarations
import { floorPlan } from '../../bench/scenarios.mjs';
import { ROOT, runCli } from '../helpers/cli.js';

const run = promisify(execFile);
type Work = { tools: number; pages: number; probes: number }[];

describe('the bench floors', () => {
  it('list the same tools and call the same probes as the gate, on the example', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-floors-'));
    const plan = join(dir, 'plan.json');
    writeFileSync(plan, JSON.stringify(floorPlan(join(ROOT, 'gate.config.yaml'))));

    const gate = await runCli(['run', '-c', 'gate.config.yaml', '--report-dir', join(dir, 'reports'), '--quiet']);
    expect(gate.code).toBe(1); // the example's candidate breaks its contract: Rollback
    const report = JSON.parse(readFileSync(join(dir, 'reports', readdirSync(join(dir, 'reports'))[0]!), 'utf8'));
    type Side = { toolCount: number; discovery: { pages: number }; caseResults: { probes: { status: string }[] }[] };
    const gateWork: Work = [report.baseline, report.candidate].map((side: Side) => ({
      tools: side.toolCount,
      pages: side.discovery.pages,
      probes: side.caseResults.flatMap((c) => c.probes).filter((p) => p.status === 'called').length,
    }));
    // Not a vacuous match: both sides listed tools and were probed.
    expect(gateWork.every((w) => w.tools > 0 && w.probes > 0)).toBe(true);

    const floor = await run(process.execPath, [join(ROOT, 'bench/floor.mjs'), plan], { cwd: ROOT });
    expect(JSON.parse(floor.stdout) as Work).toEqual(gateWork);

    const bundle = join(dir, 'sdk-floor.cjs');
    await buildSdkFloor(bundle);
    const sdkFloor = await run(process.execPath, [join(ROOT, 'bench/run-bundle.mjs'), bundle, plan], { cwd: ROOT });
    expect(JSON.parse(sdkFloor.stdout) as Work).toEqual(gateWork);
  });
});
