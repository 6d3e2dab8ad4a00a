import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/types.js';
import { ROOT, runCli } from '../helpers/cli.js';

/**
 * Every recorded tools/list of test/corpus (public servers of several ecosystems, written outside
 * this project) served over real stdio by a fixture server, three tools a page, and gated against
 * itself: Promote, exit 0, no change, every tool discovered across the pages.
 */
const CORPUS = join(ROOT, 'test/corpus');
const files = readdirSync(CORPUS)
  .filter((f) => f.endsWith('.json'))
  .sort();
const SERVER = join(ROOT, 'test/fixtures/servers/corpus-server.mjs');

describe.concurrent('each recorded server gated against itself over stdio (test/corpus)', () => {
  let config: string;
  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-corpus-'));
    const profiles = files.flatMap((f) => {
      const profile = `      command: node\n      args: [${JSON.stringify(SERVER)}, ${JSON.stringify(join(CORPUS, f))}, --page-size=3]`;
      return [`  ${f}-a:\n${profile}`, `  ${f}-b:\n${profile}`];
    });
    config = join(dir, 'corpus.config.yaml');
    writeFileSync(
      config,
      [
        'version: 1',
        'profiles:',
        ...profiles,
        `baseline: ${files[0]}-a`,
        `candidate: ${files[0]}-b`,
        `reports: { dir: ${JSON.stringify(join(dir, 'reports'))} }`,
        '',
      ].join('\n'),
    );
  });

  it('has at least 30 recordings', () => {
    expect(files.length).toBeGreaterThanOrEqual(30);
  });

  it.each(files)('%s: Promote with zero changes, every page read', async (file) => {
    const recorded = JSON.parse(readFileSync(join(CORPUS, file), 'utf8')) as { tools: { name?: unknown }[] };
    const result = await runCli(['diff', `${file}-a`, `${file}-b`, '-c', config, '--format', 'json', '--quiet'], { timeoutMs: 60_000 });
    expect(result.stderr).toBe('');
    const report = JSON.parse(result.stdout) as Report;
    expect(report.diff.changes).toEqual([]);
    expect(report.decision).toMatchObject({ verdict: 'Promote', reasons: [] });
    expect(result.code).toBe(0);
    const named = new Set(recorded.tools.map((t) => t.name).filter((n) => typeof n === 'string'));
    expect(report.candidate.toolCount).toBe(named.size);
    expect(report.candidate.discovery.pages).toBe(Math.max(1, Math.ceil(recorded.tools.length / 3)));
  });
});
