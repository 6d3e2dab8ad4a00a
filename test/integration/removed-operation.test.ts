import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/types.js';
import { ROOT, runCli } from '../helpers/cli.js';

/**
 * A removed argument that selected an operation (test/fixtures/servers/operation-server.mjs): the
 * listed schema stays open and marks nothing required, so the schemas alone show only an optional
 * argument gone (held). A call the baseline answered that sends it is sent to both servers
 * (diff/confirm-probe.ts): refused by the candidate as invalid input, the break is confirmed.
 */
const CONFIG = join(ROOT, 'test/fixtures/servers/operation.config.yaml');

async function gate(candidate: string) {
  const result = await runCli(['run', '-c', CONFIG, '--candidate', candidate, '--format', 'json', '--quiet'], {
    timeoutMs: 60_000,
  });
  const report = JSON.parse(result.stdout) as Report;
  const changes = report.diff.changes.map((c) => [c.code, c.severity, c.witness?.status, c.witness?.live?.outcome]);
  return { code: result.code, report, changes };
}

describe('a removed argument that selected an operation', () => {
  it('the fetch-only candidate refuses the search call the baseline answered: confirmed live, a Rollback', async () => {
    const { code, report, changes } = await gate('v2');
    expect(changes).toEqual([['input-option-refused', 'breaking', 'probe', 'confirmed']]);
    expect(report.diff.changes[0]!.witness!.instance).toEqual({ action: 'search' });
    expect(report.diff.changes[0]!.message).toContain(
      'Confirmed live: the candidate refused the call {"action":"search"} as invalid input ("Missing required argument: path")',
    );
    expect([report.decision.verdict, code]).toEqual(['Rollback', 1]);
  });

  it('a candidate that still answers the call only ignores the argument: held, as before', async () => {
    const { code, report, changes } = await gate('v2-ignores');
    expect(changes).toEqual([['input-property-removed', 'dangerous', 'probe', 'refuted']]);
    expect([report.decision.verdict, code]).toEqual(['Hold', 2]);
  });

  it('with no witness calls, the schemas alone say what they said: held', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-operation-'));
    const config = join(dir, 'gate.config.yaml');
    writeFileSync(config, `${readFileSync(CONFIG, 'utf8').replaceAll('../../..', ROOT)}limits: { witnessCalls: 0 }\n`);
    const result = await runCli(['run', '-c', config, '--format', 'json', '--quiet'], { timeoutMs: 60_000 });
    const report = JSON.parse(result.stdout) as Report;
    expect(report.diff.changes.map((c) => [c.code, c.severity, c.witness?.status, c.witness?.live])).toEqual([
      ['input-property-removed', 'dangerous', 'probe', undefined],
    ]);
    expect(result.code).toBe(2);
  });
});
