import { FORMATS, formatsFor, type DocumentKind, type Format } from '../report/formats.js';
import { FLAG_HELP, type OptionName, type Options } from './flags.js';
import type { CommandIO, FailOn, Outcome } from './io.js';

/**
 * Every command, declared once: its synopsis, its flags and their types, its positional arguments,
 * a line of what it does, an example, and the function that runs it. The parser (src/cli.ts), every
 * `--help` and the usage errors are all written from this table, so a flag the help lists is a flag
 * the command takes, and `test/integration/cli-usage.test.ts` runs each one. The flags themselves,
 * with their types and help lines, are the table of `flags.ts`.
 */

/** A command line, parsed and checked. */
export interface CommandRequest {
  /** Positional arguments after the command, in the number the command takes (for init: the server's command after `--`). */
  args: string[];
  options: Omit<Options, 'format' | 'fail-on'> & { format: Format; 'fail-on': FailOn };
  /**
   * Whether -c/--config was given, not defaulted. diff of two snapshot files reads a config only
   * then; merge and history read one then, or when the default file exists.
   */
  configGiven: boolean;
}

interface CommandSpec {
  synopsis: string;
  summary: string;
  /** Flags beyond --help and --quiet, which every command takes. */
  flags: OptionName[];
  /** What its --format renders, when it takes --format: the formats offered are the ones that kind has. */
  renders?: DocumentKind[];
  /** Where a flag means something particular to this command. */
  flagHelp?: Partial<Record<OptionName, string>>;
  example: string;
  /** null when the count of positional arguments is fine, else what the command takes. */
  arity: (count: number) => string | null;
  /** Runs the command; its module loads only then, so `--version` and a mistyped flag load nothing. */
  run: (request: CommandRequest, io: CommandIO) => Promise<Outcome>;
}

const none = (command: string) => (n: number) => (n === 0 ? null : `${command} takes no positional arguments`);

export const COMMANDS = {
  init: {
    synopsis: 'init [--from FILE#NAME | --command "CMD ARGS" | -- CMD ARGS...]',
    summary: 'start a server, write a commented gate.config.yaml, its baseline and a starter dataset',
    flags: ['from', 'command', 'package', 'config', 'force'],
    flagHelp: { config: '-c, --config FILE        where to write the config (default ./gate.config.yaml)' },
    example: 'mcp-gate init --from .mcp.json#tickets',
    arity: (n: number) =>
      n === 0 ? null : "init takes no positional arguments; put the server's command after --, as in init -- node dist/server.js",
    run: async ({ args, options: o }, io) =>
      (await import('./init.js')).initCommand(
        { config: o.config, from: o.from, command: o.command, argv: args, package: o.package, force: o.force },
        io,
      ),
  },
  record: {
    synopsis: 'record [-c FILE] [--profile NAME] [-o DATASET]',
    summary: 'call the read-only tools of a profile twice and freeze what they return as cases',
    flags: ['config', 'profile', 'output', 'args', 'force', 'confirm-lookups'],
    flagHelp: {
      profile: '--profile NAME           the live profile to call (default: the baseline; the candidate when the baseline is a snapshot)',
      output:
        '-o, --output DATASET     the dataset to write, or to add new tools to (default: the one record wrote before, else datasets/recorded.cases.yaml)',
      force: '--force                  write the dataset anew instead of adding to it',
    },
    example: 'mcp-gate record --profile baseline -o datasets/recorded.cases.yaml',
    arity: none('record'),
    run: async ({ options: o }, io) =>
      (await import('./record.js')).recordCommand(
        { config: o.config, profile: o.profile, output: o.output, args: o.args, force: o.force, confirmLookups: o['confirm-lookups'] },
        io,
      ),
  },
  run: {
    synopsis: 'run [-c FILE]',
    summary:
      'start both profiles, diff, replay cases, audit, decide, write the report; with servers in the config, gate every server (a bundle)',
    flags: [
      'config',
      'baseline',
      'candidate',
      'dataset',
      'server',
      'report-dir',
      'format',
      'output',
      'fail-on',
      'approved-by-label',
      'policy-base',
    ],
    renders: ['report', 'bundle'],
    example: 'mcp-gate run -c gate.config.yaml --format markdown -o comment.md',
    arity: none('run'),
    run: async ({ options: o }, io) =>
      (await import('./run.js')).runCommand(
        {
          config: o.config,
          baseline: o.baseline,
          candidate: o.candidate,
          datasets: o.dataset,
          reportDir: o['report-dir'],
          format: o.format,
          output: o.output,
          approvedByLabel: o['approved-by-label'],
          policyBase: o['policy-base'],
          server: o.server,
        },
        io,
      ),
  },
  plan: {
    synopsis: 'plan [-c FILE]',
    summary: "print the bundle's servers as a GitHub Actions matrix (JSON)",
    flags: ['config'],
    example: 'mcp-gate plan -c bundle.config.yaml',
    arity: none('plan'),
    run: async ({ options: o }, io) => (await import('./plan.js')).planCommand({ config: o.config }, io),
  },
  merge: {
    synopsis: 'merge REPORT...',
    summary: 'combine per-server reports into the bundle verdict and summary',
    flags: ['config', 'report-dir', 'format', 'output', 'fail-on'],
    renders: ['bundle'],
    example: 'mcp-gate merge in/*.json --report-dir out --format markdown',
    arity: () => null,
    run: async ({ args, options: o, configGiven }, io) =>
      (await import('./merge.js')).mergeCommand(
        { config: o.config, configGiven, reports: args, reportDir: o['report-dir'], format: o.format, output: o.output },
        io,
      ),
  },
  validate: {
    synopsis: 'validate [-c FILE]',
    summary: 'check the config and every dataset without starting a server',
    flags: ['config'],
    example: 'mcp-gate validate -c gate.config.yaml',
    arity: none('validate'),
    run: async ({ options: o }, io) => (await import('./validate.js')).validateCommand({ config: o.config }, io),
  },
  snapshot: {
    synopsis: 'snapshot --profile NAME [-o FILE]',
    summary: "write one profile's contract snapshot (JSON)",
    flags: ['config', 'profile', 'output'],
    flagHelp: { profile: '--profile NAME           the profile to read (required)' },
    example: 'mcp-gate snapshot --profile candidate -o contracts/baseline.contract.json',
    arity: none('snapshot'),
    run: async ({ options: o }, io) =>
      (await import('./snapshot.js')).snapshotCommand({ config: o.config, profile: o.profile, output: o.output }, io),
  },
  diff: {
    synopsis: 'diff BEFORE AFTER [-c FILE]',
    summary: 'diff two contracts: snapshot files or profile names',
    flags: ['config', 'format', 'output', 'fail-on'],
    flagHelp: {
      config: '-c, --config FILE        the gate config (default ./gate.config.yaml, not read for two snapshot files)',
    },
    renders: ['report'],
    example: 'mcp-gate diff contracts/baseline.contract.json candidate',
    arity: (n: number) => (n === 2 ? null : 'diff takes BEFORE and AFTER: snapshot files or profile names'),
    run: async ({ args, options: o, configGiven }, io) =>
      (await import('./diff.js')).diffCommand(
        { config: o.config, configGiven, before: args[0]!, after: args[1]!, format: o.format, output: o.output },
        io,
      ),
  },
  show: {
    synopsis: 'show REPORT.json [-o FILE]',
    summary: 'render a saved report (--format html: one self-contained page)',
    flags: ['format', 'output'],
    renders: ['report'],
    example: 'mcp-gate show reports/20261122T021118Z-baseline-to-candidate.json --format html -o report.html',
    arity: (n: number) => (n === 1 ? null : 'show takes one REPORT.json'),
    run: async ({ args, options: o }, io) => (await import('./show.js')).showCommand(args[0]!, o.format, io, o.output),
  },
  history: {
    synopsis: 'history [DIR] [-o FILE]',
    summary: 'past runs in DIR (default reports.dir), oldest first, with contract drift against the same pair',
    flags: ['config', 'format', 'output'],
    renders: ['history'],
    example: 'mcp-gate history reports --format markdown',
    arity: (n: number) => (n <= 1 ? null : 'history takes at most one DIR'),
    run: async ({ args, options: o, configGiven }, io) =>
      (await import('./history.js')).historyCommand(
        { dir: args[0], config: o.config, configGiven, format: o.format, output: o.output },
        io,
      ),
  },
  help: {
    synopsis: 'help [COMMAND]',
    summary: "this help, or a command's",
    flags: [],
    example: 'mcp-gate help run',
    arity: (n: number) => (n <= 1 ? null : 'help takes at most one COMMAND'),
    run: (request: CommandRequest, io: CommandIO): Promise<Outcome> => help(request.args[0], io),
  },
} satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMANDS;

export const isCommand = (name: string): name is CommandName => Object.hasOwn(COMMANDS, name);

/** `mcp-gate help [COMMAND]`. */
function help(name: string | undefined, io: CommandIO): Promise<Outcome> {
  if (name !== undefined && !isCommand(name)) return Promise.reject(new UnknownCommand(name));
  io.stdout(name === undefined ? usage() : commandUsage(name));
  return Promise.resolve({ kind: 'ok' });
}

/** `help NAME` for a name that is no command: the CLI answers it as it answers `mcp-gate NAME`. */
export class UnknownCommand extends Error {
  constructor(readonly command: string) {
    super(`unknown command "${command}"`);
  }
}

/** The flags a command accepts: its own, and the ones every command takes. */
export const flagsOf = (command: CommandName): OptionName[] => [...COMMANDS[command].flags, 'quiet', 'help'];

/** The formats a command's --format offers: those of every kind of document it renders. */
export const formatsOf = (command: CommandName): Format[] => {
  const kinds: readonly DocumentKind[] = (COMMANDS[command] as CommandSpec).renders ?? [];
  return [...new Set(kinds.flatMap(formatsFor))];
};

const EXIT_CODES = 'Exit codes: 0 Promote (or allowed by --fail-on), 1 Rollback, 2 Hold, 3 could not decide.';

/** `mcp-gate --help`. */
export function usage(): string {
  const rows = Object.entries(COMMANDS).map(([name, spec]: [string, CommandSpec]) => `  ${name.padEnd(10)} ${spec.summary}`);
  return [
    'Usage: mcp-gate <command> [options]',
    '',
    'Commands:',
    ...rows,
    '',
    'Each command has its own help: mcp-gate help <command>, or mcp-gate <command> --help',
    'Other options: -V/--version, -h/--help',
    '',
    'Start here: mcp-gate init --from .mcp.json#NAME   (or --command "node dist/server.js")',
    '',
    EXIT_CODES,
    '',
  ].join('\n');
}

/** The --format line of a command: the formats it offers, each with what it is for. */
function formatHelp(command: CommandName): string[] {
  const formats = formatsOf(command);
  return [`  ${FLAG_HELP.format}`, ...formats.map((f) => `      ${f.padEnd(10)} ${FORMATS[f].help}`)];
}

/** `mcp-gate COMMAND --help`. */
export function commandUsage(command: CommandName): string {
  const spec: CommandSpec = COMMANDS[command];
  return [
    `Usage: mcp-gate ${spec.synopsis}`,
    '',
    `${spec.summary[0]!.toUpperCase()}${spec.summary.slice(1)}.`,
    '',
    'Options:',
    ...flagsOf(command).flatMap((flag) => (flag === 'format' ? formatHelp(command) : [`  ${spec.flagHelp?.[flag] ?? FLAG_HELP[flag]}`])),
    '',
    'Example:',
    `  ${spec.example}`,
    '',
    ...(command === 'run' || command === 'merge' || command === 'diff' ? [EXIT_CODES, ''] : []),
  ].join('\n');
}
