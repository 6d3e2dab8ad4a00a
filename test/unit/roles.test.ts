import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDatasets } from '../../src/cases/load.js';
import { InputError } from '../../src/base/problems.js';
import { roleBreakdown } from '../../src/roles/breakdown.js';
import { decideByRole } from '../../src/decide/decide.js';
import { collectSignals } from '../../src/decide/signals.js';
import { roleDefinitions, type RoleDefinition } from '../../src/roles/definitions.js';
import { toolMatcher } from '../../src/roles/glob.js';
import { roleFindings } from '../../src/roles/surface.js';
import { contractOf, tool } from '../helpers/contracts.js';

const readOnly = { annotations: { readOnlyHint: true } };
const destructive = { annotations: { readOnlyHint: false, destructiveHint: true } };
const scoped = (allowedTools: string[] | null, maxDestructiveTools: number | null = null): RoleDefinition => ({
  name: 'support-agent',
  datasets: [],
  surface: { allowedTools, maxDestructiveTools },
});

function datasetFiles(files: Record<string, string>): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-roles-'));
  return Object.entries(files).map(([name, text]) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  });
}

const problemsOf = (files: string[]): string[] => {
  try {
    loadDatasets(files);
  } catch (error) {
    if (error instanceof InputError) return error.problems.map((p) => `${p.path}: ${p.message}`);
    throw error;
  }
  return [];
};

const CASE = 'cases:\n  - id: C-1\n    userTask: do it\n    requiredTools: [{ toolName: A }]\n';

describe('allowlist globs', () => {
  it('matches exact names, * across dots, and ? for one character; nothing else', () => {
    const allows = toolMatcher(['Tickets.*', 'Incident.Declare', 'Run?ooks.Search']);
    expect(['Tickets.Search', 'Tickets.Get', 'Incident.Declare', 'Runbooks.Search'].every(allows)).toBe(true);
    expect(['Incident.Close', 'Tickets', 'XTickets.Get', 'Runbooks.SearchAll', 'Incident.Declare2'].some(allows)).toBe(false);
    expect(toolMatcher(['a+b'])('aab')).toBe(false); // regex characters are literal
  });
});

describe('dataset roles: a string or { name, allowedTools, maxDestructiveTools }', () => {
  it('keeps the string form and reads the object form', () => {
    const [plain, object] = loadDatasets(
      datasetFiles({
        'a.cases.yaml': `role: support-agent\n${CASE}`,
        'b.cases.yaml': `role: { name: incident-commander, allowedTools: [Incident.*], maxDestructiveTools: 1 }\n${CASE.replace('C-1', 'C-2')}`,
      }),
    );
    expect([plain!.role, plain!.surface]).toEqual(['support-agent', undefined]);
    // The scope carries where it is written: a role finding is placed there (findings/types.ts Source).
    expect([object!.role, object!.surface]).toEqual([
      'incident-commander',
      { allowedTools: ['Incident.*'], maxDestructiveTools: 1, source: { file: expect.stringMatching(/b\.cases\.yaml$/), line: 1 } },
    ]);
  });

  it('names the field of a bad role object', () => {
    const problems = problemsOf(
      datasetFiles({ 'a.cases.yaml': `role: { allowedTools: Tickets.*, maxDestructiveTools: -1, scope: x }\n${CASE}` }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        'role.name: is required but missing',
        expect.stringMatching(/^role\.allowedTools: must be array/),
        expect.stringMatching(/^role\.maxDestructiveTools: must be >= 0/),
        'role.scope: unknown key; remove it or check its spelling',
      ]),
    );
  });

  it('refuses one role scoped two ways in two files', () => {
    const problems = problemsOf(
      datasetFiles({
        'a.cases.yaml': `role: { name: ops, allowedTools: [A] }\n${CASE}`,
        'b.cases.yaml': `role: { name: ops, allowedTools: [A, B] }\n${CASE.replace('C-1', 'C-2')}`,
      }),
    );
    expect(problems).toEqual([expect.stringMatching(/^role: role "ops" is also scoped in .*a\.cases\.yaml/)]);
  });

  it('a case tagged with roles counts for each, after its dataset role', () => {
    const datasets = loadDatasets(datasetFiles({ 'a.cases.yaml': `role: ops\n${CASE}    roles: [support, finance]\n` }));
    expect(roleDefinitions(datasets).map((r) => r.name)).toEqual(['ops', 'support', 'finance']);
  });
});

describe('role-surface-leak and role-destructive-limit', () => {
  const baseline = contractOf(tool('Tickets.Search', undefined, readOnly), tool('Customers.Lookup', undefined, readOnly));
  const candidate = contractOf(
    tool('Tickets.Search', undefined, readOnly),
    tool('Customers.Lookup', undefined, readOnly),
    tool('Runbooks.Search', undefined, readOnly),
    tool('Tickets.Close', undefined, destructive),
  );

  it('a new tool outside the allowlist is a judged leak; one the baseline had is reported, not judged', () => {
    const findings = roleFindings(scoped(['Tickets.*']), baseline, candidate);
    expect(findings.map((f) => [f.code, f.tool, f.regression])).toEqual([
      ['role-surface-leak', 'Customers.Lookup', false],
      ['role-surface-leak', 'Runbooks.Search', true],
    ]);
    expect(roleFindings(scoped(['Tickets.*', 'Runbooks.*', 'Customers.*']), baseline, candidate)).toEqual([]);
  });

  it('counts destructive tools inside the allowlist against the cap', () => {
    const limits = (role: RoleDefinition) => roleFindings(role, baseline, candidate).filter((f) => f.code === 'role-destructive-limit');
    expect(limits(scoped(['Tickets.*'], 0)).map((f) => [f.tool, f.regression, f.message])).toEqual([
      [null, true, expect.stringContaining('Tickets.Close')],
    ]);
    expect(limits(scoped(['Tickets.*'], 1))).toEqual([]);
    expect(limits(scoped(['Customers.*'], 0))).toEqual([]); // Tickets.Close is not this role's
  });

  it('an unscoped role has no surface findings; an unavailable candidate neither', () => {
    expect(roleFindings({ name: 'x', datasets: [], surface: null }, baseline, candidate)).toEqual([]);
    expect(roleFindings(scoped(['Tickets.*']), baseline, null)).toEqual([]);
  });

  it('gives each role the verdict of its own signals', () => {
    const roles: RoleDefinition[] = [
      scoped(['Tickets.*', 'Customers.*']),
      { name: 'commander', datasets: [], surface: { allowedTools: ['*'], maxDestructiveTools: null } },
    ];
    const result = roleBreakdown(roles, { baseline, candidate }, { baseline: [], candidate: [] });
    const policy = { rules: {}, maxNewDestructiveTools: 0, maxBrokenCases: 0, exceptions: [] };
    const decided = decideByRole(
      collectSignals([], [], result.findings),
      policy,
      '2026-01-01',
      roles.map((r) => r.name),
    );
    expect(
      result.roles.map((r) => [r.name, decided.roles.get(r.name)!.verdict, decided.roles.get(r.name)!.reasons.map((x) => x.tools)]),
    ).toEqual([
      ['support-agent', 'Hold', [['Runbooks.Search']]],
      ['commander', 'Promote', []],
    ]);
    expect(result.findings.map((f) => f.tool)).toEqual(['Runbooks.Search']);
  });
});
