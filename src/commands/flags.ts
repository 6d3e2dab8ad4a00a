import type { ParseArgsConfig } from 'node:util';

/**
 * Every flag of the CLI, declared once: its parser entry (`node:util` parseArgs), its type and its
 * help line. Which command takes which flag is `COMMANDS` in table.ts.
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
  'confirm-lookups': { type: 'boolean', default: false },
  quiet: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'V', default: false },
} satisfies ParseArgsConfig['options'];

export type OptionName = keyof typeof OPTIONS;

type OptionValue<O> = O extends { type: 'boolean' } ? boolean : O extends { multiple: true } ? string[] : string;
/** The parsed flags, typed from OPTIONS: a flag with a default is always there. */
export type Options = {
  [K in OptionName as (typeof OPTIONS)[K] extends { default: unknown } ? K : never]: OptionValue<(typeof OPTIONS)[K]>;
} & {
  [K in OptionName as (typeof OPTIONS)[K] extends { default: unknown } ? never : K]?: OptionValue<(typeof OPTIONS)[K]>;
};

export const FLAG_HELP: Record<OptionName, string> = {
  config: '-c, --config FILE        the gate config (default ./gate.config.yaml)',
  baseline: '--baseline NAME          baseline profile, instead of the config\'s "baseline"',
  candidate: '--candidate NAME         candidate profile, instead of the config\'s "candidate"',
  dataset: "--dataset FILE           a dataset of cases; repeatable; replaces the config's datasets",
  'report-dir': '--report-dir DIR         where reports go (default: reports.dir of the config)',
  format: '--format FORMAT          what goes to stdout, or to -o (default text)',
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
  'confirm-lookups':
    '--confirm-lookups        also call the tools that declare no hint and are named like lookups; their cases say sideEffects: allowed',
  quiet: '--quiet                  no progress on stderr',
  help: '-h, --help               this help',
  version: '-V, --version            the version of mcp-gate',
};
