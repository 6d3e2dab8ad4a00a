import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS, flagsOf, formatsOf, type CommandName } from '../../src/commands/table.js';
import type { OptionName } from '../../src/commands/flags.js';
import { ROOT, runCli, scratchProject } from '../helpers/cli.js';

/**
 * The help does not lie: every flag a command's help lists is run at least once, and every format
 * its --format offers is rendered, or refused with the reason (exit 3, no stack trace). The
 * invocations below must cover COMMANDS, so a new flag without a run here fails the first test.
 */
let dir: string;
const SERVER = join(ROOT, 'examples/support-ops/dist/server.js');
const BUNDLE = join(ROOT, 'examples/support-ops/bundle.config.yaml');

beforeAll(async () => {
  dir = scratchProject();
  await runCli(['run', '-c', BUNDLE, '--server', 'desk', '--report-dir', join(dir, 'bundle-runs'), '--quiet'], { cwd: dir });
  writeFileSync(join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { desk: { command: 'node', args: [SERVER, 'baseline'] } } }));
  writeFileSync(join(dir, 'probe-args.yaml'), 'Tickets.Search: { query: checkout }\n');
  mkdirSync(join(dir, 'old'));
  await runCli(['snapshot', '--profile', 'baseline', '-o', 'old/contract.json', '--quiet'], { cwd: dir });
  await runCli(['snapshot', '--profile', 'candidate', '-o', 'contract.json', '--quiet'], { cwd: dir });
  const first = await runCli(['run', '--quiet', '--report-dir', 'runs'], { cwd: dir });
  expect(first.code).toBe(1);
});

/** One command line (REPORT: the first run's report; SERVER_REPORT: a bundle server's), and the exit codes it may end with. */
type Invocation = [CommandName, string[], number[]];
const first = (folder: string) =>
  join(
    folder,
    readdirSync(join(dir, folder)).find((f) => f.endsWith('.json'))!,
  );
const PLACES: Record<string, () => string> = { REPORT: () => first('runs'), SERVER_REPORT: () => first('bundle-runs') };
const placed = (args: string[]) => args.map((a) => PLACES[a]?.() ?? a);

const INVOCATIONS: Invocation[] = [
  ['init', ['--command', `node ${SERVER} baseline`, '-c', 'init-a/gate.config.yaml'], [0]],
  ['init', ['--from', '.mcp.json#desk', '-c', 'init-b/gate.config.yaml', '--force', '--quiet'], [0]],
  ['init', ['--package', 'not a package', '-c', 'init-c/gate.config.yaml'], [3]],
  [
    'record',
    [
      '--profile',
      'baseline',
      '-o',
      'datasets/recorded.cases.yaml',
      '--args',
      'probe-args.yaml',
      '--force',
      '--confirm-lookups',
      '-c',
      'gate.config.yaml',
      '--quiet',
    ],
    [0],
  ],
  ['run', ['--baseline', 'baseline', '--candidate', 'candidate-safe', '--dataset', 'datasets/support-ops.cases.yaml'], [0]],
  [
    'run',
    ['--report-dir', 'runs-2', '--fail-on', 'never', '--approved-by-label', 'ok-to-ship', '--format', 'json', '-o', 'out/run.json'],
    [0],
  ],
  ['run', ['--policy-base', 'HEAD', '--quiet'], [1, 2]],
  ['run', ['-c', BUNDLE, '--server', 'desk', '--report-dir', 'bundle-runs'], [0]],
  ['plan', ['-c', BUNDLE, '--quiet'], [0]],
  [
    'merge',
    [
      '-c',
      'gate.config.yaml',
      '--report-dir',
      'merged',
      '--format',
      'markdown',
      '-o',
      'out/merge.md',
      '--fail-on',
      'never',
      '--quiet',
      'SERVER_REPORT',
    ],
    [0],
  ],
  ['validate', ['-c', 'gate.config.yaml', '--quiet'], [0]],
  ['snapshot', ['-c', 'gate.config.yaml', '--profile', 'candidate', '-o', 'out/snap.json', '--quiet'], [0]],
  ['diff', ['old/contract.json', 'contract.json', '-c', 'gate.config.yaml', '--fail-on', 'never', '-o', 'out/diff.txt', '--quiet'], [0]],
  ['show', ['REPORT', '-o', 'out/show.txt', '--quiet'], [0]],
  ['history', ['runs', '-c', 'gate.config.yaml', '-o', 'out/history.txt', '--quiet'], [0]],
  ['help', ['run', '--quiet'], [0]],
];

/** What each --format is tried on; `--format` counts as run for these commands. */
const FORMAT_LINES: [CommandName, string[]][] = [
  ['run', []],
  ['run', ['-c', BUNDLE, '--fail-on', 'never']],
  ['diff', ['old/contract.json', 'contract.json', '--fail-on', 'never']],
  ['show', ['REPORT']],
  ['merge', ['SERVER_REPORT', '--fail-on', 'never']],
  ['history', ['runs']],
];

const refusedFlag = /does not take|unknown option|internal error|at .*\.c?js:\d+/;

describe('every advertised flag runs', { timeout: 120_000 }, () => {
  it('the invocations cover every flag of every command', () => {
    const used = new Map<CommandName, Set<string>>();
    for (const [command, args] of INVOCATIONS) {
      const flags = used.get(command) ?? new Set();
      for (const arg of args) if (arg.startsWith('-')) flags.add(arg.replace(/^--?/, ''));
      used.set(command, flags);
    }
    const short: Record<string, OptionName> = { c: 'config', o: 'output', h: 'help', V: 'version' };
    for (const command of Object.keys(COMMANDS) as CommandName[]) {
      const seen = new Set([...(used.get(command) ?? [])].map((f) => short[f] ?? f));
      if (FORMAT_LINES.some(([c]) => c === command)) seen.add('format');
      const missing = flagsOf(command).filter((f) => f !== 'help' && !seen.has(f));
      expect([command, missing]).toEqual([command, []]);
    }
  });

  it.each(INVOCATIONS.map((i) => [`${i[0]} ${i[1].join(' ')}`, i] as const))('%s', async (_, [command, args, codes]) => {
    const result = await runCli([command, ...placed(args)], { cwd: dir, timeoutMs: 60_000 });
    expect(result.stderr).not.toMatch(refusedFlag);
    expect(codes).toContain(result.code);
  });
});

describe('every advertised format renders, or says why not', { timeout: 120_000 }, () => {
  const cases = FORMAT_LINES.flatMap(([command, args]) => formatsOf(command).map((format) => [command, args, format] as const));

  it.each(cases.map((c) => [`${c[0]} ${c[1].join(' ')} --format ${c[2]}`, c] as const))('%s', async (_, [command, args, format]) => {
    const result = await runCli([command, ...placed(args), '--format', format, '--quiet'], { cwd: dir, timeoutMs: 60_000 });
    expect(result.stderr).not.toMatch(refusedFlag);
    if (result.code === 3) {
      // Refused before anything started: the format, and why this kind of document has no form in it.
      expect(result.stderr).toMatch(new RegExp(`--format ${format}: .*(render|holds)`));
      expect(result.stdout).toBe('');
    } else {
      expect(result.stdout.length).toBeGreaterThan(20);
    }
  });

  it('a bundle in JUnit, SARIF or HTML is refused before any server starts, with what to run instead', async () => {
    const result = await runCli(['run', '-c', BUNDLE, '--format', 'sarif'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('mcp-gate show REPORT --format sarif');
    expect(result.stderr).not.toContain('connecting');
  });
});
