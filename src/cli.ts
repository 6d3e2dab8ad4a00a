import { parseArgs, type ParseArgsConfig } from 'node:util';
import { exitCodeOf, FAIL_ONS, failureText, toStderr, toStdout, type CommandIO, type FailOn, type Outcome } from './commands/io.js';
import { guardProcess } from './connect/process-guard.js';
import { describe } from './error-text.js';
import { FORMATS, type Format } from './report/render.js';
import { GATE_VERSION } from './version.js';

/**
 * The CLI: arguments, `--version`, `--help` and usage errors, then the command. This is an entry
 * point, with action/main.ts: it ends the servers on a signal, it alone turns an error into exit 3,
 * and it alone sets the exit code. Each command's modules load only when that command runs, so
 * `--version` and a mistyped flag do not initialise the SDK, ajv or the YAML reader.
 */

const USAGE = `Usage: mcp-gate <command> [options]

Commands:
  run [-c FILE]                    start both profiles, diff, replay cases, decide, write the report;
                                   with servers in the config, gate every server (a bundle)
  plan [-c FILE]                   print the bundle's servers as a GitHub Actions matrix (JSON)
  merge REPORT...                  combine per-server reports into the bundle verdict and summary
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
  --server NAME            gate one server of a bundle (run)
  --report-dir DIR         where reports go (run); where merge writes the bundle summary
  --format text|json|markdown|junit|sarif|html
                           what goes to stdout, or to -o FILE (default text)
  --fail-on rollback|hold|never default hold
  --approved-by-label NAME a person approved this run with a PR label: Rollback or Hold
                           becomes Promote, and the report records the approval (run)
  --policy-base REF        hold (gate-policy-changed) when the config or a dataset differs
                           from this git commit, the change's base (run)
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
  server: { type: 'string' },
  'approved-by-label': { type: 'string' },
  'policy-base': { type: 'string' },
  output: { type: 'string', short: 'o' },
  quiet: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', default: false },
} satisfies ParseArgsConfig['options'];

/** A command line, parsed and checked. */
export interface CommandRequest {
  command: 'run' | 'plan' | 'merge' | 'validate' | 'snapshot' | 'diff' | 'show' | 'history';
  /** Positional arguments after the command, in the number the command takes. */
  args: string[];
  options: {
    config: string;
    baseline?: string;
    candidate?: string;
    dataset?: string[];
    'report-dir'?: string;
    format: Format;
    failOn: FailOn;
    profile?: string;
    server?: string;
    'approved-by-label'?: string;
    'policy-base'?: string;
    output?: string;
    quiet: boolean;
  };
  /** Whether -c/--config was given, not defaulted: merge and history read a config only then. */
  configGiven: boolean;
}

class UsageError extends Error {}

const noPositionals = (command: string) => (n: number) => (n === 0 ? null : `${command} takes no positional arguments`);

/** Positional arguments each command takes: null when fine, else what it takes. */
const ARITY: Record<CommandRequest['command'], (count: number) => string | null> = {
  run: noPositionals('run'),
  plan: noPositionals('plan'),
  merge: () => null,
  validate: noPositionals('validate'),
  snapshot: noPositionals('snapshot'),
  diff: (n) => (n === 2 ? null : 'diff takes BEFORE and AFTER: snapshot files or profile names'),
  show: (n) => (n === 1 ? null : 'show takes one REPORT.json'),
  history: (n) => (n <= 1 ? null : 'history takes at most one DIR'),
};

const isCommand = (name: string): name is CommandRequest['command'] => Object.hasOwn(ARITY, name);

/** The command to run, or the exit code when the arguments were answered here (version, help). */
function parse(argv: string[]): CommandRequest | number {
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
  const [command, ...args] = positionals;
  if (values.help || !command) {
    process.stdout.write(USAGE);
    return command || values.help ? 0 : 3;
  }
  const format = values.format as Format;
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, not "${values.format}"`);
  const failOn = values['fail-on'] as FailOn;
  if (!FAIL_ONS.includes(failOn)) throw new UsageError(`--fail-on must be rollback, hold or never, not "${failOn}"`);
  if (!isCommand(command)) throw new UsageError(`unknown command "${command}"`);
  const wrongArity = ARITY[command](args.length);
  if (wrongArity) throw new UsageError(wrongArity);
  const configGiven = parsed.tokens.some((t) => t.kind === 'option' && t.name === 'config');
  return { command, args, options: { ...values, format, failOn }, configGiven };
}

/** Runs the CLI on its arguments (without node and the script) and sets the process's exit code. */
export async function main(argv: string[]): Promise<void> {
  let request: CommandRequest | number;
  try {
    request = parse(argv);
  } catch (error) {
    // Nothing is registered as a secret before a config is read, so there is nothing to redact yet.
    process.stderr.write(
      error instanceof UsageError ? `mcp-gate: ${error.message}\n\n${USAGE}` : `mcp-gate: internal error: ${describe(error)}\n`,
    );
    process.exitCode = 3;
    return;
  }
  if (typeof request === 'number') {
    process.exitCode = request;
    return;
  }
  const interrupted = guardProcess();
  try {
    process.exitCode = exitCodeOf(await dispatch(request, processIO(request.options.quiet, interrupted)), request.options.failOn);
  } catch (error) {
    process.stderr.write(`${toStderr(failureText(error))}\n`);
    process.exitCode = 3;
  }
}

/** The GitHub Action's entry point (bin/mcp-gate-action.js), in the same bundle as the CLI. */
export async function runAction(): Promise<void> {
  (await import('./action/main.js')).runAction();
}

/**
 * The process's streams for a command. Everything leaving the gate is redacted (src/secrets.ts)
 * and can start no workflow command (src/inert.ts); stderr, which quotes servers' errors, is made
 * inert line by line too.
 */
function processIO(quiet: boolean, interrupted: () => boolean): CommandIO {
  return {
    stdout: (text) => process.stdout.write(toStdout(text)),
    log: quiet ? () => undefined : (line) => process.stderr.write(`${toStderr(line)}\n`),
    error: (line) => process.stderr.write(`${toStderr(line)}\n`),
    env: process.env,
    cwd: process.cwd(),
    colour: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR && process.env.TERM !== 'dumb',
    interrupted,
  };
}

/** One file per command, imported when used. */
async function dispatch({ command, args, options, configGiven }: CommandRequest, io: CommandIO): Promise<Outcome> {
  const { config, format, output } = options;
  switch (command) {
    case 'run':
      return (await import('./commands/run.js')).runCommand(
        {
          config,
          baseline: options.baseline,
          candidate: options.candidate,
          datasets: options.dataset,
          reportDir: options['report-dir'],
          format,
          approvedByLabel: options['approved-by-label'],
          policyBase: options['policy-base'],
          server: options.server,
        },
        io,
      );
    case 'plan':
      return (await import('./commands/plan.js')).planCommand({ config }, io);
    case 'merge':
      return (await import('./commands/merge.js')).mergeCommand(
        { config, configGiven, reports: args, reportDir: options['report-dir'], format },
        io,
      );
    case 'validate':
      return (await import('./commands/validate.js')).validateCommand({ config }, io);
    case 'snapshot':
      return (await import('./commands/snapshot.js')).snapshotCommand({ config, profile: options.profile, output }, io);
    case 'diff':
      return (await import('./commands/diff.js')).diffCommand({ config, before: args[0]!, after: args[1]!, format }, io);
    case 'show':
      return (await import('./commands/show.js')).showCommand(args[0]!, format, io, output);
    case 'history':
      return (await import('./commands/history.js')).historyCommand({ dir: args[0], config, configGiven, format, output }, io);
  }
}
