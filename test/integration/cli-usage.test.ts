import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, scratchProject } from '../helpers/cli.js';
import { COMMANDS, flagsOf, type CommandName } from '../../src/commands/table.js';
import { OPTIONS, type OptionName } from '../../src/commands/flags.js';
import { FORMAT_NAMES } from '../../src/report/formats.js';

/** Usage errors are answered by the CLI's front: exit 3, the reason, then the help of the command named. */
describe('mcp-gate usage errors (the built CLI)', () => {
  const cases: [string[], string, string][] = [
    [['run', 'extra'], 'run takes no positional arguments', 'run'],
    [['plan', 'a'], 'plan takes no positional arguments', 'plan'],
    [['validate', 'a'], 'validate takes no positional arguments', 'validate'],
    [['snapshot', 'a'], 'snapshot takes no positional arguments', 'snapshot'],
    [['record', 'a'], 'record takes no positional arguments', 'record'],
    [
      ['init', 'node', 'server.js'],
      "init takes no positional arguments; put the server's command after --, as in init -- node dist/server.js",
      'init',
    ],
    [['diff', 'only-one'], 'diff takes BEFORE and AFTER: snapshot files or profile names', 'diff'],
    [['show'], 'show takes one REPORT.json', 'show'],
    [['history', 'a', 'b'], 'history takes at most one DIR', 'history'],
    [['deploy'], 'unknown command "deploy"', '<command>'],
    [['histroy'], 'unknown command "histroy" (did you mean history?)', '<command>'],
    [['run', '--fail-on', 'sometimes'], '--fail-on must be rollback, hold or never, not "sometimes"', 'run'],
    // The formats are the table's (a new format touches only the table, its renderer and its test).
    [['run', '--format', 'pdf'], `--format must be one of ${FORMAT_NAMES.join(', ')}, not "pdf"`, 'run'],
    [
      ['run', '--baselin', 'x'],
      'unknown option --baselin for run (did you mean --baseline?); mcp-gate run --help lists the options',
      'run',
    ],
    [['run', '--frobnicate'], 'unknown option --frobnicate for run; mcp-gate run --help lists the options', 'run'],
    [['snapshot', '--profile'], '--profile needs a value; mcp-gate snapshot --help lists the options', 'snapshot'],
    [['run', '--profile', 'x'], 'run does not take --profile; mcp-gate run --help lists its options', 'run'],
    [['run', '--', 'node'], 'run takes nothing after --', 'run'],
  ];

  it.each(cases)('%j: exit 3 with "%s" and the usage of %s', async (args, message, command) => {
    const result = await runCli(args);
    expect([result.code, result.stdout]).toEqual([3, '']);
    expect(result.stderr.split('\n')[0]).toBe(`mcp-gate: ${message}`);
    expect(result.stderr).toContain(`Usage: mcp-gate ${command}`);
    expect(result.stderr).not.toMatch(/TypeError|ERR_PARSE_ARGS|at .*\.js:\d+/);
  });
});

describe('mcp-gate COMMAND --help', () => {
  it.each(Object.keys(COMMANDS) as CommandName[])('%s: its usage, every flag it takes, and an example; exit 0', async (command) => {
    const result = await runCli([command, '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout.startsWith(`Usage: mcp-gate ${COMMANDS[command].synopsis}\n`)).toBe(true);
    for (const flag of flagsOf(command)) expect(result.stdout).toContain(`--${flag}`);
    expect(result.stdout).toContain(`Example:\n  ${COMMANDS[command].example}\n`);
  });

  it('mcp-gate --help lists every command and points to the per-command help', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    for (const command of Object.keys(COMMANDS)) expect(result.stdout).toContain(`\n  ${command}`);
    expect(result.stdout).toContain('mcp-gate <command> --help');
  });
});

describe('the help examples of show and merge name reports as the gate writes them', () => {
  /** An example's words, its glob expanded against the folder (no shell in between). */
  const wordsOf = (example: string, dir: string) =>
    example
      .split(' ')
      .slice(1)
      .flatMap((word) => {
        if (!word.includes('*')) return [word];
        const [folder, pattern] = [dirname(word), basename(word)];
        const glob = new RegExp(`^${pattern.replace(/[.]/g, '\\.').replace(/\*/g, '.*')}$`);
        return readdirSync(join(dir, folder))
          .filter((name) => glob.test(name))
          .map((name) => join(folder, name));
      });

  it('show: the example renders a report under the name run gave it', async () => {
    const dir = scratchProject();
    const run = await runCli(['run', '--fail-on', 'never', '--quiet'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const [written] = readdirSync(join(dir, 'reports'));
    const example = COMMANDS.show.example;
    const named = /\S+\.json/.exec(example)![0];
    // The example's name differs from the written one only in the time it was written.
    expect(basename(named).replace(/^\d{8}T\d{6}Z/, 'STAMP')).toBe(written!.replace(/^\d{8}T\d{6}Z/, 'STAMP'));
    renameSync(join(dir, 'reports', written!), join(dir, named));
    const shown = await runCli(wordsOf(example, dir), { cwd: dir });
    expect(shown.code, shown.stderr).toBe(0);
    expect(existsSync(join(dir, 'report.html'))).toBe(true);
  });

  it('merge: the example combines the per-server reports that run --server wrote, as the bundle workflow hands them on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-merge-example-'));
    const bundle = join(ROOT, 'examples/support-ops/bundle.config.yaml');
    const run = await runCli(['run', '-c', bundle, '--server', 'desk', '--report-dir', join(dir, 'in'), '--quiet'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const words = wordsOf(COMMANDS.merge.example, dir);
    expect(words.filter((w) => w.endsWith('.json'))).toHaveLength(1);
    const merged = await runCli(words, { cwd: dir });
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toContain('desk');
  });
});

it('every flag of init and record (beside --quiet and --help, which every command takes) is documented in docs/config.md, where the two commands are', () => {
  const page = readFileSync(join(ROOT, 'docs/config.md'), 'utf8');
  const spelled = (flag: OptionName) => {
    const short = (OPTIONS[flag] as { short?: string }).short;
    return short ? `-${short} ` : `--${flag}`;
  };
  const undocumented = (['init', 'record'] as const).flatMap((command) =>
    (COMMANDS[command].flags as OptionName[]).filter((flag) => !page.includes(spelled(flag))),
  );
  expect(undocumented).toEqual([]);
});
