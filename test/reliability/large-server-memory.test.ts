import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { nodeMeasured, TIME, type Measured } from '../helpers/peak-rss.js';
import { processesMatching } from '../helpers/processes.js';
import { writeSyntheticProject } from '../fixtures/synthetic/project.mjs';
import { reportProblems } from '../../src/report/read.js';
import type { Report } from '../../src/report/types.js';

/**
 * The large-server goal (bench/README.md, "Goals"): at 5,000 tools a side the gate's peak RSS stays under 200 MB, with every definition in
 * the report (bench/README.md says what a large report carries). The real CLI against the synthetic
 * server (5% of the candidate's tools drifted), its peak RSS read by /usr/bin/time -v, as the other
 * memory tests do. Before the report was written in pieces this run peaked at about 240 MiB.
 */
const MB = 1000 * 1000;
const TAG = 'large-server-memory';
const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-5000-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function gateMeasured(config: string): Promise<Measured> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const key of Object.keys(env)) if (key.startsWith('MCPGATE_')) delete env[key];
  return nodeMeasured([CLI, 'run', '-c', config, '--quiet'], { env, cwd: dir, hangMs: 150_000 });
}

describe.skipIf(!existsSync(TIME))('a server of 5,000 tools', () => {
  it('is gated under 200 MB of peak RSS, every definition of both sides in the report', async () => {
    const config = writeSyntheticProject(dir, { tools: 5000, cases: 20, tag: TAG });
    const result = await gateMeasured(config);
    expect(result.code, result.stderr.slice(-2000)).toBe(1); // Rollback: the drifted tools break callers
    const reports = join(dir, 'reports');
    const [file] = readdirSync(reports).filter((f) => f.endsWith('.json'));
    const report = JSON.parse(readFileSync(join(reports, file!), 'utf8')) as Report;
    expect(reportProblems(report)).toEqual([]);
    expect([report.baseline.tools.length, report.candidate.tools.length]).toEqual([5000, 5000]);
    expect(report.trimmed).toBeUndefined();
    expect(statSync(join(reports, file!)).size).toBeGreaterThan(10 * MB);
    expect(result.peakKiB * 1024).toBeLessThan(200 * MB);
    expect(processesMatching(`--tag=${TAG}`)).toEqual([]);
  }, 180_000);
});
