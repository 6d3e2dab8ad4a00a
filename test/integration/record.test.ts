import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';

/**
 * `mcp-gate record` against a real server over stdio (test/fixtures/servers/record-server.mjs): what
 * it calls, what it freezes, what it leaves out and why, and a second recording over a dataset a
 * person edited.
 */
const SERVER = join(ROOT, 'test/fixtures/servers/record-server.mjs');

interface Tool {
  toolName: string;
  probeArguments: Record<string, unknown>;
  expect?: { isError: boolean; structured?: Record<string, unknown>; resultBudgetBytes: number };
  volatile?: string[];
}
const casesOf = (file: string) =>
  new Map(
    (parse(readFileSync(file, 'utf8')) as { cases: { id: string; requiredTools: Tool[] }[] }).cases.map((c) => [c.id, c.requiredTools[0]!]),
  );

describe('mcp-gate record', () => {
  let dir: string;
  let marker: string;
  let dataset: string;
  let first: Awaited<ReturnType<typeof runCli>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-gate-record-'));
    marker = join(dir, 'cancel-was-called');
    dataset = join(dir, 'datasets/recorded.cases.yaml');
    writeFileSync(
      join(dir, 'gate.config.yaml'),
      [
        'version: 1',
        'profiles:',
        `  v1: { command: node, args: [${SERVER}, v1, ${marker}] }`,
        `  v2: { command: node, args: [${SERVER}, v2, ${marker}] }`,
        'baseline: v1',
        'candidate: v2',
        'reports: { dir: reports }',
        '',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'args.yaml'), 'Lookup.ByCode: { code: FRA }\n');
    first = await runCli(['record', '--args', 'args.yaml'], { cwd: dir });
  }, 30_000);

  it('records the read-only tools, and never calls the one that is not', () => {
    expect(first.code, first.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);
    const cases = casesOf(dataset);
    expect([...cases.keys()]).toEqual([
      'recorded.Clock.Now',
      'recorded.Lookup.ByCode',
      'recorded.Orders.Find',
      'recorded.Orders.Get',
      'recorded.Report.Big',
      'recorded.Server.Info',
    ]);
    const text = readFileSync(dataset, 'utf8');
    expect(text).toContain('# not recorded: Orders.Cancel is not read-only');
    expect(text).toContain('# - id: recorded.Orders.Cancel');
    expect(text).toMatch(/# not recorded: the server answered isError \(backend offline\)/);
    expect(text).toContain('# not recorded: the result nests more than 256 levels deep');
    expect(first.stderr).toContain('wrote datasets/recorded.cases.yaml: 6 case(s), 5 tool(s) left commented out');
  });

  it('records in two server processes: a pid, a boot id, a start time and its own version are volatile', () => {
    expect(first.stderr).toContain('calling again, in a new server process');
    const info = casesOf(dataset).get('recorded.Server.Info')!;
    // pid and bootId differ between the processes; startedAt and the version by their shape.
    expect(info.volatile).toEqual(['/bootId', '/build', '/pid', '/startedAt', '/version']);
    expect(info.expect?.structured).toEqual({ name: 'record-fixture' });
  });

  it('builds a small valid integer, and tells a failure of the machine from bad arguments', () => {
    expect(casesOf(dataset).get('recorded.Orders.Get')!.probeArguments).toEqual({ id: 1 });
    // The comments wrap near 100 columns: read them as one line each.
    const text = readFileSync(dataset, 'utf8').replace(/\n\s*# (?!- id: |not recorded)/g, ' ');
    expect(text).toContain(
      'not recorded: the server answered isError (TypeError: fetch failed (getaddrinfo ENOTFOUND api.example.com)); this looks like a reason of this machine (no network), not of the arguments',
    );
    expect(text).toContain('not recorded: the server answered isError (backend offline); give working arguments in the --args file');
    // Not flagged, and still this machine's failure: frozen, the case would pass only where the call fails.
    expect(text).toContain(
      'not recorded: the server answered "Search error: fetch failed" without isError; this looks like a reason of this machine (no network)',
    );
  });

  it('finds what changes between two calls, and freezes the rest', () => {
    const cases = casesOf(dataset);
    const clock = cases.get('recorded.Clock.Now')!;
    expect(clock.volatile).toEqual(['/now', '/requestId']);
    expect(clock.expect).toEqual({ isError: false, resultBudgetBytes: 1024, structured: { zone: 'UTC' } });
    const find = cases.get('recorded.Orders.Find')!;
    // Required properties only, from the enum; the optional limit is left out.
    expect(find.probeArguments).toEqual({ status: 'open' });
    expect(find.volatile).toEqual(['/orders/*/updatedAt']);
    expect(find.expect?.structured).toEqual({
      orders: [
        { id: 'A1', status: 'open' },
        { id: 'A2', status: 'open' },
      ],
      total: 2,
    });
  });

  it('takes arguments from the --args file, and freezes JSON text like structuredContent', () => {
    const lookup = casesOf(dataset).get('recorded.Lookup.ByCode')!;
    expect(lookup.probeArguments).toEqual({ code: 'FRA' });
    expect(lookup.expect?.structured).toEqual({ code: 'FRA', name: 'France' });
  });

  it('thins data too large to freeze and says so', () => {
    const big = casesOf(dataset).get('recorded.Report.Big')!;
    expect(big.expect?.structured).toEqual({ title: 'Orders report' });
    expect(big.expect!.resultBudgetBytes).toBeGreaterThan(15_000);
    expect(readFileSync(dataset, 'utf8')).toContain('its lists are not frozen');
  });

  it('the recorded dataset holds on the same server, and a changed answer breaks its case', async () => {
    const same = await runCli(['run', '--candidate', 'v1', '--dataset', dataset, '--format', 'json', '--quiet'], { cwd: dir });
    expect(same.code, same.stderr).toBe(0);
    const changed = await runCli(['run', '--dataset', dataset, '--format', 'json', '--quiet'], { cwd: dir });
    const report = JSON.parse(changed.stdout) as {
      decision: { verdict: string; reasons: { code: string }[] };
      candidate: { caseResults: { id: string; failures: { check?: string }[] }[] };
    };
    expect(report.decision.verdict).toBe('Rollback');
    expect(report.decision.reasons.map((r) => r.code)).toContain('case-broken');
    const clock = report.candidate.caseResults.find((r) => r.id === 'recorded.Clock.Now')!;
    expect(clock.failures.map((f) => f.check)).toEqual(['structured']);
    expect(existsSync(marker)).toBe(false);
  }, 30_000);

  it('a second record keeps the cases a person edited and adds the new tools', async () => {
    const edited = readFileSync(dataset, 'utf8').replace('userTask: Call Clock.Now as recorded.', 'userTask: What time is it in the shop?');
    writeFileSync(dataset, edited);
    const again = await runCli(['record', '--profile', 'v2', '--args', 'args.yaml'], { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('added 1 tool(s) to datasets/recorded.cases.yaml, kept its 6 case(s)');
    const text = readFileSync(dataset, 'utf8');
    expect(text.startsWith(edited)).toBe(true);
    expect([...casesOf(dataset).keys()]).toEqual([
      'recorded.Clock.Now',
      'recorded.Lookup.ByCode',
      'recorded.Orders.Find',
      'recorded.Orders.Get',
      'recorded.Report.Big',
      'recorded.Server.Info',
      'recorded.Orders.Count',
    ]);
    const third = await runCli(['record', '--profile', 'v2', '--args', 'args.yaml'], { cwd: dir });
    expect(third.stderr).toContain('already has a case for every tool');
    expect(readFileSync(dataset, 'utf8')).toBe(text);
    expect(existsSync(marker)).toBe(false);
  }, 30_000);

  it('says what is wrong with the --args file, and writes nothing', async () => {
    writeFileSync(join(dir, 'bad-args.yaml'), 'Lookup.ByCode: FRA\n');
    const bad = await runCli(['record', '--args', 'bad-args.yaml', '-o', 'other.yaml'], { cwd: dir });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain('bad-args.yaml:1: Lookup.ByCode: must be an object of arguments');
    expect(existsSync(join(dir, 'other.yaml'))).toBe(false);
  });
});

describe('a server that will not start: init and record show its stderr and name the likely cause', () => {
  const CRASH = join(ROOT, 'test/fixtures/servers/crash-server.mjs');
  const project = (profile: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-record-crash-'));
    writeFileSync(
      join(dir, 'gate.config.yaml'),
      ['version: 1', 'profiles:', `  live: ${profile}`, 'baseline: live', 'candidate: live', ''].join('\n'),
    );
    return dir;
  };

  it('record: an npm 404 is named as a missing package, not blamed on the protocol era', async () => {
    const dir = project(`{ command: node, args: [${CRASH}, npm-404] }`);
    const result = await runCli(['record'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      'mcp-gate: cannot decide: profile "live" is unavailable (initialize): npm has no package "@acme/no-such-mcp" (npm 404): check its name and version in the profile\'s args',
    );
    expect(result.stderr).not.toContain('2025-era');
    expect(result.stderr).toContain('server stderr (tail):\nnpm error code E404\n');
    expect(existsSync(join(dir, 'datasets'))).toBe(false);
  });

  it('record: a script that is not there is named as a bad path (MODULE_NOT_FOUND)', async () => {
    const dir = project('{ command: node, args: [dist/no-such-server.js] }');
    const result = await runCli(['record'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`the file "${join(dir, 'dist/no-such-server.js')}" does not exist (MODULE_NOT_FOUND)`);
    expect(result.stderr).toContain("code: 'MODULE_NOT_FOUND'");
  });

  it('init: an unset variable is named, with the env line that passes it, and nothing is written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-init-crash-'));
    const result = await runCli(['init', '--', 'node', CRASH, 'env'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('the server needs the variable ACME_TOKEN, which it does not see');
    expect(result.stderr).toContain('env: { ACME_TOKEN: "${ACME_TOKEN}" }');
    expect(result.stderr).toContain('server stderr (tail):\nacme-mcp: starting\nError: ACME_TOKEN environment variable is required');
    expect(existsSync(join(dir, 'gate.config.yaml'))).toBe(false);
  });
});
