import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/report/markdown.js';
import type { Report } from '../../src/report/types.js';
import { runCli } from '../helpers/cli.js';
import { readReportFile } from '../helpers/report.js';

const CONFIG = 'examples/support-ops/roles.config.yaml';
const SUPPORT = 'datasets/roles/support-agent.cases.yaml';
const COMMANDER = 'datasets/roles/incident-commander.cases.yaml';

async function gate(args: string[]): Promise<{ code: number | null; stdout: string; report: Report }> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-roles-'));
  const result = await runCli(['run', '-c', CONFIG, '--report-dir', dir, '--format', 'json', '--quiet', ...args]);
  const report = JSON.parse(result.stdout) as Report;
  const { readdirSync } = await import('node:fs');
  readReportFile(join(dir, readdirSync(dir)[0]!)); // the saved report validates against the schema
  return { code: result.code, stdout: result.stdout, report };
}

describe('role-scoped surfaces on the Support Ops example (real servers over stdio)', () => {
  let both: Awaited<ReturnType<typeof gate>>;
  beforeAll(async () => {
    both = await gate([]);
  });

  it('the same candidate passes for the incident commander and is held for the support agent', () => {
    expect(both.report.roles!.map((r) => [r.name, r.verdict])).toEqual([
      ['support-agent', 'Hold'],
      ['incident-commander', 'Promote'],
    ]);
    expect(both.report.decision.verdict).toBe('Hold');
    expect(both.code).toBe(2);
  });

  it('lists the leak with the tool name, and keeps old exposure reported but not judged', () => {
    expect(both.report.decision.reasons.map((r) => [r.code, r.action, r.tools])).toEqual([
      ['role-surface-leak', 'hold', ['Runbooks.Search']],
    ]);
    const [support, commander] = both.report.roles!;
    expect(support!.findings.map((f) => [f.code, f.tool, f.regression])).toEqual([['role-surface-leak', 'Runbooks.Search', true]]);
    expect(commander!.findings.map((f) => [f.code, f.tool, f.regression])).toEqual([
      ['role-surface-leak', 'Customers.Lookup', false],
      ['role-surface-leak', 'Tickets.Reply', false],
    ]);
    expect(commander!.surface!.allowed).toEqual(['Incident.Declare', 'Runbooks.Search', 'Tickets.Get', 'Tickets.Search']);
  });

  it('a case tagged with two roles counts in both breakdowns', () => {
    expect(both.report.roles!.map((r) => [r.name, r.cases.candidate.total, r.cases.candidate.passed])).toEqual([
      ['support-agent', 2, 2],
      ['incident-commander', 2, 2],
    ]);
    expect(both.report.candidate.caseResults.find((r) => r.id === 'IC-002')!.roles).toEqual(['incident-commander', 'support-agent']);
  });

  it('gated for one role at a time: Promote (exit 0) for the commander, Hold (exit 2) for the support agent', async () => {
    const [commander, support] = await Promise.all([gate(['--dataset', COMMANDER]), gate(['--dataset', SUPPORT])]);
    expect([commander.report.decision.verdict, commander.code]).toEqual(['Promote', 0]);
    expect([support.report.decision.verdict, support.code]).toEqual(['Hold', 2]);
  });

  it('caps destructive tools per role: the commander may hold one, the candidate gives it two', async () => {
    const rollback = await gate(['--candidate', 'candidate']);
    const commander = rollback.report.roles!.find((r) => r.name === 'incident-commander')!;
    expect(commander.findings.filter((f) => f.code === 'role-destructive-limit').map((f) => f.message)).toEqual([
      'role incident-commander may use 2 destructive tools (Deployments.Rollback, Incident.Declare); maxDestructiveTools is 1',
    ]);
    expect(commander.verdict).toBe('Hold');
    expect(rollback.report.roles!.find((r) => r.name === 'support-agent')!.verdict).toBe('Rollback'); // its case forbids Deployments.Rollback
  });

  it('the markdown shows the per-role table too', () => {
    const markdown = renderMarkdown(both.report);
    expect(markdown).toContain('| support-agent | 2/2 | Runbooks.Search | ⚠️ Hold |');
    expect(markdown).toContain('| incident-commander | 2/2 | Customers.Lookup (baseline too), Tickets.Reply (baseline too) | ✅ Promote |');
  });

  it('the text output shows the per-role table', async () => {
    const text = await runCli(['run', '-c', CONFIG, '--report-dir', mkdtempSync(join(tmpdir(), 'mcp-gate-roles-')), '--quiet']);
    expect(text.stdout).toMatch(/support-agent\s+2\/2\s+5 of 6\s+Runbooks\.Search\s+Hold/);
    expect(text.stdout).toMatch(
      /incident-commander\s+2\/2\s+4 of 6\s+Customers\.Lookup \(baseline too\), Tickets\.Reply \(baseline too\)\s+Promote/,
    );
  });
});
