import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { freePort } from '../helpers/http.js';
import { processesMatching } from '../helpers/processes.js';
import type { Report } from '../../src/report/types.js';

// era-modern-server.mjs is built with the SDK v2 server package and speaks only 2026-07-28 (it
// rejects initialize), or both eras with --eras=both; era-legacy-server.mjs is built with the v1
// package and knows only initialize. Both serve the same tools (era-tools.mjs); release 2 removes one.
// When the sides' eras differ, the gate asks the candidate for the baseline's revision in a second
// session (src/contract/era-check.ts); the change's eraCheck says what was asked and answered.
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
    era: report.diff.changes.find((c) => c.code === 'protocol-version-changed')?.eraCheck,
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

  it("legacy to a 2026-only server: a second session at the baseline's revision is refused, so the era change holds, and says so", async () => {
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
    expect([up.era?.outcome, up.era?.revision]).toEqual(['not-served', '2025-11-25']);
    expect(up.era?.answer).toContain('Unsupported protocol version: 2025-11-25');
    const message = up.report.diff.changes[0]!.message;
    expect(message).toContain('an era change: from the 2025 era');
    expect(message).toContain(
      'Clients that speak only the 2025 revisions can no longer connect: a second session sent initialize, offering 2025-11-25, and the candidate refused it (initialize: MCP error -32022',
    );
  });

  // An SDK v2 server serves a 2025 client through initialize unless told not to: the era move strands nobody.
  it("legacy to a server of both eras: it still answers the baseline's revision with the same contract, so the move is news, not a Hold", async () => {
    const both = await gate('legacy', 'both');
    expect(both.sides).toEqual([
      ['legacy', '2025-11-25'],
      ['modern', '2026-07-28'],
    ]);
    // The SDK v2 server leaves out the default taskSupport: 'forbidden' the v1 one wrote: calm.
    expect(both.changes).toEqual([
      ['protocol-version-changed', 'safe'],
      ['task-support-changed', 'safe'],
      ['schema-annotation-changed', 'safe'],
      ['task-support-changed', 'safe'],
    ]);
    expect([both.verdict, both.reasons, both.code]).toEqual(['Promote', [], 0]);
    expect(both.era).toEqual({
      outcome: 'served',
      revision: '2025-11-25',
      tried: 'a second session sent initialize, offering 2025-11-25',
      answer: 'answered 2025-11-25 and listed the same contract (2 tools)',
    });
    expect(both.report.diff.changes[0]!.message).toContain("Clients of the baseline's revision still connect");

    // The revision asked is the baseline's, not the gate's newest: a baseline at 2025-06-18 is asked for that.
    const older = await gate('legacy-0618', 'both');
    expect(older.sides.map(([, version]) => version)).toEqual(['2025-06-18', '2026-07-28']);
    expect([older.verdict, older.era?.outcome, older.era?.revision, older.era?.answer]).toEqual([
      'Promote',
      'served',
      '2025-06-18',
      'answered 2025-06-18 and listed the same contract (2 tools)',
    ]);
  });

  it('a server of both eras that lists another contract to 2025 clients holds, naming what differs', async () => {
    const apart = await gate('legacy', 'both-apart');
    expect([apart.verdict, apart.reasons, apart.code]).toEqual(['Hold', [['protocol-version-changed', 'hold']], 2]);
    expect(apart.changes[0]).toEqual(['protocol-version-changed', 'dangerous']);
    expect(apart.era?.outcome).toBe('differs');
    expect(apart.era?.answer).toBe(
      'answered 2025-11-25 but listed another contract than at 2026-07-28: list_queues (not listed at this revision)',
    );
  });

  it("modern to legacy: the candidate's own session found no server/discover, so the era change holds too", async () => {
    const down = await gate('modern', 'legacy');
    expect(down.sides).toEqual([
      ['modern', '2026-07-28'],
      ['legacy', '2025-11-25'],
    ]);
    expect([down.verdict, down.reasons, down.code]).toEqual(['Hold', [['protocol-version-changed', 'hold']], 2]);
    expect([down.era?.outcome, down.era?.revision]).toEqual(['not-served', '2026-07-28']);
    expect(down.report.diff.changes[0]!.message).toContain('an era change: from the 2026 era');
    expect(down.report.diff.changes[0]!.message).toContain('Clients pinned to the 2026 revisions can no longer connect');
  });

  it('a candidate snapshot has no server to ask: the era change holds as the revisions tell, and says so', async () => {
    const dir = join(ROOT, 'test/fixtures/servers');
    const diff = async (...args: string[]) => {
      const result = await runCli(['diff', ...args, '--format', 'json'], { cwd: dir });
      const report = JSON.parse(result.stdout) as Report;
      return {
        code: result.code,
        verdict: report.decision.verdict,
        change: report.diff.changes.find((c) => c.code === 'protocol-version-changed')!,
      };
    };
    const frozen = await diff('era-legacy.contract.json', 'era-modern.contract.json');
    expect([frozen.verdict, frozen.code, frozen.change.severity, frozen.change.eraCheck?.outcome]).toEqual([
      'Hold',
      2,
      'dangerous',
      'not-checked',
    ]);
    expect(frozen.change.message).toContain(
      'Clients that speak only the 2025 revisions can no longer connect, as far as the revisions tell (the candidate was not asked for 2025-11-25: it is a snapshot, with no server to ask).',
    );
    // A baseline snapshot still holds the revision it negotiated: a live candidate is asked for it.
    const live = await diff('era-legacy.contract.json', 'both', '-c', 'eras.config.yaml');
    expect([live.verdict, live.code, live.change.severity, live.change.eraCheck?.outcome]).toEqual(['Promote', 0, 'safe', 'served']);
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
    expect([across.verdict, across.reasons, across.era?.outcome]).toEqual(['Hold', [['protocol-version-changed', 'hold']], 'not-served']);
    // The second session reaches the server the profile started (a second launch would find its port taken).
    const both = await gate('legacy', 'both-http', { ERAS_PORT: String(await freePort()) });
    expect([both.verdict, both.changes[0], both.era?.outcome, both.code]).toEqual([
      'Promote',
      ['protocol-version-changed', 'safe'],
      'served',
      0,
    ]);
  });
});
