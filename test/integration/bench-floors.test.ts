// The bench's two reference clients (bench/floor.cjs and the SDK floor, bench/sdk-floor.mjs) must do
// the gate's work, or every ratio in bench/README.md compares unlike with unlike: the same servers
// spawned, the same tools listed, the same probes called. Measured through the bench's own runners.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error the bench is plain JavaScript, without type declarations
import { buildSdkFloor, runFloor, runGate, runSdkFloor } from '../../bench/measure.mjs';
// @ts-expect-error the bench is plain JavaScript, without type declarations
import { floorPlan } from '../../bench/scenarios.mjs';
import { ROOT } from '../helpers/cli.js';

type Work = { tools: number; pages: number; probes: number }[];

describe('the bench floors', () => {
  it('list the same tools and call the same probes as the gate, on the example', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-floors-'));
    const config = join(ROOT, 'gate.config.yaml');
    const plan = join(dir, 'plan.json');
    writeFileSync(plan, JSON.stringify(floorPlan(config)));

    const gate = (await runGate(config, join(dir, 'reports'), dir)) as { verdict: string; work: Work };
    expect(gate.verdict).toBe('Rollback'); // the example's candidate breaks its contract
    // Not a vacuous match: both sides listed tools and were probed.
    expect(gate.work.every((w) => w.tools > 0 && w.probes > 0)).toBe(true);

    const floor = (await runFloor(plan, dir)) as { work: Work; ms: number; readyMs: number };
    expect(floor.work).toEqual(gate.work);
    // When the servers answered initialize, within the run: what the bench's "After the servers are up" table subtracts.
    expect(floor.readyMs).toBeGreaterThan(0);
    expect(floor.readyMs).toBeLessThan(floor.ms);

    const packed = join(dir, 'sdk-floor.cjs');
    await buildSdkFloor(packed);
    const sdkFloor = (await runSdkFloor(plan, dir, { packed })) as { work: Work; ms: number; readyMs: number };
    expect(sdkFloor.work).toEqual(gate.work);
    expect(sdkFloor.readyMs).toBeGreaterThan(0);
    expect(sdkFloor.readyMs).toBeLessThan(sdkFloor.ms);
  });
});
