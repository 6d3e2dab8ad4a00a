import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import type { Report } from '../../src/report/types.js';

// A profile's safeTools (docs/config.md, "Side effects"): tools a person declares safe to call on a
// server whose hints do not say so. The write-ups fixture's before release leaves add_comment
// unannotated, so by the spec's defaults it is destructive and the gate does not call it unasked.
const SERVER = join(ROOT, 'test/fixtures/servers/writeups-server.mjs');

function project(safeTools: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-safe-tools-'));
  const profile = `{ command: node, args: [${JSON.stringify(SERVER)}, before]${safeTools.length ? `, safeTools: [${safeTools.join(', ')}]` : ''} }`;
  writeFileSync(
    join(dir, 'gate.config.yaml'),
    ['version: 1', 'profiles:', `  a: ${profile}`, `  b: ${profile}`, 'baseline: a', 'candidate: b', 'datasets: [cases.yaml]', ''].join(
      '\n',
    ),
  );
  writeFileSync(
    join(dir, 'cases.yaml'),
    [
      'role: triage',
      'cases:',
      '  - id: C-1',
      '    userTask: Comment on a request.',
      '    requiredTools:',
      '      - toolName: add_comment',
      '        probeArguments: { post_id: p_6d3a6284, body: Thanks }',
      '',
    ].join('\n'),
  );
  return dir;
}

const probeOf = (report: Report) => report.candidate.caseResults[0]!.probes[0]!;

describe('safeTools: tools a person declares safe to call', { timeout: 60_000 }, () => {
  it('an unannotated tool is not called unasked, and the reason names safeTools', async () => {
    const result = await runCli(['run', '--format', 'json', '--quiet'], { cwd: project([]) });
    const report = JSON.parse(result.stdout) as Report;
    expect(probeOf(report).status).toBe('skipped');
    expect(probeOf(report).reason).toContain("list it in the profile's safeTools");
    expect(report.audit.findings.some((f) => f.code === 'server-unannotated')).toBe(false); // the server annotates some tools
  });

  it('listed in safeTools, it is called on both sides', async () => {
    const result = await runCli(['run', '--format', 'json', '--quiet'], { cwd: project(['add_comment']) });
    const report = JSON.parse(result.stdout) as Report;
    expect([report.baseline.caseResults[0]!.probes[0]!.status, probeOf(report).status]).toEqual(['called', 'called']);
  });
});
