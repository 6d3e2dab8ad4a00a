import { parseArgs, type ParseArgsConfig } from 'node:util';
import { formatProblem, InputError } from './config/problems.js';
import { endAllGroups, killAllGroupsNow } from './connect/process-group.js';
import { BaselineUnavailableError, RunTimeoutError, SideUnavailableError } from './connect/errors.js';
import { FORMATS, type CommandIO, type Format, type Outcome } from './commands/outcome.js';
import type { Verdict } from './decide/decide.js';
import { describe } from './error-text.js';
import { GATE_VERSION } from './version.js';

// Commands are imported when used: `--version` and `--help` must not pay for the SDK and ajv.

const USAGE = `Usage: mcp-gate <command> [options]

Commands:
  run [-c FILE]                    start both profiles, diff, replay cases, decide, write the report
  validate [-c FILE]               check the config and every dataset without starting a server
  snapshot --profile NAME [-o F]   write one profile's contract snapshot (JSON)
  diff BEFORE AFTER                diff two contracts: snapshot files or profile names
  show REPORT.json [-o FILE]       render a saved report (--format html: one self-contained page)
  history [DIR] [-o FILE]          past runs in DIR (default reports.dir), oldest first, with contract drift

Options:
  -c, --config FILE        default ./gate.config.yaml
  --baseline NAME          baseline profile (run)
  --candidate NAME         candidate profile (run)
  --dataset FILE           repeatable; replaces datasets (run)
  --report-dir DIR         where reports go (run)
  --format text|json|markdown|html   what goes to stdout, or to -o FILE (default text)
  --fail-on rollback|hold|never default hold
  --quiet                  no progress on stderr
  -h, --help, --version

Exit codes: 0 Promote (or allowed by --fail-on), 1 Rollback, 2 Hold, 3 could not decide.
`;

const OPTIONS = {
  config: { type: 'string', short: 'c', default: 'gate.config.yaml' },
  baseline: { type: 'string' },
  candidate: { type: 'string' },
  dataset: { type: 'string', multiple: true },
  'report-dir': { type: 'string' },
  format: { type: 'string', default: 'text' },
  'fail-on': { type: 'string', default: 'hold' },
  profile: { type: 'string' },
  output: { type: 'string', short: 'o' },
  quiet: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', default: false },
} satisfies ParseArgsConfig['options'];

type FailOn = 'rollback' | 'hold' | 'never';

/** Verdict -> exit code, under --fail-on. */
function verdictExitCode(verdict: Verdict, failOn: FailOn): number {
  if (verdict === 'Rollback') return failOn === 'never' ? 0 : 1;
  if (verdict === 'Hold') return failOn === 'hold' ? 2 : 0;
  return 0;
}

function exitCodeOf(outcome: Outcome, failOn: FailOn): number {
  if (outcome.kind === 'ok') return 0;
  if (outcome.kind === 'undecided') return 3;
  const code = verdictExitCode(outcome.verdict, failOn);
  // A passing verdict without its saved report is not a success: nothing is left to audit.
  return code === 0 && !outcome.reportWritten ? 3 : code;
}

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    throw new UsageError(describe(error));
  }
  const { values, positionals } = parsed;
  if (values.version) {
    process.stdout.write(`${GATE_VERSION}\n`);
    return 0;
  }
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    process.stdout.write(USAGE);
    return command || values.help ? 0 : 3;
  }
  const format = values.format as Format;
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, not "${values.format}"`);
  const failOn = values['fail-on'] as FailOn;
  if (!['rollback', 'hold', 'never'].includes(failOn)) throw new UsageError(`--fail-on must be rollback, hold or never, not "${failOn}"`);

  const io: CommandIO = {
    stdout: (text) => process.stdout.write(text),
    log: values.quiet ? () => undefined : (line) => process.stderr.write(`${line}\n`),
    error: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
    cwd: process.cwd(),
    colour: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR && process.env.TERM !== 'dumb',
  };
  const expectArgs = (count: number, names: string) => {
    if (rest.length !== count) throw new UsageError(`${command} takes ${names}`);
  };
  let outcome: Outcome;
  switch (command) {
    case 'run':
      expectArgs(0, 'no positional arguments');
      outcome = await (await import('./commands/run.js')).runCommand({ config: values.config, baseline: values.baseline, candidate: values.candidate, datasets: values.dataset, reportDir: values['report-dir'], format }, io);
      break;
    case 'validate':
      expectArgs(0, 'no positional arguments');
      outcome = (await import('./commands/validate.js')).validateCommand({ config: values.config }, io);
      break;
    case 'snapshot':
      expectArgs(0, 'no positional arguments');
      outcome = await (await import('./commands/snapshot.js')).snapshotCommand({ config: values.config, profile: values.profile, output: values.output }, io);
      break;
    case 'diff':
      expectArgs(2, 'BEFORE and AFTER: snapshot files or profile names');
      outcome = await (await import('./commands/diff.js')).diffCommand({ config: values.config, before: rest[0]!, after: rest[1]!, format }, io);
      break;
    case 'show':
      expectArgs(1, 'one REPORT.json');
      outcome = (await import('./commands/show.js')).showCommand(rest[0]!, format, io, values.output);
      break;
    case 'history':
      if (rest.length > 1) throw new UsageError('history takes at most one DIR');
      outcome = (await import('./commands/history.js')).historyCommand({ dir: rest[0], config: values.config, configGiven: parsed.tokens.some((t) => t.kind === 'option' && t.name === 'config'), format, output: values.output }, io);
      break;
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
  return exitCodeOf(outcome, failOn);
}

/** Interrupted: end every server group we started, then leave with the conventional code. */
function onSignal(signal: NodeJS.Signals): void {
  process.stderr.write(`mcp-gate: ${signal}: ending server processes\n`);
  void endAllGroups(1_000).finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
}
process.once('SIGINT', onSignal);
process.once('SIGTERM', onSignal);
process.once('exit', killAllGroupsNow);

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof InputError) {
      process.stderr.write(`mcp-gate: invalid input:\n${error.problems.map((p) => `  ${formatProblem(p)}`).join('\n')}\n`);
    } else if (error instanceof UsageError) {
      process.stderr.write(`mcp-gate: ${error.message}\n\n${USAGE}`);
    } else if (error instanceof BaselineUnavailableError || error instanceof SideUnavailableError || error instanceof RunTimeoutError) {
      process.stderr.write(`mcp-gate: cannot decide: ${error.message}\n`);
    } else {
      process.stderr.write(`mcp-gate: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    }
    process.exitCode = 3;
  },
);
