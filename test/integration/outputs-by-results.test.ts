import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/types.js';
import { runCli } from '../helpers/cli.js';

// outputs-server.mjs (real McpServer processes over stdio): the output fixes the write-ups ask for,
// judged with what the cases saw each release return (docs/verdicts.md, "Output changes and the results").
async function gate(baseline: string, candidate: string): Promise<{ code: number | null; report: Report }> {
  const result = await runCli([
    'run',
    '-c',
    'test/fixtures/servers/outputs.config.yaml',
    '--baseline',
    baseline,
    '--candidate',
    candidate,
    '--report-dir',
    mkdtempSync(join(tmpdir(), 'mcp-gate-outputs-')),
    '--format',
    'json',
    '--quiet',
  ]);
  return { code: result.code, report: JSON.parse(result.stdout) as Report };
}

const reasons = (r: Report) => r.decision.reasons.map((x) => [x.code, x.action, x.tools.join(',')]);
const outputs = (r: Report) =>
  r.diff.changes.filter((c) => c.code.startsWith('output-property')).map((c) => [c.tool, c.path, c.severity, c.results?.outcome ?? null]);
const findings = (r: Report, side: 'baseline' | 'candidate') =>
  r.audit.findings
    .filter((f) => f.side === side && f.caseId !== undefined)
    .map((f) => [f.code, f.caseId, f.direction ?? null, f.path ?? null]);

describe('output changes judged with the results the run saw', { timeout: 60_000 }, () => {
  it('before -> after (every fix): Hold, not Rollback; each fix listed as fixed, none raised as its mirror', async () => {
    const { code, report } = await gate('before', 'after');
    expect([report.decision.verdict, code]).toEqual(['Hold', 2]);
    expect(reasons(report)).toEqual([
      ['output-property-removed', 'hold', 'get_ticket,inspect_dataset'],
      ['output-constraint-loosened', 'hold', 'inspect_dataset'],
    ]);
    // The schema became a loose object, and every field is still in the result; the null keys went from both.
    expect(outputs(report)).toEqual([
      ['get_ticket', '/outputSchema/properties/eta', 'dangerous', 'only-null'],
      ['get_ticket', '/outputSchema/properties/merged_into', 'dangerous', 'only-null'],
      ['inspect_dataset', '/outputSchema/properties/columns', 'dangerous', 'still-returned'],
      ['inspect_dataset', '/outputSchema/properties/created_at', 'dangerous', 'still-returned'],
      ['inspect_dataset', '/outputSchema/properties/name', 'dangerous', 'still-returned'],
      ['inspect_dataset', '/outputSchema/properties/rows', 'dangerous', 'still-returned'],
    ]);
    const rows = report.diff.changes.find((c) => c.path === '/outputSchema/properties/rows')!;
    expect(rows.message).toBe(
      '"inspect_dataset" output no longer has field "rows". A result like `{"name":"x"}` may now be returned, which the baseline\'s schema refused: must have required property \'rows\'. No longer declared, still returned: every result of "inspect_dataset" the candidate gave in this run (1) carries it, so it is held, not rolled back.',
    );
    // Null keys in a single object that holds a list; an end signal on the last page; has_more dropped
    // with the hint now in the text; the 404 flagged: fixed, and no result-field-removed as their mirror.
    expect(findings(report, 'baseline')).toEqual([
      ['result-null-fields', 'OUT-ticket', 'fixed', null],
      ['pagination-hint-hidden', 'OUT-items-last-page', 'fixed', null],
      ['structured-content-without-text', 'OUT-events', 'fixed', null],
      ['pagination-hint-hidden', 'OUT-events', 'fixed', null],
      ['error-not-flagged', 'OUT-order-missing', 'fixed', null],
    ]);
    expect(findings(report, 'candidate')).toEqual([]);
    // The case never asked for isError; the baseline's answer was the same 404, written as data.
    const order = report.candidate.caseResults!.find((c) => c.id === 'OUT-order-missing')!;
    expect([order.status, order.regression, order.failures.map((f) => [f.code, f.regression])]).toEqual([
      'failed',
      false,
      [['probe-failed', false]],
    ]);
  });

  it('a reason raised only by the fix of a finding says so, in the decision itself', async () => {
    const { report } = await gate('before', 'nulls');
    expect(report.decision.verdict).toBe('Hold');
    expect(report.decision.reasons.map((r) => [r.code, r.action, r.message])).toEqual([
      ['output-property-removed', 'hold', 'Output fields removed: 2 (get_ticket); held: part of a fix for result-null-fields.'],
    ]);
    expect(findings(report, 'candidate').filter(([c]) => c === 'result-field-removed')).toEqual([]);
  });

  it('before -> broken: a field the baseline returned with a value and the candidate does not, and a tool never called, stay Rollback', async () => {
    const { code, report } = await gate('before', 'broken');
    expect([report.decision.verdict, code]).toEqual(['Rollback', 1]);
    expect(reasons(report).filter(([, action]) => action === 'rollback')).toEqual([
      ['output-property-removed', 'rollback', 'inspect_dataset,update_dataset'],
    ]);
    const removed = report.diff.changes.filter((c) => c.results?.outcome === 'gone' || c.results?.outcome === 'unseen');
    expect(removed.map((c) => [c.tool, c.path, c.severity, c.results!.outcome])).toEqual([
      ['inspect_dataset', '/outputSchema/properties/rows', 'breaking', 'gone'],
      // Its witness, {}, is refused for "ok" first: "name" is held unconfirmed, "ok" is the break.
      ['update_dataset', '/outputSchema/properties/name', 'dangerous', 'unseen'],
      ['update_dataset', '/outputSchema/properties/ok', 'breaking', 'unseen'],
    ]);
    expect(removed[1]!.message).toContain('No result of "update_dataset" was seen in this run, so this is judged from the schemas alone.');
    // Nothing else is spared: the field gone from the data is still raised on the result.
    expect(findings(report, 'candidate')).toEqual([['result-field-removed', 'OUT-dataset', 'new', '/structuredContent/rows']]);
  });
});
