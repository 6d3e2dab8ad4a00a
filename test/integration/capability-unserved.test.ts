import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/types.js';
import { ROOT, runCli } from '../helpers/cli.js';

/**
 * A capability the baseline declared and served nothing through (docs/verdicts.md, "A capability
 * that served nothing"), on a real SDK server (test/fixtures/servers/capability-server.mjs) whose
 * lists answer -32601, as shadcn 4.22.1's `resources` did (the thirteenth held-out set's FM4).
 */
const SERVER = join(ROOT, 'test/fixtures/servers/capability-server.mjs');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-gate-capability-'));
  const profile = (release: string) => `  ${release}: { command: node, args: [${SERVER}, ${release}] }`;
  writeFileSync(
    join(dir, 'gate.config.yaml'),
    [
      'version: 1',
      'profiles:',
      profile('unserved'),
      profile('served'),
      profile('tools'),
      'baseline: unserved',
      'candidate: tools',
      '',
    ].join('\n'),
  );
});

async function gate(baseline: string, candidate: string): Promise<{ code: number | null; report: Report }> {
  const result = await runCli(['run', '--format', 'json', '--quiet', '--baseline', baseline, '--candidate', candidate], {
    cwd: dir,
    timeoutMs: 60_000,
  });
  expect(result.code, result.stderr).not.toBe(3);
  return { code: result.code, report: JSON.parse(result.stdout) as Report };
}

const capabilityChanges = (report: Report) =>
  report.diff.changes
    .filter((c) => c.subject.kind === 'capability')
    .map((c) => [c.code, c.severity, (c.subject as { capability: readonly string[] }).capability.join('.')]);

describe('a capability that served nothing', () => {
  it('declared with every list failing, then dropped: reported, not held (Promote)', async () => {
    const { code, report } = await gate('unserved', 'tools');
    expect(capabilityChanges(report)).toEqual([
      ['capability-removed-unserved', 'safe', 'prompts'],
      ['capability-removed-unserved', 'safe', 'resources'],
    ]);
    expect(report.diff.changes.find((c) => c.code === 'capability-removed-unserved')!.message).toContain(
      'which served nothing: every list under it answered "Method not found" on the baseline',
    );
    // What it rests on is in the report: each list's method and the code it answered.
    expect(report.baseline.discovery.errors.map((e) => [e.method, e.code])).toEqual([
      ['prompts/list', -32601],
      ['resources/list', -32601],
      ['resources/templates/list', -32601],
    ]);
    expect([code, report.decision.verdict]).toEqual([0, 'Promote']);
  }, 60_000);

  it('declared and served, then dropped: held, with what it served', async () => {
    const { code, report } = await gate('served', 'tools');
    expect(capabilityChanges(report)).toEqual([
      ['capability-removed', 'dangerous', 'prompts'],
      ['capability-removed', 'dangerous', 'resources'],
    ]);
    // The prompt it listed is gone too (a Rollback of its own); the capability is among the reasons.
    expect([code, report.decision.verdict]).toEqual([1, 'Rollback']);
    expect(report.decision.reasons.map((r) => r.code)).toContain('capability-removed');
  }, 60_000);
});
