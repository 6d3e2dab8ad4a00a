import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, scratchProject } from '../helpers/cli.js';
import { readReportFile } from '../helpers/report.js';
import type { History } from '../../src/report/history/runs.js';
import type { Report } from '../../src/report/types.js';

/**
 * Four real runs of the example: Rollback, then the safe candidate (Promote), then the first
 * candidate again, then the `candidate` profile pointed at the safe release. Drift is judged per
 * baseline -> candidate pair: the second run is the first of its pair, the third has the contract
 * of the first (no drift, though the run before it had another), the fourth a new one (drift).
 */
describe('mcp-gate history over real saved reports', () => {
  let dir: string;
  let reports: Report[];

  beforeAll(async () => {
    dir = scratchProject();
    const safeRelease = {
      MCPGATE_PROFILES__CANDIDATE__ARGS: `[${join(ROOT, 'examples/support-ops/dist/server.js')}, candidate-safe, --tag=${dir}]`,
    };
    for (const [candidate, env, code] of [
      ['candidate', {}, 1],
      ['candidate-safe', {}, 0],
      ['candidate', {}, 1],
      ['candidate', safeRelease, 0],
    ] as const) {
      const run = await runCli(['run', '--quiet'], { cwd: dir, env: { MCPGATE_CANDIDATE: candidate, ...env } });
      expect(run.code, run.stderr).toBe(code);
    }
    const files = readdirSync(join(dir, 'reports')).filter((f) => f.endsWith('.json'));
    expect(files).toHaveLength(4);
    reports = files.map((f) => readReportFile(join(dir, 'reports', f))).sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  }, 90_000);

  const json = async (args: string[], cwd = dir) => {
    const result = await runCli(['history', ...args, '--format', 'json'], { cwd });
    return { ...result, history: JSON.parse(result.stdout) as History };
  };

  it('lists the runs oldest first with verdicts, counts, contract hashes and drift (json)', async () => {
    const { code, history } = await json(['reports']);
    expect(code).toBe(0);
    expect(history.dir).toBe('reports');
    expect(history.unreadable).toEqual([]);
    expect(
      history.runs.map((r) => [r.candidate, r.verdict, r.addedTools, r.removedTools, r.breaking, r.brokenCases, r.toolCount, r.drift]),
    ).toEqual([
      ['candidate', 'Rollback', 1, 0, 1, 3, 6, null],
      ['candidate-safe', 'Promote', 1, 0, 0, 0, 6, null],
      ['candidate', 'Rollback', 1, 0, 1, 3, 6, false],
      ['candidate', 'Promote', 1, 0, 0, 0, 6, true],
    ]);
    expect(history.runs.map((r) => r.startedAt)).toEqual(reports.map((r) => r.startedAt));
    expect(history.runs.map((r) => r.contractHash)).toEqual(reports.map((r) => r.candidate.contractHash));
    expect(history.runs.every((r) => r.baseline === 'baseline' && r.page === null && r.file.startsWith('reports/'))).toBe(true);
  });

  it('reads reports.dir from the config when DIR is left out', async () => {
    const { code, history } = await json([]);
    expect(code).toBe(0);
    expect(history.runs).toHaveLength(4);
  });

  it('prints a table, oldest first, with the drift marked (text and markdown)', async () => {
    const text = await runCli(['history'], { cwd: dir });
    expect(text.code).toBe(0);
    const lines = text.stdout.split('\n');
    expect(lines[0]).toMatch(/^time\s+baseline → candidate\s+verdict\s+added\s+removed\s+breaking\s+broken cases\s+contract$/);
    expect(lines.slice(1, 5).map((l) => [/ (Rollback|Promote) /.exec(l)?.[1], l.endsWith('drift')])).toEqual([
      ['Rollback', false],
      ['Promote', false],
      ['Rollback', false],
      ['Promote', true],
    ]);
    expect(lines[1]).toContain(reports[0]!.candidate.contractHash!.slice(7, 19));
    expect(text.stdout).toContain('4 runs in reports; 1 with contract drift');

    const markdown = await runCli(['history', '--format', 'markdown'], { cwd: dir });
    expect(markdown.stdout).toContain('| time | baseline → candidate | verdict |');
    expect(markdown.stdout.match(/\*\*drift\*\*/g)).toHaveLength(1);
  });

  it('writes an HTML timeline with a chart, linking the runs whose page sits beside the report', async () => {
    const first = readdirSync(join(dir, 'reports'))
      .filter((f) => f.endsWith('.json'))
      .sort()[0]!;
    const show = await runCli(
      ['show', join('reports', first), '--format', 'html', '-o', join('reports', first.replace(/\.json$/, '.html'))],
      { cwd: dir },
    );
    expect(show.code).toBe(0);
    const result = await runCli(['history', '--format', 'html', '-o', 'reports/index.html'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const html = readFileSync(join(dir, 'reports/index.html'), 'utf8');
    expect(html.match(/<li class="run /g)).toHaveLength(4);
    expect([...html.matchAll(/data-verdict="(\w+)"/g)].map((m) => m[1])).toEqual(['Rollback', 'Promote', 'Rollback', 'Promote']);
    expect(html.match(/<span class="drift-mark"/g)).toHaveLength(1);
    const series = [...html.matchAll(/<polyline class="[^"]+" data-series="(\w+)" points="([^"]+)"/g)].map((m) => [
      m[1],
      m[2]!.split(' ').length,
    ]);
    expect(series).toEqual([
      ['toolCount', 4],
      ['breaking', 4],
      ['brokenCases', 4],
    ]);
    expect([...html.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1])).toEqual([first.replace(/\.json$/, '.html')]);
    expect(html).not.toMatch(/<script/);
  });

  it('names each file that is not a readable report, lists the rest, and exits 3', async () => {
    const mixed = mkdtempSync(join(tmpdir(), 'mcp-gate-history-'));
    // Names that sort against time: the order must come from startedAt, not from the file names.
    reports.slice(0, 3).forEach((r, i) => writeFileSync(join(mixed, `run-${'cba'[i]}.json`), JSON.stringify(r)));
    writeFileSync(join(mixed, 'broken.json'), '{"schemaVersion": 1,');
    writeFileSync(join(mixed, 'other.json'), '{"hello": "world"}');
    writeFileSync(join(mixed, 'future.json'), JSON.stringify({ ...reports[0], schemaVersion: 2 }));
    const { code, stderr, history } = await json([mixed]);
    expect(code).toBe(3);
    expect(history.runs.map((r) => r.file.split('/').pop())).toEqual(['run-c.json', 'run-b.json', 'run-a.json']);
    expect(history.unreadable.map((u) => u.file.split('/').pop())).toEqual(['broken.json', 'future.json', 'other.json']);
    expect(stderr).toMatch(/broken\.json: not JSON/);
    expect(stderr).toMatch(/other\.json: not a valid mcp-gate report: \/: must have required property 'schemaVersion'/);
    expect(stderr).toMatch(/future\.json: schemaVersion: is 2; this mcp-gate reads report schemaVersion 1/);
    expect(stderr).toContain('3 files are not readable reports');
  });

  // A pull request can commit either under reports/: before, the FIFO blocked for ever and the
  // link to /dev/zero grew the gate to 16.8 GB, too busy reading to take a SIGTERM.
  it.runIf(process.platform !== 'win32')(
    'reads regular files only: a FIFO and a link to /dev/zero are named and skipped (exit 3), a link to a report is read, and show refuses each',
    async () => {
      const mixed = mkdtempSync(join(tmpdir(), 'mcp-gate-history-'));
      writeFileSync(join(mixed, 'run.json'), JSON.stringify(reports[0]));
      symlinkSync(join(mixed, 'run.json'), join(mixed, 'link.json'));
      execFileSync('mkfifo', [join(mixed, 'pipe.json')]);
      symlinkSync('/dev/zero', join(mixed, 'zero.json'));
      // Sparse: past the bound a report is read at (4 × 32 MiB) without taking the disk space.
      writeFileSync(join(mixed, 'zzz-huge.json'), '');
      truncateSync(join(mixed, 'zzz-huge.json'), 128 * 1024 * 1024 + 1);
      const result = await runCli(['history', mixed, '--format', 'json'], { cwd: dir, timeoutMs: 15_000 });
      expect(result.code).toBe(3);
      const history = JSON.parse(result.stdout) as History;
      expect(history.runs.map((r) => r.file.split('/').pop()).sort()).toEqual(['link.json', 'run.json']);
      expect(history.unreadable.map((u) => u.file.split('/').pop())).toEqual(['pipe.json', 'zero.json', 'zzz-huge.json']);
      expect(result.stderr).toMatch(/pipe\.json: not read: it is a FIFO \(named pipe\), not a regular file/);
      expect(result.stderr).toMatch(/zero\.json: not read: it is a symbolic link to a character device, not a regular file/);
      expect(result.stderr).toMatch(/zzz-huge\.json: not read: it is larger than 134217728 bytes/);
      for (const name of ['pipe.json', 'zero.json']) {
        const shown = await runCli(['show', join(mixed, name)], { cwd: mixed, timeoutMs: 15_000 });
        expect([shown.code, shown.stdout]).toEqual([3, '']);
        expect(shown.stderr).toContain(`${name}: not read: it is `);
      }
    },
  );

  it('refuses a folder that does not exist (exit 3) and says what to pass', async () => {
    const result = await runCli(['history', 'no-such-folder'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('no-such-folder: no such directory');
  });
});
