import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import type { Report } from '../../src/report/types.js';

// The audit against published servers from npm: what it finds there is real, and checked here.
const dir = join(ROOT, 'test/fixtures/published');
const gate = async (baseline: string, candidate: string, dataset: string) => {
  const result = await runCli(
    [
      'run',
      '-c',
      join(dir, 'gate.config.yaml'),
      '--baseline',
      baseline,
      '--candidate',
      candidate,
      '--dataset',
      join(dir, dataset),
      '--format',
      'json',
      '--quiet',
      '--report-dir',
      join(ROOT, '.tmp/published-reports'),
    ],
    { timeoutMs: 60_000 },
  );
  return JSON.parse(result.stdout) as Report;
};
const candidateTools = (report: Report, code: string) =>
  report.audit.findings.filter((f) => f.side === 'candidate' && f.code === code).map((f) => f.tool);

describe('audit of published servers', () => {
  it('filesystem 2026.7.4: a closed-domain server that leaves openWorldHint at its default on all 14 tools', async () => {
    const report = await gate('filesystem-2026.1.14', 'filesystem-2026.7.4', 'filesystem.cases.yaml');
    expect(candidateTools(report, 'open-world-hint-missing')).toHaveLength(14);
    // Shared with the baseline: reported, not judged.
    expect(
      report.audit.findings
        .filter((f) => f.code === 'open-world-hint-missing' && f.side === 'candidate')
        .every((f) => f.regression === false),
    ).toBe(true);
    // list_allowed_directories repeats its structured text in a text block: not a finding.
    expect(candidateTools(report, 'structured-content-without-text')).toEqual([]);
    // The relative path that worked on 2026.1.14 fails on 2026.7.4: the case catches real drift.
    expect(report.baseline.caseResults.map((r) => r.status)).toEqual(['passed', 'passed']);
    expect(report.candidate.caseResults[1]!.failures[0]!.message).toContain('ENOENT');
  });

  it('memory: pretty-printed JSON results on both releases, parameters without descriptions', async () => {
    const report = await gate('memory-2026.1.26', 'memory-2026.7.4', 'memory.cases.yaml');
    expect(candidateTools(report, 'result-pretty-json')).toEqual(['read_graph', 'search_nodes']);
    expect(candidateTools(report, 'parameter-description-missing')).toEqual([
      'add_observations',
      'create_entities',
      'create_relations',
      'delete_observations',
    ]);
    expect(report.decision.verdict).toBe('Promote');
  });
});
