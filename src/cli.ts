import { parseArgs, type ParseArgsConfig } from 'node:util';
import { exitCodeOf, FAIL_ONS, FORMATS, type CommandIO, type FailOn, type Format, type Outcome } from './commands/outcome.js';
import { describe, failureText } from './error-text.js';
import { guardProcess } from './process-guard.js';
import { GATE_VERSION } from './version.js';
import { redact } from './secrets.js';

// Commands are imported when used: `--version` and `--help` must not pay for the SDK and ajv.

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
  output: { type: 'string', short: 'o' },
  quiet: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', default: false },
} satisfies ParseArgsConfig['options'];

class UsageError extends Error {}

async function main(argv: string[], interrupted: () => boolean): Promise<number> {
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
  if (!FAIL_ONS.includes(failOn)) throw new UsageError(`--fail-on must be rollback, hold or never, not "${failOn}"`);

  const io: CommandIO = {
    // Everything leaving the gate is redacted: see src/secrets.ts.
    stdout: (text) => process.stdout.write(redact(text)),
    log: values.quiet ? () => undefined : (line) => process.stderr.write(`${redact(line)}\n`),
    error: (line) => process.stderr.write(`${redact(line)}\n`),
    env: process.env,
    cwd: process.cwd(),
    colour: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR && process.env.TERM !== 'dumb',
    interrupted,
  };
  const expectArgs = (count: number, names: string) => {
    if (rest.length !== count) throw new UsageError(`${command} takes ${names}`);
  };
  let outcome: Outcome;
  switch (command) {
    case 'run':
      expectArgs(0, 'no positional arguments');
      outcome = await (await import('./commands/run.js')).runCommand({ config: values.config, baseline: values.baseline, candidate: values.candidate, datasets: values.dataset, reportDir: values['report-dir'], format, approvedByLabel: values['approved-by-label'], server: values.server }, io);
      break;
    case 'plan':
      expectArgs(0, 'no positional arguments');
      outcome = (await import('./commands/plan.js')).planCommand({ config: values.config }, io);
      break;
    case 'merge': {
      const configGiven = parsed.tokens.some((t) => t.kind === 'option' && t.name === 'config');
      outcome = (await import('./commands/merge.js')).mergeCommand({ config: values.config, configGiven, reports: rest, reportDir: values['report-dir'], format }, io);
      break;
    }
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

/**
 * The CLI. bin/mcp-gate.js loads the bundle (dist/entry/mcp-gate.cjs) and calls this with the
 * arguments; loading the module starts nothing, so the build can record its code cache.
 */
export function runCli(argv: string[]): void {
  const interrupted = guardProcess();
  main(argv, interrupted).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      const text = error instanceof UsageError ? `mcp-gate: ${error.message}\n\n${USAGE}` : `${failureText(error)}\n`;
      process.stderr.write(redact(text));
      process.exitCode = 3;
    },
  );
}
