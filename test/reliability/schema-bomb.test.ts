import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { Report } from '../../src/report/types.js';
import { audit, type AuditSide } from '../../src/audit/index.js';
import { DEFAULTS } from '../../src/config/types.js';
import { contractOf, fanOut, tool } from '../helpers/contracts.js';

/**
 * docs/security.md, "Work bounds every schema walk": a schema whose definitions fan out (each
 * level refers twice to the next: 2^n paths, no cycle) costs bounded work, and the run's deadline holds while the main thread walks schemas.
 * Snapshot files give the gate such contracts without a server.
 */
/** The same fan-out where a validator pays for it: each level requires the next twice at one place (allOf). */
function fanOutAllOf(levels: number): Record<string, unknown> {
  const $defs: Record<string, unknown> = {};
  for (let i = 0; i < levels; i++) $defs[`L${i}`] = { allOf: [{ $ref: `#/$defs/L${i + 1}` }, { $ref: `#/$defs/L${i + 1}` }] };
  $defs[`L${levels}`] = { type: 'object' };
  return { type: 'object', allOf: [{ $ref: '#/$defs/L0' }], $defs };
}

function bombs(tools: number, levels: number, limits: string[], runMs: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-bomb-'));
  for (const [file, leaf] of [
    ['before.json', 'string'],
    ['after.json', 'integer'],
  ] as const) {
    const list = Array.from({ length: tools }, (_, i) => ({
      name: `t${String(i).padStart(4, '0')}`,
      description: 'A tool whose arguments fan out.',
      inputSchema: fanOut(levels, leaf),
    }));
    writeFileSync(join(dir, file), JSON.stringify({ kind: 'mcp-gate/contract', schemaVersion: 1, tools: list }));
  }
  writeFileSync(
    join(dir, 'gate.config.yaml'),
    [
      'version: 1',
      'profiles:',
      '  before: { transport: snapshot, path: before.json }',
      '  after: { transport: snapshot, path: after.json }',
      // A config's candidate is a live server; `diff before after` compares the two snapshot profiles.
      '  live: { command: node, args: [server.mjs] }',
      'baseline: before',
      'candidate: live',
      `timeouts: { runMs: ${runMs} }`,
      ...(limits.length ? ['limits:', ...limits.map((l) => `  ${l}`)] : []),
      '',
    ].join('\n'),
  );
  return dir;
}

describe('a fan-out schema costs bounded work', () => {
  it('30 levels on 1,000 tools: every tool is held as too complex to compare, with the figure, within runMs', async () => {
    const dir = bombs(1000, 30, [], 60_000);
    const result = await runCli(['diff', 'before', 'after', '--format', 'json', '--quiet'], { cwd: dir, timeoutMs: 120_000 });
    expect(result.stderr).not.toContain('runMs');
    expect(result.code).toBe(2);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.diff.changes).toHaveLength(1000);
    expect(new Set(report.diff.changes.map((c) => `${c.code} ${c.path} ${c.severity}`))).toEqual(
      new Set(['schema-changed /inputSchema dangerous']),
    );
    // 1 + 4·(2^31 - 1) + 2·2^30 ... the exact figure, as the message tells it.
    expect(report.diff.changes[0]!.message).toMatch(/too complex to compare .*would cost [\d,]{13} schema nodes/);
    expect(report.diff.changes[0]!.message).toContain('limits.schemaNodesPerTool (20,000)');
    expect(report.decision.verdict).toBe('Hold');
    expect(report.decision.reasons.map((r) => [r.code, r.action, r.count])).toEqual([['schema-changed', 'hold', 1000]]);
  });

  it('a walk let past its budget still ends at runMs, with the deadline error and exit 3', async () => {
    // Budgets raised so far that the walk of 2^30 paths starts: only the deadline can end it.
    const dir = bombs(1, 30, ['schemaNodesPerTool: 1000000000000', 'schemaNodesPerRun: 1000000000000'], 3000);
    const result = await runCli(['diff', 'before', 'after', '--format', 'json', '--quiet'], { cwd: dir, timeoutMs: 60_000 });
    expect(result.stderr).toContain('the run exceeded timeouts.runMs (3000 ms) during the schema diff; every server was ended');
    expect(result.code).toBe(3);
  });
});

describe('the audit does not validate a result against a schema past the budget', () => {
  // Checking structuredContent against this outputSchema would call the validator 2^30 times.
  const observation = {
    caseId: 'C',
    tool: 't',
    args: {},
    result: { structuredContent: {}, content: [{ type: 'text', text: '{}' }] },
    resultBytes: 2,
  };
  const sides = (outputSchema: Record<string, unknown>): [AuditSide, AuditSide] => [
    { side: 'baseline', contract: contractOf(tool('t', { type: 'object' }, { outputSchema })), observations: [] },
    { side: 'candidate', contract: contractOf(tool('t', { type: 'object' }, { outputSchema })), observations: [observation] },
  ];

  it('30 levels: the result is not checked, and the finding gives the figure', () => {
    const { findings } = audit(...sides(fanOutAllOf(30)), DEFAULTS.audit);
    const skipped = findings.filter((f) => f.code === 'output-schema-too-complex' && f.caseId === 'C');
    expect(skipped.map((f) => [f.side, f.severity])).toEqual([['candidate', 'dangerous']]);
    expect(skipped[0]!.message).toMatch(/would cost [\d,]{13} schema nodes .*limits\.schemaNodesPerTool \(20,000\)/);
    expect(findings.filter((f) => f.code === 'structured-content-invalid')).toEqual([]);
  });

  it('a few levels, within the budget: the result is checked as before', () => {
    const { findings } = audit(...sides(fanOutAllOf(4)), DEFAULTS.audit);
    expect(findings.filter((f) => f.caseId === 'C').map((f) => f.code)).not.toContain('output-schema-too-complex');
    const failing = audit(...sides({ ...fanOutAllOf(4), required: ['id'] }), DEFAULTS.audit);
    expect(failing.findings.filter((f) => f.caseId === 'C').map((f) => f.code)).toContain('structured-content-invalid');
  });
});
