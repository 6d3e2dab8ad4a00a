import { parseArgs } from 'node:util';
import { closest } from './base/closest.js';
import { exitCodeOf, FAIL_ONS, failureText, toStderr, toStdout, type CommandIO, type FailOn } from './commands/io.js';
import { guardProcess } from './connect/process-guard.js';
import { describe } from './base/error-text.js';
import {
  COMMANDS,
  commandUsage,
  flagsOf,
  formatsOf,
  isCommand,
  UnknownCommand,
  usage,
  type CommandName,
  type CommandRequest,
} from './commands/table.js';
import { OPTIONS, type OptionName } from './commands/flags.js';
import { isFormat, type Format } from './report/formats.js';
import { GATE_VERSION } from './base/version.js';

/**
 * The CLI: arguments, `--version`, `--help` and usage errors, then the command. This is an entry
 * point, with action/main.ts: it ends the servers on a signal, it alone turns an error into exit 3,
 * and it alone sets the exit code. Each command's modules load only when that command runs, so
 * `--version` and a mistyped flag do not initialise the SDK, ajv or the YAML reader.
 */

/** A mistake on the command line: the message, and the help to print after it. */
class UsageError extends Error {
  constructor(
    message: string,
    readonly help: string = usage(),
  ) {
    super(message);
  }
}

const flagName = (name: string): string => (name.length === 1 ? `-${name}` : `--${name}`);

/** The command named on the line, read before the flags are checked, so an error can show that command's help. */
function commandOf(argv: string[]): CommandName | null {
  const stop = argv.indexOf('--');
  return (stop === -1 ? argv : argv.slice(0, stop)).find(isCommand) ?? null;
}

/** Node's parse errors, said the way the rest of the gate speaks: the flag, the command, the fix. */
function parseError(error: unknown, argv: string[]): UsageError {
  const command = commandOf(argv);
  const help = command ? commandUsage(command) : usage();
  const where = command ? ` for ${command}` : '';
  const seeHelp = `mcp-gate ${command ? `${command} ` : ''}--help lists the options`;
  const text = describe(error);
  const unknown = /Unknown option '([^']+)'/.exec(text);
  if (unknown) {
    const given = unknown[1]!;
    const known = (command ? flagsOf(command) : (Object.keys(OPTIONS) as OptionName[])).map(flagName);
    const near = closest(given.replace(/=.*$/, ''), known);
    return new UsageError(`unknown option ${given}${where}${near ? ` (did you mean ${near}?)` : ''}; ${seeHelp}`, help);
  }
  const missing = /Option '(?:-\w, )?(--[\w-]+)[^']*' argument missing/.exec(text);
  if (missing) return new UsageError(`${missing[1]} needs a value; ${seeHelp}`, help);
  const notValue = /Option '(?:-\w, )?(--[\w-]+)' does not take an argument/.exec(text);
  if (notValue) return new UsageError(`${notValue[1]} takes no value; ${seeHelp}`, help);
  return new UsageError(`${text.split('\n')[0]}; ${seeHelp}`, help);
}

/** A command to run: the table's name for it, and its request. */
interface Parsed {
  command: CommandName;
  request: CommandRequest;
}

/** The command to run, or the exit code when the arguments were answered here (version, help). */
function parse(argv: string[]): Parsed | number {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    throw parseError(error, argv);
  }
  const { values, tokens } = parsed;
  if (values.version) {
    process.stdout.write(`${GATE_VERSION}\n`);
    return 0;
  }
  // Positionals after `--` belong to init (the server's own command line), never to the gate.
  const terminator = tokens.findIndex((t) => t.kind === 'option-terminator');
  const before = tokens
    .filter((t, i) => t.kind === 'positional' && (terminator === -1 || i < terminator))
    .map((t) => (t as { value: string }).value);
  const after = terminator === -1 ? [] : tokens.slice(terminator + 1).map((t) => (t as { value: string }).value);
  const [command, ...args] = before;
  if (!command) {
    if (values.help) {
      process.stdout.write(usage());
      return 0;
    }
    throw new UsageError('no command given');
  }
  if (!isCommand(command)) throw unknownCommand(command);
  if (values.help) {
    process.stdout.write(commandUsage(command));
    return 0;
  }
  const allowed = new Set<string>(flagsOf(command));
  for (const token of tokens) {
    if (token.kind === 'option' && !allowed.has(token.name)) {
      throw new UsageError(
        `${command} does not take ${flagName(token.name)}; mcp-gate ${command} --help lists its options`,
        commandUsage(command),
      );
    }
  }
  const offered = formatsOf(command);
  if (values.format !== 'text' && !(isFormat(values.format) && offered.includes(values.format)))
    throw new UsageError(`--format must be one of ${offered.join(', ')}, not "${values.format}"`, commandUsage(command));
  const format = values.format as Format;
  const failOn = values['fail-on'] as FailOn;
  if (!FAIL_ONS.includes(failOn)) throw new UsageError(`--fail-on must be rollback, hold or never, not "${failOn}"`, commandUsage(command));
  if (after.length && command !== 'init') throw new UsageError(`${command} takes nothing after --`, commandUsage(command));
  const wrongArity = COMMANDS[command].arity(args.length);
  if (wrongArity) throw new UsageError(wrongArity, commandUsage(command));
  const configGiven = tokens.some((t) => t.kind === 'option' && t.name === 'config');
  return { command, request: { args: command === 'init' ? after : args, options: { ...values, format, 'fail-on': failOn }, configGiven } };
}

function unknownCommand(command: string): UsageError {
  const near = closest(command, Object.keys(COMMANDS));
  return new UsageError(`unknown command "${command}"${near ? ` (did you mean ${near}?)` : ''}`);
}

/** Runs the CLI on its arguments (without node and the script) and sets the process's exit code. */
export async function main(argv: string[]): Promise<void> {
  let parsed: Parsed | number;
  try {
    parsed = parse(argv);
  } catch (error) {
    // Nothing is registered as a secret before a config is read, so there is nothing to redact yet.
    process.stderr.write(
      error instanceof UsageError ? `mcp-gate: ${error.message}\n\n${error.help}` : `mcp-gate: internal error: ${describe(error)}\n`,
    );
    process.exitCode = 3;
    return;
  }
  if (typeof parsed === 'number') {
    process.exitCode = parsed;
    return;
  }
  const { command, request } = parsed;
  const interrupted = guardProcess();
  try {
    const outcome = await COMMANDS[command].run(request, processIO(request.options.quiet, interrupted));
    process.exitCode = exitCodeOf(outcome, request.options['fail-on']);
  } catch (error) {
    process.stderr.write(
      error instanceof UnknownCommand
        ? `mcp-gate: ${unknownCommand(error.command).message}\n\n${usage()}`
        : `${toStderr(failureText(error))}\n`,
    );
    process.exitCode = 3;
  }
}

/** The GitHub Action's entry point (bin/mcp-gate-action.js), in the same bundle as the CLI. */
export async function runAction(): Promise<void> {
  (await import('./action/main.js')).runAction();
}

/**
 * Colour on stdout: FORCE_COLOR (set, and not 0 or false) turns it on even in a pipe, as CI logs
 * that render ANSI want; NO_COLOR turns it off; otherwise a terminal that is not dumb gets it.
 */
export function wantsColour(env: NodeJS.ProcessEnv, tty: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !['0', 'false'].includes(force.toLowerCase());
  return tty && !env.NO_COLOR && env.TERM !== 'dumb';
}

/**
 * The process's streams for a command. Everything leaving the gate is redacted (src/base/secrets.ts)
 * and can start no workflow command (src/base/inert.ts); stderr, which quotes servers' errors, is made
 * inert line by line too.
 */
function processIO(quiet: boolean, interrupted: () => boolean): CommandIO {
  return {
    stdout: (text) => process.stdout.write(toStdout(text)),
    stdoutDrained: () => drained(process.stdout),
    log: quiet ? () => undefined : (line) => process.stderr.write(`${toStderr(line)}\n`),
    error: (line) => process.stderr.write(`${toStderr(line)}\n`),
    env: process.env,
    cwd: process.cwd(),
    colour: wantsColour(process.env, Boolean(process.stdout.isTTY)),
    interrupted,
  };
}

/** Resolves when a stream's queued writes have gone out, or it closed or failed (then nothing more will go). */
function drained(stream: NodeJS.WriteStream): Promise<void> {
  if (!stream.writableNeedDrain) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      for (const event of ['drain', 'close', 'error']) stream.off(event, done);
      resolve();
    };
    for (const event of ['drain', 'close', 'error']) stream.once(event, done);
  });
}
