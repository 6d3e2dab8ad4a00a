import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { processesMatching } from '../helpers/processes.js';
import type { Report } from '../../src/report/types.js';

// The raw fixture server answers initialize with the revision it is told (--protocol=...), or not at all.
const CONFIG = join(ROOT, 'test/fixtures/servers/protocol.config.yaml');
const gate = async (baseline: string, candidate: string) => {
  const result = await runCli(['run', '-c', CONFIG, '--baseline', baseline, '--candidate', candidate, '--format', 'json', '--quiet']);
  return { result, report: result.stdout ? (JSON.parse(result.stdout) as Report) : null };
};

describe('negotiated protocol versions', () => {
  afterAll(() => {
    expect(processesMatching('--tag=protocol-')).toEqual([]);
  });

  it('records the version each side negotiated; a downgrade holds (exit 2)', async () => {
    const { result, report } = await gate('latest', 'v2025-06-18');
    expect([report!.baseline.server.protocolVersion, report!.candidate.server.protocolVersion]).toEqual(['2025-11-25', '2025-06-18']);
    expect(report!.diff.changes.map((c) => [c.code, c.severity])).toEqual([['protocol-version-changed', 'dangerous']]);
    expect(report!.decision.reasons.map((r) => [r.code, r.action])).toEqual([['protocol-version-changed', 'hold']]);
    expect(result.code).toBe(2);
  });

  it("text and markdown show each side's protocol version", async () => {
    const text = await runCli(['run', '-c', CONFIG, '--baseline', 'latest', '--candidate', 'v2025-06-18', '--quiet']);
    expect(text.stdout).toContain('baseline   latest (stdio, raw-ok 0.0.1, protocol 2025-11-25 (legacy era))');
    expect(text.stdout).toContain('candidate  v2025-06-18 (stdio, raw-ok 0.0.1, protocol 2025-06-18 (legacy era))');
    expect(text.stdout).toContain('[hold] protocol-version-changed');
    const markdown = await runCli([
      'run',
      '-c',
      CONFIG,
      '--baseline',
      'latest',
      '--candidate',
      'v2025-06-18',
      '--quiet',
      '--format',
      'markdown',
    ]);
    expect(markdown.stdout).toContain('| protocol | 2025-11-25 (legacy era) | 2025-06-18 (legacy era) |');
  });

  it('an upgrade is reported as a safe change and promotes (exit 0)', async () => {
    const { result, report } = await gate('v2024-11-05', 'latest');
    expect(report!.diff.changes.map((c) => [c.code, c.severity, c.before, c.after])).toEqual([
      ['protocol-version-changed', 'safe', '2024-11-05', '2025-11-25'],
    ]);
    expect(report!.decision).toMatchObject({ verdict: 'Promote', reasons: [] });
    expect(result.code).toBe(0);
  });

  it('a candidate answering initialize with a draft revision is unavailable, and the message says why', async () => {
    const { result, report } = await gate('latest', 'draft-2026');
    expect(result.code).toBe(1);
    expect(report!.decision.reasons.map((r) => r.code)).toEqual(['candidate-unavailable']);
    expect(report!.candidate.error).toMatchObject({ phase: 'initialize' });
    expect(report!.candidate.error!.message).toContain('protocol version "DRAFT-2026-v1", which the gate\'s MCP client does not speak');
  });

  // A real 2026-07-28 server answers server/discover (test/integration/protocol-eras.test.ts); this one answers neither.
  it('a candidate with neither server/discover nor initialize is unavailable; as the baseline it is exit 3', async () => {
    const candidate = await gate('latest', 'no-initialize');
    expect(candidate.result.code).toBe(1);
    expect(candidate.report!.candidate.error!.message).toContain(
      'the server implements neither server/discover (the 2026-07-28 revision) nor initialize (the 2025 revisions)',
    );
    const baseline = await gate('no-initialize', 'latest');
    expect(baseline.result.code).toBe(3);
    expect(baseline.result.stderr).toContain(
      'baseline profile "no-initialize" is unavailable (initialize): the server implements neither server/discover',
    );
  });

  it('a 2025-era server that exits on the server/discover probe is started once more, straight to initialize, and the report says so', async () => {
    const { result, report } = await gate('latest', 'exit-on-probe');
    expect(report!.candidate.error).toBeNull();
    expect(report!.candidate.retried?.message).toContain('the server closed the connection during the server/discover probe');
    expect([report!.candidate.server.era, report!.candidate.server.protocolVersion]).toEqual(['legacy', '2025-11-25']);
    expect([report!.decision.verdict, result.code]).toEqual(['Promote', 0]);
  });
});
