import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { processesMatching } from '../helpers/processes.js';
import type { Report } from '../../src/report/types.js';

// unannotated-server.mjs declares no annotations on any tool, as many published servers do; its
// releases add a tool. promotion.unannotatedServers (default hold) is set through the environment.
const CONFIG = join(ROOT, 'test/fixtures/servers/unannotated.config.yaml');
const LIKE_SIBLINGS = { MCPGATE_PROMOTION__UNANNOTATED_SERVERS: 'like-siblings' };
const gate = async (baseline: string, candidate: string, env: Record<string, string> = {}) => {
  const result = await runCli(['run', '-c', CONFIG, '--baseline', baseline, '--candidate', candidate, '--format', 'json', '--quiet'], {
    env,
  });
  const report = JSON.parse(result.stdout) as Report;
  return {
    code: result.code,
    verdict: report.decision.verdict,
    reasons: report.decision.reasons.map((r) => [r.code, r.action, r.tools]),
    changes: report.diff.changes.map((c) => [c.code, c.severity, c.tool]),
  };
};

describe('a server that annotates none of its tools (promotion.unannotatedServers)', () => {
  afterAll(() => {
    expect(processesMatching('--tag=unannotated-')).toEqual([]);
  });

  it('holds a new bare tool by default: by the spec it may be destructive, and the server says nothing else', async () => {
    const held = await gate('v1', 'v2');
    expect([held.verdict, held.reasons, held.code]).toEqual(['Hold', [['tool-added-destructive-by-default', 'hold', ['add_category']]], 2]);
  });

  it('like-siblings: the new bare tool is judged like the bare tools already in production, and the release promotes', async () => {
    const judged = await gate('v1', 'v2', LIKE_SIBLINGS);
    expect([judged.verdict, judged.reasons, judged.code]).toEqual(['Promote', [], 0]);
    // Still reported: the change is there, only not held.
    expect(judged.changes).toEqual([
      ['tool-added', 'safe', 'add_category'],
      ['tool-added-destructive-by-default', 'dangerous', 'add_category'],
    ]);
  });

  it('like-siblings leaves the usual judgement to a new tool that declares a hint, and to a server that annotates any tool', async () => {
    const hinted = await gate('v1', 'v2-hinted', LIKE_SIBLINGS);
    expect([hinted.verdict, hinted.reasons, hinted.code]).toEqual([
      'Hold',
      [['tool-added-destructive-by-default', 'hold', ['add_category']]],
      2,
    ]);
    const annotated = await gate('annotated-v1', 'annotated-v2', LIKE_SIBLINGS);
    expect([annotated.verdict, annotated.reasons, annotated.code]).toEqual([
      'Hold',
      [['tool-added-destructive-by-default', 'hold', ['add_category']]],
      2,
    ]);
  });
});
