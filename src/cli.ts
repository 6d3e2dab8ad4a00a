import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CommandRequest, GateCommands } from './commands/dispatch.js';
import { FAIL_ONS, FORMATS, type FailOn, type Format } from './commands/outcome.js';
import { describe } from './error-text.js';
import { GATE_VERSION } from './version.js';

/**
 * The CLI's front: arguments, `--version`, `--help` and usage errors. It is its own small bundle
 * (dist/entry/cli.cjs), and it loads the gate (dist/entry/mcp-gate.cjs, src/commands/dispatch.ts)
 * only for a command, so `--version` and a mistyped flag do not pay for the SDK, ajv and the YAML
 * readers. Nothing here holds state: the gate's registries (secrets, server groups) live in the
 * gate bundle alone.
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

/**
 * The CLI. bin/mcp-gate.js loads this bundle and calls it with the arguments and a way to load the
 * gate; loading either module starts nothing, so the build can record their code caches.
 */
export function runCli(argv: string[], loadGate: () => GateCommands): void {
  let request: CommandRequest | number;
  try {
    request = parse(argv);
  } catch (error) {
    // Nothing is registered as a secret before a config is read, so there is nothing to redact yet.
    process.stderr.write(error instanceof UsageError ? `mcp-gate: ${error.message}\n\n${USAGE}` : `mcp-gate: internal error: ${describe(error)}\n`);
    process.exitCode = 3;
    return;
  }
  if (typeof request === 'number') {
    process.exitCode = request;
    return;
  }
  let gate: GateCommands;
  try {
    gate = loadGate();
  } catch (error) {
    process.stderr.write(`mcp-gate: could not load dist/entry/mcp-gate.cjs (run \`npm run build\`): ${describe(error)}\n`);
    process.exitCode = 3;
    return;
  }
  // runCommand never rejects: it turns every error into its message and exit 3.
  void gate.runCommand(request).then((code) => {
    process.exitCode = code;
  });
}
