import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT } from '../helpers/cli.js';
import { nodeMeasured, TIME, type Measured } from '../helpers/peak-rss.js';
import { processesMatching } from '../helpers/processes.js';
import { reportProblems } from '../../src/report/read.js';
import { MAX_REPORT_BYTES } from '../../src/report/trim.js';
import type { Report } from '../../src/report/types.js';

/**
 * docs/security.md, "Memory is bounded": whatever a server's lists hold, the gate's peak RSS stays under 300 MB and its
 * report under MAX_REPORT_BYTES (32 MiB, README). The real CLI against hostile-server.mjs, with
 * the default limits, its peak RSS read by /usr/bin/time -v.
 */
const CONFIG = join(ROOT, 'test/fixtures/servers/hostile.config.yaml');
const DEFAULT_LIMITS = {
  MCPGATE_LIMITS__MAX_MESSAGE_BYTES: '16777216',
  MCPGATE_LIMITS__MAX_TOOLS: '10000',
  MCPGATE_LIMITS__MAX_PAGES: '100',
};

function gateMeasured(candidate: string): Promise<Measured> {
  // Its own tag on the baseline: test/reliability/hostile.test.ts, running beside it, looks for processes tagged ok-hostile.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NO_COLOR: '1',
    ...DEFAULT_LIMITS,
    MCPGATE_PROFILES__OK__ARGS: '[hostile-server.mjs, ok, --tag=memory-ok]',
  };
  const args = [CLI, 'run', '-c', CONFIG, '--baseline', 'ok', '--candidate', candidate, '--format', 'json', '--quiet'];
  return nodeMeasured(args, { env, hangMs: 100_000 });
}

const MB = 1000 * 1000;

describe.skipIf(!existsSync(TIME))('memory and report size stay bounded, whatever the lists hold', () => {
  it('prompts, resources and templates without end in 1000-entry pages: peak RSS under 300 MB, the report trimmed to its bound, with a note', async () => {
    const result = await gateMeasured('many-features');
    expect(result.code, result.stderr.slice(-2000)).toBe(2); // Hold: the lists ran past limits.maxTools
    // 494 MB when the report and the json format were each built as one string; 250-270 MB written in pieces.
    expect(result.peakKiB * 1024).toBeLessThan(300 * MB);
    expect(Buffer.byteLength(result.stdout)).toBeLessThanOrEqual(MAX_REPORT_BYTES);
    const report = JSON.parse(result.stdout) as Report;
    expect(reportProblems(report)).toEqual([]);
    expect(report.trimmed?.maxBytes).toBe(MAX_REPORT_BYTES);
    expect(report.trimmed?.lists.map((l) => [l.at, l.of])).toEqual([
      ['/candidate/features/prompts', 10000],
      ['/candidate/features/resources', 10000],
      ['/candidate/features/resourceTemplates', 10000],
    ]);
    // The diff and the decision are whole: every prompt added is told, though the report lists fewer.
    expect(report.diff.changes.filter((c) => c.code === 'prompt-added')).toHaveLength(10000);
    expect(report.candidate.features!.prompts!.length).toBe(report.trimmed!.lists[0]!.kept);
    expect(processesMatching('--tag=many-features-hostile')).toEqual([]);
  }, 120_000);

  // About 300 MB when the three lists were read at once (three fat pages in flight), 200-270 MB one after another.
  it('the same lists in pages of 8 entries of 1 MiB text: peak RSS under 300 MB, cut at the side budget', async () => {
    const result = await gateMeasured('fat-features');
    expect(result.code, result.stderr.slice(-2000)).toBe(1);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.candidate.error?.message).toContain('limits.maxSideBytes (67108864 bytes)');
    expect(result.peakKiB * 1024).toBeLessThan(300 * MB);
  }, 120_000);
});
