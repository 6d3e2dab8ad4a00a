import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { sudoStandIn } from '../helpers/sudo.js';
import type { BundleSummary } from '../../src/report/bundle-summary.js';
import type { Report } from '../../src/report/types.js';

/**
 * A git baseline's built tree, attacked by a candidate of the same user (docs/security.md). A clone
 * whose first commit has a read-only tool, and whose HEAD adds a destructive one: gated against the
 * first commit, a Hold (`tool-added-destructive`). In a bundle, the first server's candidate
 * (test/fixtures/servers/tree-attacker.mjs) puts HEAD's server in place of the cached tree the second
 * server's baseline runs from: the second server would compare HEAD with itself and Promote.
 */
const SDK = (file: string) => pathToFileURL(join(ROOT, 'node_modules/@modelcontextprotocol/sdk/dist/esm/server', file)).href;
const ATTACKER = join(ROOT, 'test/fixtures/servers/tree-attacker.mjs');

const tool = (name: string, hints: string) =>
  `server.registerTool('${name}', { description: 'The ${name} tool.', annotations: ${hints} }, async () => ({ content: [{ type: 'text', text: 'ok' }] }));`;

const victim = (withWipe: boolean) =>
  [
    `import { McpServer } from '${SDK('mcp.js')}';`,
    `import { StdioServerTransport } from '${SDK('stdio.js')}';`,
    "const server = new McpServer({ name: 'victim', version: '1.0.0' });",
    tool('search', '{ readOnlyHint: true }'),
    withWipe ? tool('wipe', '{ readOnlyHint: false, destructiveHint: true }') : '',
    'await server.connect(new StdioServerTransport());',
    '',
  ].join('\n');

interface Clone {
  dir: string;
  cache: string;
  env: Record<string, string>;
}

/** The two commits, and a config with the servers `attacker` and `victim` (a bundle) or the victim's pair alone. */
function clone(bundle: boolean): Clone {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-tamper-'));
  const cache = `${dir}-cache`;
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' });
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, '.gitignore'), 'dist/\nreports/\n');
  writeFileSync(join(dir, 'src/server.mjs'), victim(false));
  const pair = ['baseline: released', 'candidate: pr'];
  const servers = [
    'servers:',
    '  a-attacker: { baseline: released, candidate: attacker }',
    '  b-victim: { baseline: released, candidate: pr }',
    'bundle: { concurrency: 1 }',
  ];
  writeFileSync(
    join(dir, 'gate.config.yaml'),
    [
      'version: 1',
      'profiles:',
      '  released:',
      '    git: { ref: HEAD~1, build: "mkdir -p dist && cp src/server.mjs dist/server.mjs" }',
      '    command: node',
      '    args: [dist/server.mjs]',
      '  pr: { command: node, args: [src/server.mjs] }',
      `  attacker: { command: node, args: [${ATTACKER}], env: { CACHE: "\${ATTACK_CACHE}", REPLACEMENT: "\${ATTACK_WITH}" } }`,
      ...(bundle ? servers : pair),
      'timeouts: { startupMs: 15000, requestMs: 10000, runMs: 60000, killGraceMs: 500 }',
      '',
    ].join('\n'),
  );
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'first: search only');
  writeFileSync(join(dir, 'src/server.mjs'), victim(true));
  git('commit', '-q', '-am', 'second: wipe, destructive');
  mkdirSync(join(cache, 'git-baselines'), { recursive: true });
  const env = {
    MCPGATE_CACHE_DIR: cache,
    ATTACK_CACHE: realpathSync(join(cache, 'git-baselines')),
    ATTACK_WITH: join(dir, 'src/server.mjs'),
  };
  return { dir, cache, env };
}

const run = (c: Clone, env: Record<string, string> = {}) =>
  runCli(['run', '--format', 'json'], { cwd: c.dir, env: { ...c.env, ...env }, timeoutMs: 90_000 });

/** What the attacker says it did (its one tool's description), from its server's report. */
interface Attacks {
  wrote: string[];
  refused: string[];
  viaProc: string[];
  renamed: string | null;
  privileges: Record<string, string>;
  sudo: 'elevated' | 'refused' | 'absent';
}

function attacks(c: Clone, summary: BundleSummary): Attacks {
  const path = summary.servers.find((s) => s.name === 'a-attacker')!.report!;
  const report = JSON.parse(readFileSync(join(c.dir, path), 'utf8')) as Report;
  return JSON.parse(report.candidate.tools.find((t) => t.name === 'attacks')!.description!) as Attacks;
}

const victimOf = (summary: BundleSummary) => summary.servers.find((s) => s.name === 'b-victim')!;

describe.runIf(process.platform === 'linux')('a git baseline a candidate of the same user cannot rewrite', { timeout: 180_000 }, () => {
  // Each namespace route this machine allows (a refused one is skipped, as in test/reliability/containment.test.ts);
  // `auto` is the route the gate picks: on GitHub's runners, the real sudo.
  it.for([
    ['auto', {}],
    ['unshare-root', {}],
    ['unshare-user', {}],
    ['sudo-unshare', { PATH: sudoStandIn() }],
  ] as const)(
    "in a bundle, one server's candidate cannot rewrite the tree another's baseline runs from (%s): the new destructive tool is held",
    async ([route, env], context) => {
      const c = clone(true);
      const result = await run(c, { MCPGATE_CONTAINMENT: route, ...env });
      const summary = JSON.parse(result.stdout) as BundleSummary;
      const report = JSON.parse(readFileSync(join(c.dir, victimOf(summary).report!), 'utf8')) as Report;
      const held = report.environment?.containment;
      if (held?.mechanism !== 'pid-namespace' || held.baselineTrees === 'copied') context.skip(`${route} is not available here`);
      expect([victimOf(summary).verdict, victimOf(summary).reasons.map((r) => r.code)]).toEqual(['Hold', ['tool-added-destructive']]);
      // Read-only by its path, out of sight through /proc, and its folders cannot be moved aside; no
      // capability to remount, and no way back to root (no_new_privs: a setuid sudo does not elevate).
      expect(attacks(c, summary)).toMatchObject({ wrote: [], refused: ['EROFS'], viaProc: [], renamed: 'EBUSY' });
      expect(attacks(c, summary).privileges).toEqual({ NoNewPrivs: '1', CapEff: '0'.repeat(16), CapBnd: '0'.repeat(16) });
      expect(attacks(c, summary).sudo).not.toBe('elevated');
      expect(report.environment?.containment).toMatchObject({ proc: 'own', baselineTrees: 'read-only' });
      expect(report.environment?.unprotectedTrees).toBeUndefined();
    },
  );

  it('where no mount namespace exists, each baseline runs from a checked copy: a tree changed during the run is exit 3 for its server, never a Promote', async () => {
    const c = clone(true);
    const result = await run(c, { MCPGATE_CONTAINMENT: 'subreaper' });
    const summary = JSON.parse(result.stdout) as BundleSummary;
    expect(attacks(c, summary).wrote).toHaveLength(1); // nothing stops it here
    expect(victimOf(summary).status).toBe('undecided');
    expect(victimOf(summary).error).toMatch(/profile "released": the built tree .* changed during this run \(dist\/server\.mjs\)/);
    expect(result.code).toBe(1); // the attacker's own server is a Rollback: its tools are not the baseline's
  });

  it('where no mount namespace exists, every format says the tree was not kept read-only; a rule can hold on it', async () => {
    const c = clone(false);
    const result = await run(c, { MCPGATE_CONTAINMENT: 'subreaper' });
    expect(result.code, result.stderr).toBe(2);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.environment).toMatchObject({ containment: { proc: 'shared', baselineTrees: 'copied' }, unprotectedTrees: ['released'] });
    expect(report.decision.reasons.map((r) => r.code)).toEqual(['tool-added-destructive']); // a note, not judged
    expect(result.stderr).toMatch(/profile "released": runs from a copy of its built tree, \S+\/tree \(no mount namespace/);
    const saved = join('reports', readdirSync(join(c.dir, 'reports'))[0]!);
    // The page is drawn from the report's data in the browser: the sentence is in that data.
    const note = 'ran from a copy of its built git tree that no mount namespace kept read-only';
    for (const format of ['text', 'markdown', 'html']) {
      const shown = await runCli(['show', saved, '--format', format], { cwd: c.dir });
      expect(shown.stdout, format).toContain(format === 'html' ? note : `"released" ${note}`);
    }
    writeFileSync(
      join(c.dir, 'gate.config.yaml'),
      `${readFileSync(join(c.dir, 'gate.config.yaml'), 'utf8')}promotion: { rules: { baseline-tree-unprotected: hold } }\n`,
    );
    const held = JSON.parse((await run(c, { MCPGATE_CONTAINMENT: 'subreaper' })).stdout) as Report;
    expect(held.decision.reasons.map((r) => [r.code, r.action])).toEqual([
      ['tool-added-destructive', 'hold'],
      ['baseline-tree-unprotected', 'hold'],
    ]);
  });

  it('a cached tree changed between runs (by any process of the user) is found by its manifest and built again', async () => {
    const c = clone(false);
    const first = await run(c);
    expect(first.code, first.stderr).toBe(2);
    const entry = readdirSync(join(c.cache, 'git-baselines'))[0]!;
    const file = join(c.cache, 'git-baselines', entry, 'dist/server.mjs');
    writeFileSync(file, readFileSync(join(c.dir, 'src/server.mjs')));
    const second = await run(c);
    expect(second.stderr).toContain(
      `warning: the cached baseline tree ${realpathSync(join(c.cache, 'git-baselines', entry))}: its files differ from the manifest written when it was built: dist/server.mjs; it is moved aside and built again`,
    );
    expect(second.code, second.stderr).toBe(2);
    const report = JSON.parse(second.stdout) as Report;
    expect(report.decision.reasons.map((r) => r.code)).toEqual(['tool-added-destructive']);
    expect(readFileSync(file, 'utf8')).not.toContain('wipe');
  });
});
