import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { processesMatching } from '../helpers/processes.js';
import { readReportFile, stable } from '../helpers/report.js';
import { writeSyntheticProject } from '../fixtures/synthetic/project.mjs';
import type { Report } from '../../src/report/types.js';

/**
 * cases.concurrency changes how many probes are in flight, never the report. The synthetic servers
 * (real processes over stdio) answer each call after 1..15 ms, fixed per query, so with several
 * calls in flight the answers arrive out of dataset order: a gate that kept results in arrival
 * order would fail here.
 */
const CASES = 40;

describe('cases.concurrency: 1 and 8 give the same report, in dataset order', () => {
  let dir: string;
  const runs: Record<number, { cli: CliResult; report: Report }> = {};

  const gate = async (concurrency: number) => {
    const reports = join(dir, `reports-${concurrency}`);
    const cli = await runCli(['run', '-c', join(dir, 'gate.config.yaml'), '--report-dir', reports, '--quiet'], {
      env: { MCPGATE_CASES__CONCURRENCY: String(concurrency) },
    });
    const files = readdirSync(reports).filter((f) => f.endsWith('.json'));
    expect(files, cli.stderr).toHaveLength(1);
    return { cli, report: readReportFile(join(reports, files[0]!)) };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-gate-concurrency-'));
    writeSyntheticProject(dir, { tools: 60, cases: CASES, payload: 512, concurrency: 4, drift: 20, jitter: 15, tag: dir });
    runs[1] = await gate(1);
    runs[8] = await gate(8);
  }, 60_000);

  it('really ran one call at a time, then several at once (the servers count them)', () => {
    const most = (report: Report) => Number(/most calls in flight at once: (\d+)\s*$/.exec(report.baseline.stderr.tail)?.[1]);
    expect(most(runs[1]!.report)).toBe(1);
    expect(most(runs[8]!.report)).toBeGreaterThan(1);
  });

  it('decides the same, with the same exit code, and every probe was called', () => {
    expect(runs[8]!.cli.code).toBe(runs[1]!.cli.code);
    // The candidate's drift breaks schemas, but the synthetic server validates no argument: it
    // answers every witness sent live, so each break is refuted and held (docs/verdicts.md).
    expect(runs[1]!.report.decision.verdict).toBe('Hold');
    expect(runs[1]!.report.diff.changes.filter((c) => c.witness?.live?.outcome === 'refuted').length).toBeGreaterThan(0);
    for (const report of [runs[1]!.report, runs[8]!.report]) {
      expect(report.baseline.cases).toMatchObject({ total: CASES, passed: CASES });
      const probes = report.candidate.caseResults.flatMap((c) => c.probes);
      expect(probes.filter((p) => p.status === 'called')).toHaveLength(CASES);
    }
  });

  it('keeps the case results in dataset order on both sides', () => {
    const ids = Array.from({ length: CASES }, (_, i) => `SYN-${String(i + 1).padStart(4, '0')}`);
    for (const report of [runs[1]!.report, runs[8]!.report]) {
      expect(report.baseline.caseResults.map((c) => c.id)).toEqual(ids);
      expect(report.candidate.caseResults.map((c) => c.id)).toEqual(ids);
    }
  });

  it("writes the same report once times and the servers' own stderr are left out", () => {
    const comparable = (report: Report) => {
      const copy = stable(report) as Report;
      for (const side of [copy.baseline, copy.candidate]) side.stderr = { tail: '', droppedBytes: 0 };
      return copy;
    };
    expect(comparable(runs[8]!.report)).toEqual(comparable(runs[1]!.report));
  });

  it('leaves no server running', () => {
    expect(processesMatching(`--tag=${dir}`)).toEqual([]);
  });
});
