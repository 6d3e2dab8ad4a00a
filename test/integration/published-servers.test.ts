import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ROOT, runCli } from '../helpers/cli.js';
import { processesMatching } from '../helpers/processes.js';
import type { Report } from '../../src/report/types.js';

// Reference servers from npm, pinned in package.json, started over stdio. Their drift is real.
const config = join(ROOT, 'test/fixtures/published/gate.config.yaml');
const diff = async (before: string, after: string) => {
  const result = await runCli(['diff', before, after, '-c', config, '--format', 'json', '--quiet'], { timeoutMs: 60_000 });
  return { code: result.code, report: JSON.parse(result.stdout) as Report, stderr: result.stderr };
};
const pairs = (report: Report) => report.diff.changes.map((c) => [c.code, c.severity, c.tool]);

describe('published servers from npm', () => {
  it('sequential-thinking 2025.12.18 -> 2026.7.4: only safe hints added, so Promote', async () => {
    const { code, report } = await diff('seqthink-2025.12.18', 'seqthink-2026.7.4');
    expect(code).toBe(0);
    expect(report.decision.verdict).toBe('Promote');
    // The hints went from absent (spec defaults: the riskiest values) to read-only, idempotent, closed-world.
    expect(pairs(report)).toEqual([
      ['annotation-improved', 'safe', 'sequentialthinking'],
      ['annotation-improved', 'safe', 'sequentialthinking'],
      ['annotation-improved', 'safe', 'sequentialthinking'],
      ['annotation-improved', 'safe', 'sequentialthinking'],
    ]);
    expect(report.diff.changes.map((c) => c.path)).toEqual([
      '/annotations/destructiveHint',
      '/annotations/idempotentHint',
      '/annotations/openWorldHint',
      '/annotations/readOnlyHint',
    ]);
  });

  it('memory 2026.1.26 -> 2026.7.4: annotations added on nine tools, none riskier than the defaults, and a resource added, so Promote', async () => {
    const { code, report } = await diff('memory-2026.1.26', 'memory-2026.7.4');
    expect(code).toBe(0);
    expect(report.baseline.toolCount).toBe(9);
    expect(new Set(report.diff.changes.map((c) => c.code))).toEqual(
      new Set(['annotation-improved', 'hint-declaration-changed', 'resource-added', 'capability-added']),
    );
    expect(report.diff.changes.filter((c) => c.code === 'annotation-improved')).toHaveLength(24);
    // Hints written out at the value they had in effect: calm, but named, since each moves the tool's hash.
    expect(report.diff.changes.filter((c) => c.code === 'hint-declaration-changed')).toHaveLength(12);
    // 2026.7.4 serves the knowledge graph as a resource, under a resources capability 2026.1.26 did not declare.
    expect(report.diff.changes.filter((c) => c.tool === null).map((c) => [c.code, c.path])).toEqual([
      ['resource-added', '/resources/memory:~1~1knowledge-graph'],
      ['capability-added', '/capabilities/resources'],
    ]);
  });

  it('filesystem 2026.1.14 -> 2026.7.4: move_file now says it may destroy, so Hold (docs/judgements.md, F2)', async () => {
    const { code, report } = await diff('filesystem-2026.1.14', 'filesystem-2026.7.4');
    expect(code).toBe(2);
    expect([report.baseline.toolCount, report.candidate.toolCount]).toEqual([14, 14]);
    expect(report.diff.changes.map((c) => [c.code, c.severity, c.tool, c.before, c.after])).toEqual([
      ['destructive-hint-regression', 'dangerous', 'move_file', false, true],
    ]);
    expect(report.decision.reasons.map((r) => r.code)).toEqual(['destructive-hint-regression']);
    // The candidate was started through `sh -c`: its grandchild must be gone too.
    expect(processesMatching('mcp-filesystem-2026-07-04')).toEqual([]);
  });

  it('everything 2025.12.18 -> 2026.1.14: renames and removals that really happened', async () => {
    const { code, report } = await diff('everything-2025.12.18', 'everything-2026.1.14');
    expect(code).toBe(1);
    const renamed = report.diff.changes.filter((c) => c.code === 'tool-renamed').map((c) => [c.before, c.after]);
    expect(renamed).toEqual([
      ['add', 'get-sum'],
      ['annotatedMessage', 'get-annotated-message'],
      ['getResourceLinks', 'get-resource-links'],
      ['getTinyImage', 'get-tiny-image'],
      ['longRunningOperation', 'trigger-long-running-operation'],
      ['printEnv', 'get-env'],
      ['structuredContent', 'get-structured-content'],
    ]);
    expect(report.diff.changes.filter((c) => c.code === 'tool-removed').map((c) => c.tool)).toEqual([
      'getResourceReference',
      'sampleLLM',
      'zip',
    ]);
    expect(report.diff.summary).toMatchObject({ removedTools: 10, addedTools: 11, addedDestructiveTools: 11 });
    // No annotations at all on the new side: every new tool is destructive only by the spec defaults, and says so.
    expect(report.diff.changes.filter((c) => c.code === 'tool-added-destructive')).toEqual([]);
    const destructive = report.diff.changes.find((c) => c.code === 'tool-added-destructive-by-default')!;
    expect(destructive.message).toContain('declares no annotations, so this comes from the spec defaults');
    expect(report.candidate.server).toMatchObject({ name: 'mcp-servers/everything', version: '2.0.0' });
  });

  it('everything 2025.12.18 -> 2026.1.14 beside the tools: what a careful reader of both */list results says', async () => {
    const { report } = await diff('everything-2025.12.18', 'everything-2026.1.14');
    const beside = report.diff.changes.filter((c) => c.tool === null && c.code !== 'instructions-changed');
    const of = (code: string) => beside.filter((c) => c.code === code);
    // Prompts: simple_prompt and resource_prompt took hyphens (resource-prompt also needs resourceType now);
    // complex_prompt is gone; args-prompt and completable-prompt are new.
    expect(of('prompt-renamed').map((c) => [c.before, c.after])).toEqual([
      ['resource_prompt', 'resource-prompt'],
      ['simple_prompt', 'simple-prompt'],
    ]);
    expect(of('prompt-argument-required').map((c) => c.path)).toEqual(['/prompts/resource-prompt/arguments/resourceType']);
    expect(of('prompt-removed').map((c) => c.path)).toEqual(['/prompts/complex_prompt']);
    expect(of('prompt-added').map((c) => c.path)).toEqual(['/prompts/args-prompt', '/prompts/completable-prompt']);
    // Resources: the 100 test://static resources (10 pages of 10) gave way to 7 demo:// documents.
    expect(of('resource-removed')).toHaveLength(100);
    expect(of('resource-added')).toHaveLength(7);
    expect(report.baseline.features?.resources).toHaveLength(100);
    // Templates: test://static/resource/{id} is gone; two demo:// templates are new.
    expect(of('resource-template-removed').map((c) => c.before)).toEqual(['test://static/resource/{id}']);
    expect(of('resource-template-added').map((c) => c.after)).toEqual([
      'demo://resource/dynamic/blob/{resourceId}',
      'demo://resource/dynamic/text/{resourceId}',
    ]);
    // Capabilities: listChanged now declared for prompts, resources and tools; nothing dropped.
    expect(of('capability-added').map((c) => c.path)).toEqual([
      '/capabilities/prompts/listChanged',
      '/capabilities/resources/listChanged',
      '/capabilities/tools/listChanged',
    ]);
    expect(of('capability-removed')).toEqual([]);
    expect(report.decision.reasons.map((r) => r.code)).toEqual(
      expect.arrayContaining(['prompt-removed', 'prompt-renamed', 'resource-template-removed']),
    );
  });

  it('everything 2026.1.14 against itself: no change beside the tools either', async () => {
    const { code, report } = await diff('everything-2026.1.14', 'everything-2026.1.14');
    expect(report.diff.changes).toEqual([]);
    expect(report.candidate.features?.prompts?.map((p) => p.name)).toEqual([
      'args-prompt',
      'completable-prompt',
      'resource-prompt',
      'simple-prompt',
    ]);
    expect(code).toBe(0);
  });
});
