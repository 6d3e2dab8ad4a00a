import { failureText } from '../error-text.js';
import { guardProcess } from '../process-guard.js';
import { inertLines, noWorkflowCommands } from '../inert.js';
import { redact } from '../secrets.js';
import { exitCodeOf, type CommandIO, type FailOn, type Format, type Outcome } from './outcome.js';

/** What the gate writes to stdout (rendered reports, whose server text each renderer made inert) and to stderr. */
export const toStdout = (text: string): string => noWorkflowCommands(redact(text));
export const toStderr = (text: string): string => noWorkflowCommands(inertLines(redact(text)));

/** A command line the CLI's front (src/cli.ts) has parsed and checked: what the gate runs. */
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

/** What the gate bundle (src/entry.ts) offers the CLI's front. */
export interface GateCommands {
  runCommand(request: CommandRequest): Promise<number>;
}

/**
 * Runs one command and returns the process's exit code. This is an entry point, with
 * action/main.ts: it ends the servers on a signal, and it alone turns an error into exit 3.
 * Commands are imported when used.
 */
export async function runCommand(request: CommandRequest): Promise<number> {
  const interrupted = guardProcess();
  try {
    return exitCodeOf(await dispatch(request, interrupted), request.options.failOn);
  } catch (error) {
    process.stderr.write(`${toStderr(failureText(error))}\n`);
    return 3;
  }
}

async function dispatch({ command, args, options, configGiven }: CommandRequest, interrupted: () => boolean): Promise<Outcome> {
  const { config, format, output } = options;
  const io: CommandIO = {
    // Everything leaving the gate is redacted (src/secrets.ts) and can start no workflow command
    // (src/inert.ts); stderr, which quotes servers' errors, is made inert line by line too.
    stdout: (text) => process.stdout.write(toStdout(text)),
    log: options.quiet ? () => undefined : (line) => process.stderr.write(`${toStderr(line)}\n`),
    error: (line) => process.stderr.write(`${toStderr(line)}\n`),
    env: process.env,
    cwd: process.cwd(),
    colour: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR && process.env.TERM !== 'dumb',
    interrupted,
  };
  switch (command) {
    case 'run':
      return (await import('./run.js')).runCommand({ config, baseline: options.baseline, candidate: options.candidate, datasets: options.dataset, reportDir: options['report-dir'], format, approvedByLabel: options['approved-by-label'], policyBase: options['policy-base'], server: options.server }, io);
    case 'plan':
      return (await import('./plan.js')).planCommand({ config }, io);
    case 'merge':
      return (await import('./merge.js')).mergeCommand({ config, configGiven, reports: args, reportDir: options['report-dir'], format }, io);
    case 'validate':
      return (await import('./validate.js')).validateCommand({ config }, io);
    case 'snapshot':
      return (await import('./snapshot.js')).snapshotCommand({ config, profile: options.profile, output }, io);
    case 'diff':
      return (await import('./diff.js')).diffCommand({ config, before: args[0]!, after: args[1]!, format }, io);
    case 'show':
      return (await import('./show.js')).showCommand(args[0]!, format, io, output);
    case 'history':
      return (await import('./history.js')).historyCommand({ dir: args[0], config, configGiven, format, output }, io);
  }
}
