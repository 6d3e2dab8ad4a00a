import type { ParseArgsConfig } from 'node:util';

/**
 * What each command takes, in one table: its flags, its positional arguments, a line of what it
 * does and an example. `mcp-gate --help`, `mcp-gate COMMAND --help` and the usage errors are all
 * written from it, so a flag the parser accepts is a flag the help lists.
 */

export const OPTIONS = {
  config: { type: 'string', short: 'c', default: 'gate.config.yaml' },
  baseline: { type: 'string' },
  candidate: { type: 'string' },
  dataset: { type: 'string', multiple: true },
  'report-dir': { type: 'string' },
  format: { type: 'string', default: 'text' },
  'fail-on': { type: 'string', default: 'hold' },
  profile: { type: 'string' },
  server: { type: 'string' },
  'approved-by-label': { type: 'string' },
  'policy-base': { type: 'string' },
  output: { type: 'string', short: 'o' },
  from: { type: 'string' },
  command: { type: 'string' },
  package: { type: 'string' },
  args: { type: 'string' },
  force: { type: 'boolean', default: false },
  quiet: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', default: false },
} satisfies ParseArgsConfig['options'];

export type OptionName = keyof typeof OPTIONS;

const FLAG_HELP: Record<OptionName, string> = {
  config: '-c, --config FILE        the gate config (default ./gate.config.yaml)',
  baseline: '--baseline NAME          baseline profile, instead of the config\'s "baseline"',
  candidate: '--candidate NAME         candidate profile, instead of the config\'s "candidate"',
  dataset: "--dataset FILE           a dataset of cases; repeatable; replaces the config's datasets",
  'report-dir': '--report-dir DIR         where reports go (default: reports.dir of the config)',
  format: '--format FORMAT          text|json|markdown|junit|sarif|html: what goes to stdout, or to -o (default text)',
  'fail-on': '--fail-on LEVEL          rollback|hold|never: the verdict that fails the command (default hold)',
  profile: '--profile NAME           the profile to read',
  server: '--server NAME            gate one server of a bundle',
  'approved-by-label': '--approved-by-label NAME a person approved this run with a PR label: Rollback or Hold becomes Promote',
  'policy-base': '--policy-base REF        hold (gate-policy-changed) when the config or a dataset differs from this commit',
  output: '-o, --output FILE        write to FILE instead of stdout',
  from: '--from FILE#NAME         a server of an MCP client config (.mcp.json, .vscode/mcp.json, .cursor/mcp.json)',
  command: '--command "CMD ARGS"     the command that starts the server over stdio (or: init -- CMD ARGS...)',
  package: '--package NAME@VERSION  the released npm package to use as the baseline (npx -y NAME@VERSION)',
  args: '--args FILE              YAML of probe arguments per tool name; these win over the ones built from schemas',
  force: '--force                  overwrite files that exist',
  quiet: '--quiet                  no progress on stderr',
  help: '-h, --help               this help',
  version: '--version                the version of mcp-gate',
};

interface CommandSpec {
  synopsis: string;
  summary: string;
  /** Flags beyond --help and --quiet, which every command takes. */
  flags: OptionName[];
  /** Where a flag means something particular to this command. */
  flagHelp?: Partial<Record<OptionName, string>>;
  example: string;
  /** null when the count of positional arguments is fine, else what the command takes. */
  arity: (count: number) => string | null;
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
  },
  record: {
    synopsis: 'record [-c FILE] [--profile NAME] [-o DATASET]',
    summary: 'call the read-only tools of a profile twice and freeze what they return as cases',
    flags: ['config', 'profile', 'output', 'args', 'force'],
    flagHelp: {
      profile: '--profile NAME           the live profile to call (default: the baseline; the candidate when the baseline is a snapshot)',
      output:
        '-o, --output DATASET     the dataset to write, or to add new tools to (default: the one record wrote before, else datasets/recorded.cases.yaml)',
      force: '--force                  write the dataset anew instead of adding to it',
    },
    example: 'mcp-gate record --profile baseline -o datasets/recorded.cases.yaml',
    arity: none('record'),
  },
  run: {
    synopsis: 'run [-c FILE]',
    summary:
      'start both profiles, diff, replay cases, audit, decide, write the report; with servers in the config, gate every server (a bundle)',
    flags: ['config', 'baseline', 'candidate', 'dataset', 'server', 'report-dir', 'format', 'fail-on', 'approved-by-label', 'policy-base'],
    example: 'mcp-gate run -c gate.config.yaml --format markdown',
    arity: none('run'),
  },
  plan: {
    synopsis: 'plan [-c FILE]',
    summary: "print the bundle's servers as a GitHub Actions matrix (JSON)",
    flags: ['config'],
    example: 'mcp-gate plan -c bundle.config.yaml',
    arity: none('plan'),
  },
  merge: {
    synopsis: 'merge REPORT...',
    summary: 'combine per-server reports into the bundle verdict and summary',
    flags: ['config', 'report-dir', 'format', 'fail-on'],
    example: 'mcp-gate merge reports/*/report.json --format markdown',
    arity: () => null,
  },
  validate: {
    synopsis: 'validate [-c FILE]',
    summary: 'check the config and every dataset without starting a server',
    flags: ['config'],
    example: 'mcp-gate validate -c gate.config.yaml',
    arity: none('validate'),
  },
  snapshot: {
    synopsis: 'snapshot --profile NAME [-o FILE]',
    summary: "write one profile's contract snapshot (JSON)",
    flags: ['config', 'profile', 'output'],
    flagHelp: { profile: '--profile NAME           the profile to read (required)' },
    example: 'mcp-gate snapshot --profile candidate -o contracts/baseline.contract.json',
    arity: none('snapshot'),
  },
  diff: {
    synopsis: 'diff BEFORE AFTER',
    summary: 'diff two contracts: snapshot files or profile names',
    flags: ['config', 'format', 'fail-on'],
    example: 'mcp-gate diff contracts/baseline.contract.json candidate',
    arity: (n: number) => (n === 2 ? null : 'diff takes BEFORE and AFTER: snapshot files or profile names'),
  },
  show: {
    synopsis: 'show REPORT.json [-o FILE]',
    summary: 'render a saved report (--format html: one self-contained page)',
    flags: ['format', 'output'],
    example: 'mcp-gate show reports/latest/report.json --format html -o report.html',
    arity: (n: number) => (n === 1 ? null : 'show takes one REPORT.json'),
  },
  history: {
    synopsis: 'history [DIR] [-o FILE]',
    summary: 'past runs in DIR (default reports.dir), oldest first, with contract drift against the same pair',
    flags: ['config', 'format', 'output'],
    example: 'mcp-gate history reports --format markdown',
    arity: (n: number) => (n <= 1 ? null : 'history takes at most one DIR'),
  },
} satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMANDS;

export const isCommand = (name: string): name is CommandName => Object.hasOwn(COMMANDS, name);

/** The flags a command accepts: its own, and the ones every command takes. */
export const flagsOf = (command: CommandName): OptionName[] => [...COMMANDS[command].flags, 'quiet', 'help'];

const EXIT_CODES = 'Exit codes: 0 Promote (or allowed by --fail-on), 1 Rollback, 2 Hold, 3 could not decide.';

/** `mcp-gate --help`. */
export function usage(): string {
  const rows = Object.entries(COMMANDS).map(([, spec]) => `  ${spec.synopsis.padEnd(34)} ${spec.summary}`);
  return [
    'Usage: mcp-gate <command> [options]',
    '',
    'Commands:',
    ...rows,
    '',
    'Each command has its own help: mcp-gate <command> --help',
    'Other options: --version, -h/--help',
    '',
    'Start here: mcp-gate init --from .mcp.json#NAME   (or --command "node dist/server.js")',
    '',
    EXIT_CODES,
    '',
  ].join('\n');
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
    ...flagsOf(command).map((flag) => `  ${spec.flagHelp?.[flag] ?? FLAG_HELP[flag]}`),
    '',
    'Example:',
    `  ${spec.example}`,
    '',
    ...(command === 'run' || command === 'merge' || command === 'diff' ? [EXIT_CODES, ''] : []),
  ].join('\n');
}
