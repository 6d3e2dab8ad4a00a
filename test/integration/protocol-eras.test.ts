import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { freePort } from '../helpers/http.js';
import { processesMatching } from '../helpers/processes.js';
import type { Report } from '../../src/report/types.js';

// era-modern-server.mjs is built with the SDK v2 server package and speaks only 2026-07-28 (it
// rejects initialize), or both eras with --eras=both; era-legacy-server.mjs is built with the v1
// package and knows only initialize. Both serve the same tools (era-tools.mjs); release 2 removes one.
const CONFIG = join(ROOT, 'test/fixtures/servers/eras.config.yaml');
const gate = async (baseline: string, candidate: string, env: Record<string, string> = {}) => {
  const result = await runCli(['run', '-c', CONFIG, '--baseline', baseline, '--candidate', candidate, '--format', 'json', '--quiet'], {
    env,
  });
  const report = JSON.parse(result.stdout) as Report;
  return {
    code: result.code,
    report,
    verdict: report.decision.verdict,
    reasons: report.decision.reasons.map((r) => [r.code, r.action]),
    changes: report.diff.changes.map((c) => [c.code, c.severity]),
    sides: [report.baseline.server, report.candidate.server].map((s) => [s.era, s.protocolVersion]),
  };
};

describe('both protocol eras, through the SDK v2 client', () => {
  afterAll(() => {
    expect(processesMatching('--tag=eras-')).toEqual([]);
  });

  it('modern against modern: a 2026-07-28-only server is gated through server/discover', async () => {
    const same = await gate('modern', 'modern');
    expect(same.sides).toEqual([
      ['modern', '2026-07-28'],
      ['modern', '2026-07-28'],
    ]);
    expect([same.verdict, same.changes, same.code]).toEqual(['Promote', [], 0]);
    expect(same.report.candidate.server.name).toBe('era-desk'); // the identity from server/discover's _meta
    expect(same.report.candidate.toolCount).toBe(2);

    const removed = await gate('modern', 'modern-2');
    expect(removed.sides.map(([era]) => era)).toEqual(['modern', 'modern']);
    expect([removed.verdict, removed.reasons, removed.code]).toEqual(['Rollback', [['tool-removed', 'rollback']], 1]);
  });

  it('legacy against legacy: a server of the v1 package falls back to initialize', async () => {
    const same = await gate('legacy', 'legacy');
    expect(same.sides).toEqual([
      ['legacy', '2025-11-25'],
      ['legacy', '2025-11-25'],
    ]);
    expect([same.verdict, same.changes, same.code]).toEqual(['Promote', [], 0]);

    const removed = await gate('legacy', 'legacy-2');
    expect([removed.verdict, removed.reasons, removed.code]).toEqual(['Rollback', [['tool-removed', 'rollback']], 1]);
  });

  it('legacy to modern: the era change holds, and says so', async () => {
    const up = await gate('legacy', 'modern');
    expect(up.sides).toEqual([
      ['legacy', '2025-11-25'],
      ['modern', '2026-07-28'],
    ]);
    // The two SDKs write a different $schema into the same zod schema, and only the v1 package writes
    // out the default task support (execution.taskSupport "forbidden"): safe changes that move nothing.
    expect(up.changes).toEqual([
      ['protocol-version-changed', 'dangerous'],
      ['task-support-changed', 'safe'],
      ['schema-annotation-changed', 'safe'],
      ['task-support-changed', 'safe'],
    ]);
    expect([up.verdict, up.reasons, up.code]).toEqual(['Hold', [['protocol-version-changed', 'hold']], 2]);
    const message = up.report.diff.changes[0]!.message;
    expect(message).toContain('an era change: from the 2025 era');
    expect(message).toContain('clients that speak only the 2025 revisions can no longer connect');
  });

  it('modern to legacy: the era change holds too', async () => {
    const down = await gate('modern', 'legacy');
    expect(down.sides).toEqual([
      ['modern', '2026-07-28'],
      ['legacy', '2025-11-25'],
    ]);
    expect([down.verdict, down.reasons, down.code]).toEqual(['Hold', [['protocol-version-changed', 'hold']], 2]);
    expect(down.report.diff.changes[0]!.message).toContain('an era change: from the 2026 era');
  });

  it("a server of both eras negotiates the modern one; text and markdown show each side's era", async () => {
    const both = await gate('both', 'modern');
    expect(both.sides).toEqual([
      ['modern', '2026-07-28'],
      ['modern', '2026-07-28'],
    ]);
    expect(both.verdict).toBe('Promote');
    const text = await runCli(['run', '-c', CONFIG, '--baseline', 'legacy', '--candidate', 'modern', '--quiet']);
    expect(text.stdout).toContain('baseline   legacy (stdio, era-desk 1.0.0, protocol 2025-11-25 (legacy era))');
    expect(text.stdout).toContain('candidate  modern (stdio, era-desk 1.0.0, protocol 2026-07-28 (modern era))');
    const markdown = await runCli([
      'run',
      '-c',
      CONFIG,
      '--baseline',
      'legacy',
      '--candidate',
      'modern',
      '--quiet',
      '--format',
      'markdown',
    ]);
    expect(markdown.stdout).toContain('| protocol | 2025-11-25 (legacy era) | 2026-07-28 (modern era) |');
  });

  it('over streamable HTTP too: a 2026-07-28-only endpoint (createMcpHandler) reads as over stdio', async () => {
    const env = { ERAS_PORT: String(await freePort()) };
    const same = await gate('modern', 'modern-http', env);
    expect(same.sides).toEqual([
      ['modern', '2026-07-28'],
      ['modern', '2026-07-28'],
    ]);
    expect([same.verdict, same.changes, same.code]).toEqual(['Promote', [], 0]);
    expect(same.report.candidate.contractHash).toBe(same.report.baseline.contractHash);
    const across = await gate('legacy', 'modern-http', { ERAS_PORT: String(await freePort()) });
    expect([across.verdict, across.reasons]).toEqual(['Hold', [['protocol-version-changed', 'hold']]]);
  });
});
