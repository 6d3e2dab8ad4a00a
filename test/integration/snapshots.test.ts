import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import type { Report } from '../../src/report/types.js';

const published = join(ROOT, 'test/fixtures/published/gate.config.yaml');
const fixtures = join(ROOT, 'test/fixtures/servers/gate.config.yaml');

describe('snapshot and diff commands', () => {
  it('snapshot is deterministic, and a snapshot stands in for the baseline in diff', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-snap-'));
    const first = join(dir, 'a.json');
    const second = join(dir, 'b.json');
    expect((await runCli(['snapshot', '-c', published, '--profile', 'filesystem-2026.1.14', '-o', first])).code).toBe(0);
    expect((await runCli(['snapshot', '-c', published, '--profile', 'filesystem-2026.1.14', '-o', second])).code).toBe(0);
    expect(readFileSync(first, 'utf8')).toBe(readFileSync(second, 'utf8'));
    const snapshot = JSON.parse(readFileSync(first, 'utf8')) as { kind: string; tools: { name: string }[] };
    expect(snapshot.kind).toBe('mcp-gate/contract');
    expect(snapshot.tools).toHaveLength(14);

    const result = await runCli(['diff', first, 'filesystem-2026.7.4', '-c', published, '--format', 'json', '--quiet']);
    expect(result.code).toBe(2); // Hold: move_file now says it may destroy (docs/judgements.md, F2)
    const report = JSON.parse(result.stdout) as Report;
    expect(report.baseline.transport).toBe('snapshot');
    expect(report.diff.changes.map((c) => [c.code, c.tool])).toEqual([['destructive-hint-regression', 'move_file']]);

    // Two snapshot files need no config at all.
    const same = await runCli(['diff', first, second, '--format', 'json', '--quiet'], { cwd: dir });
    expect(same.code).toBe(0);
    expect((JSON.parse(same.stdout) as Report).diff.changes).toEqual([]);

    // With -c, two snapshot files take the config's rules (they were once read without it, silently).
    const later = join(dir, 'later.json');
    expect((await runCli(['snapshot', '-c', published, '--profile', 'filesystem-2026.7.4', '-o', later])).code).toBe(0);
    expect((await runCli(['diff', first, later, '--format', 'json', '--quiet'], { cwd: dir })).code).toBe(2);
    writeFileSync(
      join(dir, 'rules.yaml'),
      [
        'version: 1',
        'profiles:',
        '  before: { transport: snapshot, path: a.json }',
        '  after: { command: node, args: [server.js] }', // a config's candidate is live; diff never starts it here
        'baseline: before',
        'candidate: after',
        'promotion: { rules: { destructive-hint-regression: ignore } }',
      ].join('\n'),
    );
    const ruled = await runCli(['diff', first, later, '-c', 'rules.yaml', '--format', 'json', '--quiet'], { cwd: dir });
    expect(ruled.code).toBe(0);
    const ruledReport = JSON.parse(ruled.stdout) as Report;
    expect(ruledReport.decision.verdict).toBe('Promote');
    expect(ruledReport.diff.changes.map((c) => c.code)).toEqual(['destructive-hint-regression']);
    // A config named with -c that cannot be read is an error, not the defaults.
    expect((await runCli(['diff', first, later, '-c', 'missing.yaml', '--quiet'], { cwd: dir })).code).toBe(3);
  });

  it('run gates a live candidate against a committed snapshot baseline; cases skip on the snapshot side', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-snaprun-'));
    const server = join(ROOT, 'examples/support-ops/dist/server.js');
    const snapshotFile = join(dir, 'baseline.contract.json');
    writeFileSync(
      join(dir, 'gate.config.yaml'),
      [
        'version: 1',
        'profiles:',
        `  live-baseline: { command: node, args: [${server}, baseline] }`,
        `  committed: { transport: snapshot, path: baseline.contract.json }`,
        `  candidate: { command: node, args: [${server}, candidate], allowSideEffects: true }`,
        'baseline: committed',
        'candidate: candidate',
        `datasets: [${join(ROOT, 'datasets/support-ops.cases.yaml')}]`,
        '',
      ].join('\n'),
    );
    expect((await runCli(['snapshot', '--profile', 'live-baseline', '-o', snapshotFile], { cwd: dir })).code).toBe(0);
    const result = await runCli(['run', '--format', 'json', '--quiet'], { cwd: dir });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.diff.summary).toMatchObject({ addedTools: 1, schemaBreakages: 1, addedDestructiveTools: 1 });
    expect(report.baseline.cases).toMatchObject({ total: 3, passed: 0, skipped: 3 });
    expect(report.baseline.caseResults[0]!.probes[0]!.reason).toContain('snapshot');
    expect(report.candidate.cases.failed).toBe(3);
  });

  it('a snapshot carries the prompts, resources and capabilities; one written before they were read still loads, compared on its tools only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-snap-'));
    const file = join(dir, 'everything.json');
    expect((await runCli(['snapshot', '-c', published, '--profile', 'everything-2026.1.14', '-o', file])).code).toBe(0);
    const snapshot = JSON.parse(readFileSync(file, 'utf8')) as { features: { prompts: { name: string }[]; resourceTemplates: unknown[] } };
    expect(snapshot.features.prompts.map((p) => p.name)).toEqual(['args-prompt', 'completable-prompt', 'resource-prompt', 'simple-prompt']);
    const same = await runCli(['diff', file, 'everything-2026.1.14', '-c', published, '--format', 'json', '--quiet']);
    expect((JSON.parse(same.stdout) as Report).diff.changes).toEqual([]);
    expect(same.code).toBe(0);

    const { features: _features, ...toolsOnly } = snapshot as unknown as Record<string, unknown>;
    const old = join(dir, 'old.json');
    writeFileSync(old, JSON.stringify(toolsOnly));
    const result = await runCli(['diff', old, 'everything-2026.1.14', '-c', published, '--format', 'json']);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.diff.changes).toEqual([]);
    expect(report.baseline.features).toBeUndefined();
    expect(result.stderr).toContain('note: the baseline snapshot holds tools only');
    const text = await runCli(['diff', old, 'everything-2026.1.14', '-c', published, '--quiet']);
    expect(text.stdout).toMatch(/^ {2}prompts +tools only +4$/m);
  });

  it('a bad snapshot file is exit 3 with the file and field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-badsnap-'));
    writeFileSync(join(dir, 'x.json'), JSON.stringify({ kind: 'something-else', tools: [] }));
    writeFileSync(join(dir, 'y.json'), JSON.stringify({ kind: 'mcp-gate/contract', schemaVersion: 1, tools: [] }));
    const result = await runCli(['diff', 'x.json', 'y.json'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('x.json:1: kind: must be "mcp-gate/contract"');
  });
});

describe('discovery against faulty servers never reads as "zero tools"', () => {
  it('invalid schemas on the baseline are protocol-violations there, and the tools are still compared', async () => {
    const result = await runCli(['diff', 'invalid-schemas', 'ok', '-c', fixtures, '--format', 'json', '--quiet']);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.baseline.toolCount).toBe(4);
    expect(report.baseline.discovery.errors.map((e) => e.tool)).toEqual(['alpha', 'beta', null, 'alpha', 'gamma']);
    expect(report.baseline.discovery.errors[0]!.message).toContain('inputSchema.type is missing');
    // Baseline violations are context: they do not hold the candidate. The diff still sees gamma and delta go,
    // and what changed against alpha's schema, which had no root type, is a repair to check, not a break.
    expect(report.decision.reasons.map((r) => r.code)).toEqual(['tool-removed', 'input-schema-repaired']);
    expect(report.diff.changes.filter((c) => c.code === 'tool-removed').map((c) => c.tool)).toEqual(['delta', 'gamma']);
  });

  it('the same violations introduced by the candidate hold it', async () => {
    const result = await runCli(['diff', 'ok', 'invalid-schemas', '-c', fixtures, '--format', 'json', '--quiet']);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.decision.reasons.find((r) => r.code === 'protocol-violation')).toMatchObject({ action: 'hold', count: 5 });
    // The audit reads the same listing as the model would.
    const audit = report.audit.findings.filter((f) => f.side === 'candidate').map((f) => [f.code, f.tool]);
    expect(audit).toEqual(
      expect.arrayContaining([
        ['tool-name-duplicate', 'alpha'],
        ['input-schema-invalid', 'alpha'],
        ['input-schema-invalid', 'beta'],
      ]),
    );
    expect(report.decision.reasons.find((r) => r.code === 'input-schema-invalid')).toMatchObject({
      action: 'hold',
      tools: ['alpha', 'beta', 'gamma'],
    });
  });

  it('a cursor cycle and an endless stream of pages are cut off with a protocol-violation', async () => {
    for (const [profile, text] of [
      ['cursor-cycle', 'cursor loop'],
      ['endless-pages', 'limits.maxPages (20)'],
    ]) {
      const result = await runCli(['diff', 'ok', profile!, '-c', fixtures, '--format', 'json', '--quiet'], { timeoutMs: 20_000 });
      const report = JSON.parse(result.stdout) as Report;
      expect(report.candidate.discovery.errors.map((e) => e.message).join('\n')).toContain(text);
      expect(report.candidate.toolCount).toBeGreaterThan(0);
    }
  });

  it('stdout noise between messages is tolerated and reported', async () => {
    const result = await runCli(['diff', 'ok', 'noise', '-c', fixtures, '--format', 'json', '--quiet']);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.candidate.toolCount).toBe(2);
    expect(report.candidate.discovery.errors[0]!.message).toContain('non-JSON-RPC line');
    expect(report.decision.verdict).toBe('Hold');
  });

  it('a live baseline whose tools cannot be listed is exit 3 with the reason', async () => {
    const result = await runCli(['run', '--baseline', 'list-error', '-c', fixtures]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('baseline profile "list-error" is unavailable (tools/list): MCP error -32603: database unavailable');
  });

  it('a candidate whose tools cannot be listed is a Rollback, not zero tools', async () => {
    const result = await runCli(['diff', 'ok', 'list-error', '-c', fixtures, '--format', 'json', '--quiet']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.decision.reasons.map((r) => r.code)).toEqual(['candidate-unavailable']);
    expect(report.diff.changes).toEqual([]);
  });
});
