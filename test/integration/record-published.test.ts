import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';

/**
 * `record` on published servers (devDependencies at pinned versions; docs/record.md, "Two server
 * processes"): after `init` and `record`, the same release gates Promote. server-everything hands
 * each process its own environment (the gate's run tag differs between the two processes record
 * starts), and annotates no tool; server-memory 2026.1.26 annotates none either, 2026.7.4 does.
 */
function project(server: string, entry: string, args: string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-record-published-'));
  const command = { command: 'node', args: [join(ROOT, 'node_modules', entry), ...args] };
  writeFileSync(join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { [server]: command } }));
  return dir;
}

type Cases = { cases: { id: string; sideEffects?: string; requiredTools: { toolName: string; volatile?: string[] }[] }[] };
const run = async (dir: string) => {
  const result = await runCli(['run', '--format', 'json', '--quiet'], { cwd: dir, timeoutMs: 60_000 });
  return { code: result.code, report: JSON.parse(result.stdout) as { decision: { verdict: string }; candidate: { cases: unknown } } };
};

describe('record on published servers, then the same release: Promote', { timeout: 120_000 }, () => {
  it('server-everything: nothing annotated, so a dataset with every tool commented out; with safeTools, what differs between processes is volatile', async () => {
    const dir = project('everything', 'mcp-everything-2026-01-14/dist/index.js', ['stdio']);
    const init = await runCli(['init'], { cwd: dir, timeoutMs: 60_000 });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stderr).toContain('The server annotates no tool');
    // Proposed for safeTools, for a person to confirm: the bare tools whose names read as lookups.
    const proposed = /named like lookups: (.*)\. If calling them/.exec(init.stderr)?.[1]?.split(', ');
    expect(proposed?.sort()).toEqual([
      'get-annotated-message',
      'get-env',
      'get-resource-links',
      'get-resource-reference',
      'get-structured-content',
      'get-sum',
      'get-tiny-image',
    ]);
    const starter = readFileSync(join(dir, 'datasets/starter.cases.yaml'), 'utf8');
    expect((parse(starter) as Cases).cases.map((c) => c.id)).toEqual(['recorded.tools-listed']);
    expect(starter.match(/^ {2}# - id: /gm)).toHaveLength(12);
    expect(await run(dir)).toMatchObject({ code: 0, report: { decision: { verdict: 'Promote' } } });

    // A person declares the tools that only read safe to call, and records again.
    const safe = ['echo', 'get-env', 'get-sum', 'get-structured-content', 'get-tiny-image', 'get-resource-links', 'get-resource-reference'];
    const config = join(dir, 'gate.config.yaml');
    writeFileSync(
      config,
      readFileSync(config, 'utf8').replace(
        '    allowSideEffects: false\n',
        `    allowSideEffects: false\n    safeTools: [${safe.join(', ')}]\n`,
      ),
    );
    const record = await runCli(['record', '--force'], { cwd: dir, timeoutMs: 60_000 });
    expect(record.code, record.stderr).toBe(0);
    const cases = (parse(readFileSync(join(dir, 'datasets/starter.cases.yaml'), 'utf8')) as Cases).cases;
    expect(cases.map((c) => c.requiredTools[0]!.toolName).sort()).toEqual([...safe].sort());
    // Each process gets its own run tag in its environment: one process would have frozen it. It
    // also gets its own TMPDIR (TMP, TEMP), as run gives each side: recorded in the gate's own, the
    // case froze a path that run's server never sees, and the same release rolled back.
    expect(cases.find((c) => c.id === 'recorded.get-env')!.requiredTools[0]!.volatile).toEqual([
      '/MCPGATE_RUN',
      '/TEMP',
      '/TMP',
      '/TMPDIR',
    ]);
    const same = await run(dir);
    expect(same).toMatchObject({ code: 0, report: { decision: { verdict: 'Promote' }, candidate: { cases: { passed: 7, total: 7 } } } });
  });

  it('server-memory: the annotated release records its read-only tools, the unannotated one writes its dataset instead of exit 3', async () => {
    const annotated = project('memory', 'mcp-memory-2026-07-04/dist/index.js');
    const init = await runCli(['init'], { cwd: annotated, timeoutMs: 60_000 });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stderr).toContain('calling again, in a new server process');
    expect(await run(annotated)).toMatchObject({
      code: 0,
      report: { decision: { verdict: 'Promote' }, candidate: { cases: { passed: 3, total: 3 } } },
    });

    const bare = project('memory', 'mcp-memory-2026-01-26/dist/index.js');
    const initBare = await runCli(['init'], { cwd: bare, timeoutMs: 60_000 });
    expect(initBare.code, initBare.stderr).toBe(0);
    const dataset = readFileSync(join(bare, 'datasets/starter.cases.yaml'), 'utf8');
    expect(dataset).toContain("# The server annotates no tool, so by the spec's defaults every tool may change something");
    expect(dataset.match(/^ {2}# - id: /gm)).toHaveLength(9);
    expect(initBare.stderr).toContain('named like lookups: read_graph, search_nodes. If calling them changes nothing');
    expect(await run(bare)).toMatchObject({ code: 0, report: { decision: { verdict: 'Promote' }, candidate: { cases: { total: 1 } } } });

    // The person's word on the command line: the two lookups are called, their cases allow side
    // effects, and run replays them on both sides with no change to the config.
    const confirmed = await runCli(['record', '--force', '--confirm-lookups'], { cwd: bare, timeoutMs: 60_000 });
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(confirmed.stderr).toContain('--confirm-lookups: calling read_graph, search_nodes');
    expect(confirmed.stderr).not.toContain('named like lookups:');
    const recorded = (parse(readFileSync(join(bare, 'datasets/starter.cases.yaml'), 'utf8')) as Cases).cases;
    expect(recorded.map((c) => [c.id, c.sideEffects])).toEqual([
      ['recorded.read_graph', 'allowed'],
      ['recorded.search_nodes', 'allowed'],
    ]);
    expect(await run(bare)).toMatchObject({
      code: 0,
      report: { decision: { verdict: 'Promote' }, candidate: { cases: { passed: 2, total: 2 } } },
    });
  });
});
