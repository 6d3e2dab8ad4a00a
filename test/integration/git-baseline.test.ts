import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT, runCli } from '../helpers/cli.js';
import { builtTree } from '../../src/connect/git-tree.js';
import type { Report } from '../../src/report/types.js';

/**
 * A baseline from a git ref (docs/baselines.md, "A baseline from a git ref"), on a real temporary
 * clone with two commits of a tiny SDK server: the second drops a required argument. The baseline
 * is the first commit, checked out in a worktree, built once (the build copies src/ to dist/, which
 * .gitignore leaves out, so a server that starts proves it ran from the built tree), and cached by
 * commit and build command.
 */
const SDK = (file: string) => pathToFileURL(join(ROOT, 'node_modules/@modelcontextprotocol/sdk/dist/esm/server', file)).href;

const server = (required: string[]) => `import { McpServer } from '${SDK('mcp.js')}';
import { StdioServerTransport } from '${SDK('stdio.js')}';
const server = new McpServer({ name: 'tiny', version: '1.0.0' });
server.registerTool(
  'search',
  {
    description: 'Search the notes.',
    inputSchema: ${JSON.stringify(
      Object.fromEntries(required.map((name) => [name, name === 'limit' ? 'z.number()' : 'z.string()'])),
    ).replace(/"(z\.\w+\(\))"/g, '$1')},
    annotations: { readOnlyHint: true },
  },
  async () => ({ content: [{ type: 'text', text: 'none' }] }),
);
await server.connect(new StdioServerTransport());
`;

const BUILD = 'mkdir -p dist && cp src/server.mjs dist/server.mjs && env > dist/build-env.txt && echo the tree is built';

interface Clone {
  dir: string;
  cache: string;
  first: string;
  git: (...args: string[]) => string;
}

/** Two commits: the server with query and limit required, then with limit gone. */
function clone(build = BUILD): Clone {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-git-'));
  const cache = join(dir, '..', `${dir.split('/').pop()}-cache`);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' });
  const zod = pathToFileURL(join(ROOT, 'node_modules/zod/index.js')).href;
  const source = (required: string[]) => `import { z } from '${zod}';\n${server(required)}`;
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'contracts'));
  writeFileSync(join(dir, '.gitignore'), 'dist/\nreports/\n');
  writeFileSync(join(dir, 'src/server.mjs'), source(['query', 'limit']));
  writeFileSync(
    join(dir, 'gate.config.yaml'),
    [
      'version: 1',
      'profiles:',
      '  baseline:',
      `    git: { ref: HEAD~1, build: ${JSON.stringify(build)} }`,
      '    command: node',
      '    args: [dist/server.mjs]',
      '  candidate: { command: node, args: [src/server.mjs] }',
      '  snapshot: { transport: snapshot, path: "git:HEAD~1:contracts/baseline.contract.json" }',
      'baseline: baseline',
      'candidate: candidate',
      'timeouts: { startupMs: 15000, requestMs: 10000, runMs: 60000, killGraceMs: 500 }',
      '',
    ].join('\n'),
  );
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'first: search takes query and limit');
  const first = git('rev-parse', 'HEAD').trim();
  writeFileSync(join(dir, 'src/server.mjs'), source(['query']));
  git('commit', '-q', '-am', 'second: limit is gone');
  return { dir, cache, first, git };
}

const gate = (c: Clone, args: string[] = [], env: Record<string, string> = {}) =>
  runCli(['run', '--format', 'json', ...args], { cwd: c.dir, env: { MCPGATE_CACHE_DIR: c.cache, ...env }, timeoutMs: 60_000 });

const worktrees = (c: Clone) => c.git('worktree', 'list', '--porcelain').match(/^worktree /gm)?.length ?? 0;
const cacheEntries = (c: Clone) => (existsSync(join(c.cache, 'git-baselines')) ? readdirSync(join(c.cache, 'git-baselines')).sort() : []);

describe('a baseline from a git ref', { timeout: 120_000 }, () => {
  it('starts the first commit, built in a worktree, against HEAD: Rollback; the second run uses the cache; no worktree is left', async () => {
    const c = clone();
    const first = await gate(c, [], { GITHUB_TOKEN: 'ghs_notForTheBuild0123456789' });
    expect(first.code, first.stderr).toBe(1);
    const report = JSON.parse(first.stdout) as Report;
    expect(report.decision.verdict).toBe('Rollback');
    expect(report.diff.changes.map((ch) => [ch.code, ch.tool])).toEqual([['required-argument-removed', 'search']]);
    expect(first.stderr).toContain(`git HEAD~1 is ${c.first.slice(0, 12)}`);
    expect(first.stderr).toContain(`building the baseline at ${c.first.slice(0, 12)}`);
    expect(first.stderr).toContain('built and cached');
    expect(worktrees(c)).toBe(1);
    const entries = cacheEntries(c);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.startsWith(c.first.slice(0, 12))).toBe(true);
    const tree = join(c.cache, 'git-baselines', entries[0]!);
    expect(existsSync(join(tree, '.git'))).toBe(false); // no longer a worktree of the clone
    // The build ran with a server's scrubbed environment: no token reached it.
    const buildEnv = readFileSync(join(tree, 'dist/build-env.txt'), 'utf8');
    expect(buildEnv).toMatch(/^PATH=/m);
    expect(buildEnv).not.toContain('GITHUB_TOKEN');
    expect(buildEnv).not.toContain('MCPGATE_CACHE_DIR');

    // An entry no run has used for 40 days: the next run that uses the cache removes it.
    const stale = join(c.cache, 'git-baselines', '0123456789ab-0123456789abcdef');
    mkdirSync(stale);
    writeFileSync(join(stale, '.mcp-gate-built'), 'commit\nbuild\n');
    const longAgo = new Date(Date.now() - 40 * 24 * 60 * 60 * 1000);
    utimesSync(join(stale, '.mcp-gate-built'), longAgo, longAgo);
    // The entry in use, as if last used 40 days ago too: using it touches it, so it stays.
    utimesSync(join(tree, '.mcp-gate-built'), longAgo, longAgo);

    const second = await gate(c);
    expect(second.code, second.stderr).toBe(1);
    expect(second.stderr).toContain('built tree from the cache');
    expect(second.stderr).not.toContain('building the baseline');
    expect(second.stderr).toContain(
      'removed 1 cache entry (unused for 30 days, or left half made by a run that was stopped): 0123456789ab-0123456789abcdef',
    );
    expect(cacheEntries(c)).toEqual(entries);
    expect(statSync(join(tree, '.mcp-gate-built')).mtimeMs).toBeGreaterThan(longAgo.getTime());
    expect(worktrees(c)).toBe(1);
  });

  it('two servers of a bundle that need one commit and build at once: it is built once, and both get the tree', async () => {
    const c = clone();
    const builds = `${c.dir}-builds.txt`;
    const build = `echo built >> ${JSON.stringify(builds)} && ${BUILD}`;
    const env = { ...process.env, MCPGATE_CACHE_DIR: c.cache };
    const at = () => builtTree(c.dir, c.first, build, env, () => undefined, 60_000);
    const [one, two] = await Promise.all([at(), at()]);
    expect(two.dir).toBe(one.dir);
    expect([one.cached, two.cached]).toEqual([false, true]);
    expect(existsSync(join(one.dir, 'dist/server.mjs'))).toBe(true);
    expect(readFileSync(builds, 'utf8')).toBe('built\n');
    expect(cacheEntries(c)).toEqual([one.dir.split('/').pop()]);
    expect(worktrees(c)).toBe(1);
  });

  it('snapshot and record start a git profile from its tree too, not from the working tree', async () => {
    const c = clone();
    const snap = await runCli(['snapshot', '--profile', 'baseline'], { cwd: c.dir, env: { MCPGATE_CACHE_DIR: c.cache } });
    expect(snap.code, snap.stderr).toBe(0);
    const required = (JSON.parse(snap.stdout) as { tools: { inputSchema: { required: string[] } }[] }).tools[0]!.inputSchema.required;
    expect(required.sort()).toEqual(['limit', 'query']);
    const record = await runCli(['record', '--profile', 'baseline'], { cwd: c.dir, env: { MCPGATE_CACHE_DIR: c.cache } });
    expect(record.code, record.stderr).toBe(0);
    expect(record.stderr).toContain('built tree from the cache');
    expect(worktrees(c)).toBe(1);
  });

  it('a build that fails: exit 3, the tail of its output, no stack, and nothing left behind', async () => {
    const c = clone("echo compiling step 1 && echo 'src/server.ts(3,1): error TS2304: Cannot find name foo.' >&2 && exit 2");
    const result = await gate(c);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain("mcp-gate: cannot decide: the baseline's build failed (exit code 2)");
    expect(result.stderr).toContain('build output (tail):');
    expect(result.stderr).toContain('compiling step 1');
    expect(result.stderr).toContain('error TS2304: Cannot find name foo.');
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.stderr).not.toContain('internal error');
    expect(worktrees(c)).toBe(1);
    expect(cacheEntries(c)).toEqual([]);
  });

  it('a ref that is not in the clone: exit 3, said plainly', async () => {
    const c = clone();
    writeFileSync(join(c.dir, 'gate.config.yaml'), readFileSync(join(c.dir, 'gate.config.yaml'), 'utf8').replace('HEAD~1', 'origin/nope'));
    const result = await gate(c);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('the git ref origin/nope is not in this clone');
    expect(result.stderr).not.toMatch(/^\s+at /m);
  });

  it('no ref: the change base (--policy-base) is the ref', async () => {
    const c = clone();
    writeFileSync(join(c.dir, 'gate.config.yaml'), readFileSync(join(c.dir, 'gate.config.yaml'), 'utf8').replace('ref: HEAD~1, ', ''));
    const without = await gate(c);
    expect(without.code).toBe(3);
    expect(without.stderr).toContain('profiles.baseline.git.ref: is not set');
    const result = await gate(c, ['--policy-base', c.first]);
    expect(result.code, result.stderr).toBe(1);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.decision.reasons.map((r) => r.code)).toContain('required-argument-removed');
  });

  it('git:REF:FILE reads a snapshot as it was at the ref', async () => {
    const c = clone();
    c.git('checkout', '-q', 'HEAD~1');
    const snap = await runCli(['snapshot', '--profile', 'candidate', '-o', 'contracts/baseline.contract.json'], { cwd: c.dir });
    expect(snap.code, snap.stderr).toBe(0);
    c.git('add', 'contracts');
    c.git('commit', '-q', '-m', 'first, with its snapshot');
    const withSnapshot = c.git('rev-parse', 'HEAD').trim();
    c.git('checkout', '-q', '-');
    c.git('merge', '-q', '--no-edit', withSnapshot);
    rmSync(join(c.dir, 'contracts/baseline.contract.json'));
    writeFileSync(
      join(c.dir, 'gate.config.yaml'),
      readFileSync(join(c.dir, 'gate.config.yaml'), 'utf8').replace('git:HEAD~1:', `git:${withSnapshot}:`),
    );
    const result = await gate(c, ['--baseline', 'snapshot']);
    expect(result.code, result.stderr).toBe(1);
    const report = JSON.parse(result.stdout) as Report;
    expect(report.baseline.transport).toBe('snapshot');
    expect(report.diff.changes.map((ch) => ch.code)).toEqual(['required-argument-removed']);
    expect(result.stderr).toContain(`snapshot contracts/baseline.contract.json read at ${withSnapshot.slice(0, 12)}`);
  });
});

describe('init in a git repository', { timeout: 120_000 }, () => {
  it('offers a git-ref baseline, commented out, that validates once turned on; outside a clone it does not', async () => {
    const c = clone();
    rmSync(join(c.dir, 'gate.config.yaml'));
    const branch = c.git('rev-parse', '--abbrev-ref', 'HEAD').trim();
    const init = await runCli(['init', '--command', 'node src/server.mjs'], { cwd: c.dir });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain(`the profile \`released\` in gate.config.yaml (commented out) gates against ${branch}`);
    const config = readFileSync(join(c.dir, 'gate.config.yaml'), 'utf8');
    expect(config).toContain(`  #   git: { ref: ${branch}, build: "npm ci && npm run build" }`);
    // Uncomment the offered profile: `  # released:` and the `  #   key: value` lines under it.
    const turnedOn = config
      .replace(/^ {2}# released:\n(?: {2}# {3}.*\n)+/m, (block) => block.replace(/^ {2}# /gm, '  '))
      .replace('npm ci && npm run build', 'true')
      .replace('baseline: baseline', 'baseline: released');
    writeFileSync(join(c.dir, 'gate.config.yaml'), turnedOn);
    expect(turnedOn).toMatch(/^ {2}released:\n {4}git: /m);
    const validate = await runCli(['validate'], { cwd: c.dir });
    expect(validate.code, `${validate.stderr}\n${turnedOn}`).toBe(0);

    const outside = mkdtempSync(join(tmpdir(), 'mcp-gate-init-nogit-'));
    writeFileSync(join(outside, 'server.mjs'), readFileSync(join(c.dir, 'src/server.mjs'), 'utf8'));
    const plain = await runCli(['init', '--command', 'node server.mjs'], { cwd: outside });
    expect(plain.code, plain.stderr).toBe(0);
    expect(readFileSync(join(outside, 'gate.config.yaml'), 'utf8')).not.toContain('# released:');
  });
});

describe('a git baseline, interrupted or written wrong', { timeout: 120_000 }, () => {
  it('SIGINT while the baseline builds: the build ends, and no worktree or half-made tree is left', async () => {
    const c = clone('echo building && sleep 30');
    const child = spawn(process.execPath, [CLI, 'run'], { cwd: c.dir, env: { ...process.env, MCPGATE_CACHE_DIR: c.cache } });
    let stderr = '';
    await new Promise<void>((resolve) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('building the baseline')) resolve();
      });
    });
    // The worktree exists while the build runs.
    expect(worktrees(c)).toBe(2);
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(130);
    expect(worktrees(c)).toBe(1);
    expect(cacheEntries(c)).toEqual([]);
  });

  it('a build that hangs is ended at timeouts.runMs: exit 3, said plainly', async () => {
    const c = clone('echo starting && sleep 60');
    writeFileSync(
      join(c.dir, 'gate.config.yaml'),
      readFileSync(join(c.dir, 'gate.config.yaml'), 'utf8').replace('runMs: 60000', 'runMs: 1500'),
    );
    const result = await gate(c);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("the baseline's build did not finish within timeouts.runMs (1500 ms) and was ended");
    expect(worktrees(c)).toBe(1);
    expect(cacheEntries(c)).toEqual([]);
  });

  it('errors name the field: a ref with a space, an unknown fallback, git on a snapshot', async () => {
    const c = clone();
    const config = readFileSync(join(c.dir, 'gate.config.yaml'), 'utf8')
      .replace('ref: HEAD~1', 'ref: "HEAD 1"')
      .replace(
        '  candidate: { command: node, args: [src/server.mjs] }',
        '  candidate: { command: node, args: [src/server.mjs], fallback: sometimes }',
      )
      .replace('path: "git:HEAD~1:contracts/baseline.contract.json" }', 'path: x.json, git: { ref: main } }');
    writeFileSync(join(c.dir, 'gate.config.yaml'), config);
    const validate = await runCli(['validate'], { cwd: c.dir });
    expect(validate.code).toBe(3);
    expect(validate.stderr).toMatch(/gate\.config\.yaml:4: profiles\.baseline\.git\.ref: must match/);
    expect(validate.stderr).toMatch(/gate\.config\.yaml:7: profiles\.candidate\.fallback: must be one of/);
    expect(validate.stderr).toMatch(/gate\.config\.yaml:8: profiles\.snapshot\.git: applies only to profiles with a `command`/);
  });
});
