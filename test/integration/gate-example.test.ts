import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, scratchProject } from '../helpers/cli.js';
import { processesMatching } from '../helpers/processes.js';
import { readReportFile, stable } from '../helpers/report.js';
import type { Report } from '../../src/report/types.js';

const reportsIn = (dir: string) =>
  readdirSync(join(dir, 'reports'))
    .filter((f) => f.endsWith('.json'))
    .sort();

describe('mcp-gate run on the Support Ops example (real servers over stdio)', () => {
  let dir: string;
  let rollback: { code: number | null; stdout: string; stderr: string };
  let report: Report;

  beforeAll(async () => {
    dir = scratchProject();
    rollback = await runCli(['run'], { cwd: dir });
    const files = reportsIn(dir);
    expect(files).toHaveLength(1);
    report = readReportFile(join(dir, 'reports', files[0]!));
  });

  it('exits 1 for Rollback and saves a report named as the interface says', () => {
    expect(rollback.code).toBe(1);
    expect(reportsIn(dir)[0]).toMatch(/^\d{8}T\d{6}Z-baseline-to-candidate\.json$/);
    expect(rollback.stdout).toContain(`Report: reports/${reportsIn(dir)[0]}`);
  });

  it('records the walkthrough facts: tools, pass rates, diff counts', () => {
    expect([report.baseline.toolCount, report.candidate.toolCount]).toEqual([5, 6]);
    expect(report.baseline.cases).toMatchObject({ total: 3, passed: 3, failed: 0, skipped: 0, passRate: 1 });
    expect(report.candidate.cases).toMatchObject({ total: 3, passed: 0, failed: 3, skipped: 0, passRate: 0 });
    expect(report.diff.summary).toMatchObject({
      addedTools: 1,
      removedTools: 0,
      schemaBreakages: 1,
      readOnlyHintRegressions: 0,
      addedDestructiveTools: 1,
    });
    expect(report.baseline.server).toMatchObject({ name: 'support-ops', version: '1.4.0', protocolVersion: '2025-11-25' });
    expect(report.candidate.server.version).toBe('1.5.0');
  });

  it('decides Rollback for the three reasons of the interface, in order', () => {
    expect(report.decision.verdict).toBe('Rollback');
    expect(report.decision.reasons.map((r) => [r.code, r.action, r.count])).toEqual([
      ['required-argument-removed', 'rollback', 1],
      ['tool-added-destructive', 'rollback', 1],
      ['case-broken', 'rollback', 3],
      // The candidate ships a breaking change under 1.4.0 -> 1.5.0, a minor bump (docs/releases.md,
      // "The version bump"). The verdict stays Rollback.
      ['version-bump-too-small', 'hold', 1],
    ]);
    expect(report.decision.reasons.map((r) => r.message)).toEqual([
      'Required arguments removed: 1 (Incident.Declare).',
      'Candidate introduced new destructive MCP tools into the role surface.',
      'Candidate failed 3 frozen role cases.',
      'Breaking changes under a version bump too small for them: 1.',
    ]);
    expect(report.release).toMatchObject({ baselineVersion: '1.4.0', candidateVersion: '1.5.0', needed: 'major', actual: 'minor' });
  });

  it('lists why each candidate case failed', () => {
    const failures = Object.fromEntries(report.candidate.caseResults.map((r) => [r.id, r.failures.map((f) => [f.code, f.tool])]));
    expect(failures['TG-001']).toEqual([['forbidden-tool-exposed', 'Deployments.Rollback']]);
    expect(failures['TG-002']).toEqual([['forbidden-tool-exposed', 'Deployments.Rollback']]);
    expect(failures['TG-003']).toEqual(
      expect.arrayContaining([
        ['required-argument-missing', 'Incident.Declare'],
        ['forbidden-tool-exposed', 'Deployments.Rollback'],
      ]),
    );
    expect(report.candidate.caseResults[2]!.failures[0]!.message).toContain('severity');
    expect(report.baseline.caseResults.every((r) => r.passed && r.probes.every((p) => p.status === 'called' && p.isError === false))).toBe(
      true,
    );
  });

  it('prints the text summary with the facts a person needs', () => {
    const out = rollback.stdout;
    expect(out).toMatch(/tools\s+5\s+6/);
    expect(out).toMatch(/pass rate\s+100% \(3\/3\)\s+0% \(0\/3\)/);
    expect(out).toContain('added tools 1, removed tools 0, schema breakages 1, read-only hint regressions 0, added destructive tools 1');
    expect(out).toContain('Decision: Rollback');
    expect(out).toContain('candidate TG-003: required argument severity is missing in Incident.Declare');
    expect(rollback.stderr).toContain('mcp-gate: connecting');
  });

  it('leaves no server process behind', () => {
    expect(processesMatching(`--tag=${dir}`)).toEqual([]);
  });

  it('is deterministic: a second run gives the same report once times are removed', async () => {
    const again = await runCli(['run', '--quiet'], { cwd: dir });
    expect(again.code).toBe(1);
    const files = reportsIn(dir);
    expect(files).toHaveLength(2);
    const second = readReportFile(join(dir, 'reports', files[1]!));
    expect(stable(second)).toEqual(stable(report));
  });
});

describe('other scenarios', () => {
  it('MCPGATE_CANDIDATE=candidate-safe promotes and exits 0', async () => {
    const dir = scratchProject();
    const result = await runCli(['run'], { cwd: dir, env: { MCPGATE_CANDIDATE: 'candidate-safe' } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Decision: Promote');
    const report = readReportFile(join(dir, 'reports', reportsIn(dir)[0]!));
    expect(report.decision).toMatchObject({ verdict: 'Promote', reasons: [] });
    expect(report.candidate.cases).toMatchObject({ passed: 3, passRate: 1 });
    expect(report.diff.changes.map((c) => [c.code, c.severity, c.tool])).toEqual([['tool-added', 'safe', 'Runbooks.Search']]);
  });

  it('MCPGATE_CANDIDATE=candidate-template: a resource template whose variable was renamed is a Rollback on its own', async () => {
    const dir = scratchProject();
    const result = await runCli(['run', '--format', 'json'], { cwd: dir, env: { MCPGATE_CANDIDATE: 'candidate-template' } });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.diff.changes.map((c) => [c.code, c.severity, c.before, c.after])).toEqual([
      ['resource-template-variables-changed', 'breaking', 'support-ops://tickets/{ticketId}', 'support-ops://tickets/{id}'],
    ]);
    // A break under 1.4.0 -> 1.4.2, a patch bump, also holds (version-bump-too-small); the template rolls back.
    expect(report.decision.reasons.map((r) => [r.code, r.action])).toEqual([
      ['resource-template-variables-changed', 'rollback'],
      ['version-bump-too-small', 'hold'],
    ]);
    // Both sides carry what they offer beside the tools: the prompt, unchanged, and the template.
    expect(report.baseline.features?.prompts?.map((p) => [p.name, p.arguments.map((a) => [a.name, a.required])])).toEqual([
      [
        'Incident.Triage',
        [
          ['summary', true],
          ['service', false],
        ],
      ],
    ]);
    expect(report.candidate.features?.resourceTemplates?.map((t) => [t.uriTemplate, t.variables])).toEqual([
      ['support-ops://tickets/{id}', ['id']],
    ]);
    // Every format of the saved report tells it: text and markdown (counts and the change), SARIF, JUnit.
    const saved = join(dir, 'reports', reportsIn(dir)[0]!);
    const show = async (format: string) => (await runCli(['show', saved, '--format', format], { cwd: dir })).stdout;
    const text = await show('text');
    expect(text).toMatch(/^ {2}templates +1 +1$/m);
    expect(text).toContain('resource-template-variables-changed: Resource template "support-ops://tickets/{ticketId}" became');
    const markdown = await show('markdown');
    expect(markdown).toContain('| templates | 1 | 1 |');
    expect(markdown).toContain('resource-template-variables-changed');
    const sarif = JSON.parse(await show('sarif')) as { runs: { results: { ruleId: string; level: string }[] }[] };
    expect(sarif.runs[0]!.results.map((r) => [r.ruleId, r.level])).toContainEqual(['resource-template-variables-changed', 'error']);
    expect(await show('junit')).toContain('resource-template-variables-changed');
  });

  it('--format json prints only the report on stdout', async () => {
    const dir = scratchProject();
    const result = await runCli(['run', '--format', 'json'], { cwd: dir });
    expect(result.code).toBe(1);
    const printed = JSON.parse(result.stdout) as Report;
    expect(printed.decision.verdict).toBe('Rollback');
    expect(printed.schemaVersion).toBe(1);
  });

  it('--fail-on never turns Rollback into exit 0 but keeps the verdict', async () => {
    const dir = scratchProject();
    const result = await runCli(['run', '--fail-on', 'never', '--quiet'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Decision: Rollback');
  });

  it('MCPGATE_PROMOTION__RULES__* and thresholds change the decision', async () => {
    const dir = scratchProject();
    const result = await runCli(['run', '--format', 'json', '--quiet'], {
      cwd: dir,
      env: {
        MCPGATE_PROMOTION__RULES__REQUIRED_ARGUMENT_REMOVED: 'hold',
        MCPGATE_PROMOTION__MAX_NEW_DESTRUCTIVE_TOOLS: '1',
        MCPGATE_PROMOTION__MAX_BROKEN_CASES: '3',
      },
    });
    const report = JSON.parse(result.stdout) as Report;
    // With broken cases tolerated, the forbidden exposure is no longer folded into case-broken.
    expect(report.decision.reasons.map((r) => [r.code, r.action])).toEqual([
      ['forbidden-tool-exposed', 'rollback'],
      ['required-argument-removed', 'hold'],
      ['version-bump-too-small', 'hold'],
    ]);
    expect(result.code).toBe(1);
  });

  it('a candidate whose command does not exist is a Rollback with candidate-unavailable', async () => {
    const dir = scratchProject();
    const result = await runCli(['run', '--format', 'json', '--quiet'], {
      cwd: dir,
      env: { MCPGATE_PROFILES__CANDIDATE__COMMAND: 'definitely-not-a-command-mcp-gate' },
    });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.decision.verdict).toBe('Rollback');
    expect(report.decision.reasons.map((r) => r.code)).toEqual(['candidate-unavailable']);
    expect(report.candidate).toMatchObject({ available: false, contractHash: null, error: { phase: 'spawn' } });
    expect(report.candidate.error!.message).toContain('ENOENT');
    expect(report.candidate.cases).toMatchObject({ total: 3, passed: 0, skipped: 3 });
    expect(report.diff.changes).toEqual([]);
  });
});

describe('cases of prompts and resources (datasets/support-ops.features.cases.yaml)', () => {
  const surfaceRun = async (candidate: string, edit?: (text: string) => string) => {
    const dir = scratchProject();
    const file = join(dir, 'datasets/support-ops.features.cases.yaml');
    if (edit) writeFileSync(file, edit(readFileSync(file, 'utf8')));
    const result = await runCli(['run', '--candidate', candidate, '--dataset', file, '--format', 'json'], { cwd: dir });
    return { ...result, report: result.stdout ? (JSON.parse(result.stdout) as Report) : null };
  };

  it('the same release on both sides: both cases probed (prompts/get, resources/read) and passed, Promote', async () => {
    const { code, report } = await surfaceRun('baseline');
    expect(code).toBe(0);
    expect(report!.candidate.caseResults.map((c) => [c.id, c.status, c.probes.map((p) => [p.kind, p.tool, p.status])])).toEqual([
      ['triage-prompt', 'passed', [['prompt', 'Incident.Triage', 'called']]],
      ['read-ticket', 'passed', [['resource', 'support-ops://tickets/TCK-1001', 'called']]],
    ]);
  });

  it('a template the candidate no longer lists breaks its case on the candidate only: case-broken, Rollback', async () => {
    const { code, report } = await surfaceRun('candidate-template');
    expect(code).toBe(1);
    const broken = report!.candidate.caseResults.find((c) => c.id === 'read-ticket')!;
    expect(broken.failures.map((f) => [f.code, f.tool])).toEqual([
      ['required-resource-template-missing', 'support-ops://tickets/{ticketId}'],
    ]);
    expect(report!.baseline.caseResults.every((c) => c.status === 'passed')).toBe(true);
    expect(report!.decision.reasons.map((r) => r.code)).toEqual([
      'case-broken',
      'resource-template-variables-changed',
      'version-bump-too-small',
    ]);
  });

  it('an expectation both sides miss is case-already-failing, not a regression: Promote', async () => {
    const { code, report } = await surfaceRun('candidate-safe', (t) =>
      t.replace('matches: "Search open tickets"', 'matches: "Escalate to legal"'),
    );
    expect(code).toBe(0);
    const failing = report!.candidate.caseResults.find((c) => c.id === 'triage-prompt')!;
    expect([failing.status, failing.regression, failing.failures.map((f) => f.check)]).toEqual(['failed', false, ['matches']]);
  });

  it('a prompt name neither side lists is a dataset problem (exit 3) with the closest name', async () => {
    const { code, stderr } = await surfaceRun('baseline', (t) => t.replace('- name: Incident.Triage', '- name: Incident.Triag'));
    expect(code).toBe(3);
    expect(stderr).toMatch(
      /support-ops\.features\.cases\.yaml:\d+: cases\[0\]\.requiredPrompts\[0\]\.name: names prompt "Incident\.Triag", which neither side lists \(did you mean "Incident\.Triage"\?\)/,
    );
  });

  it('a resource given both a uri and a uriTemplate is a dataset problem before any server starts', async () => {
    const { code, stderr } = await surfaceRun('baseline', (t) =>
      t.replace(
        '- uriTemplate: support-ops://tickets/{ticketId}',
        '- uri: support-ops://tickets/TCK-1\n        uriTemplate: support-ops://tickets/{ticketId}',
      ),
    );
    expect(code).toBe(3);
    expect(stderr).toMatch(/cases\[1\]\.requiredResources\[0\]: needs either uri .* or uriTemplate/);
    expect(stderr).not.toContain('connecting');
  });
});
