import { writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { writeFileAtomic, WriteError } from '../base/atomic-write.js';
import { loadConfig, type ConfigFlags } from '../config/load.js';
import { formatProblem, InputError } from '../base/problems.js';
import type { GateConfig } from '../config/types.js';
import { BaselineUnavailableError, RunTimeoutError, SideUnavailableError, stderrExcerpt } from '../connect/errors.js';
import { BaselineBuildError } from '../connect/git-tree.js';
import type { BundleSummary } from '../report/bundle-summary.js';
import type { Verdict } from '../decide/decide.js';
import { stackOf } from '../base/error-text.js';
import { inertLines, noWorkflowCommands } from '../base/inert.js';
import { packageFile } from '../base/package-root.js';
import { render, unsupported, type DocumentKind, type Format } from '../report/formats.js';
import { batched } from '../report/json-pieces.js';
import type { Report } from '../report/types.js';
import { redact } from '../base/secrets.js';

/** What the gate writes to stdout (rendered reports, whose server text each renderer made inert) and to stderr. */
export const toStdout = (text: string): string => noWorkflowCommands(redact(text));
export const toStderr = (text: string): string => noWorkflowCommands(inertLines(redact(text)));

/** What a command ended with. Only the entry points (src/cli.ts, action/main.ts) turn this into an exit code. */
export type Outcome =
  | {
      kind: 'verdict';
      verdict: Verdict;
      reportWritten: boolean;
      report?: Report;
      reportPath?: string | null;
    }
  | { kind: 'ok' }
  | { kind: 'undecided' };

export interface CommandIO {
  stdout: (text: string) => void;
  /** Resolves once what went to stdout has left the process (a slow pipe queues it in memory); absent: at once. */
  stdoutDrained?: () => Promise<void>;
  /** Progress and logs; silenced by --quiet. */
  log: (line: string) => void;
  /** Errors; never silenced. */
  error: (line: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  colour: boolean;
  /** True once the gate got SIGINT/SIGTERM: the servers are being ended, so nothing is decided. */
  interrupted: () => boolean;
}

export type FailOn = 'rollback' | 'hold' | 'never';
export const FAIL_ONS: readonly FailOn[] = ['rollback', 'hold', 'never'];

/** Verdict -> exit code, under --fail-on. */
function verdictExitCode(verdict: Verdict, failOn: FailOn): number {
  if (verdict === 'Rollback') return failOn === 'never' ? 0 : 1;
  if (verdict === 'Hold') return failOn === 'hold' ? 2 : 0;
  return 0;
}

/** The exit code of an outcome. Only the entry points (src/cli.ts, action/main.ts) set it on the process. */
export function exitCodeOf(outcome: Outcome, failOn: FailOn): number {
  if (outcome.kind === 'ok') return 0;
  if (outcome.kind === 'undecided') return 3;
  const code = verdictExitCode(outcome.verdict, failOn);
  // A passing verdict without its saved report is not a success: nothing is left to audit.
  return code === 0 && !outcome.reportWritten ? 3 : code;
}

/**
 * Sends a rendered page to stdout, or with `-o FILE` writes it atomically (src/base/atomic-write.ts),
 * creating the folder, so a workflow step can upload the file right after.
 */
export function emit(text: string, output: string | undefined, io: CommandIO): void {
  if (!output || output === '-') {
    io.stdout(text);
    return;
  }
  const target = resolve(io.cwd, output);
  writeFileAtomic(target, text);
  io.log(`mcp-gate: wrote ${relative(io.cwd, target) || target}`);
}

/**
 * `emit` for a page too long to hold as one string (the json format of a large report): sent, or
 * written atomically, a batch at a time, each batch sent once the last has left.
 */
export async function emitPieces(pieces: Iterable<string>, output: string | undefined, io: CommandIO): Promise<void> {
  if (!output || output === '-') {
    for (const batch of batched(pieces)) {
      io.stdout(batch);
      await io.stdoutDrained?.();
    }
    return;
  }
  const target = resolve(io.cwd, output);
  writeFileAtomic(target, (fd) => {
    for (const batch of batched(pieces)) writeFileSync(fd, batch);
  });
  io.log(`mcp-gate: wrote ${relative(io.cwd, target) || target}`);
}

/** Prints a summary (or writes it to `output`) and turns it into an outcome: shared by `run` and `merge`. */
export function printBundle(
  summary: BundleSummary,
  summaryPath: string | null,
  written: boolean,
  shown: { format: Format; output?: string },
  io: CommandIO,
): Outcome {
  emit(render('bundle', summary, shown.format, { summaryPath, colour: io.colour && !shown.output }), shown.output, io);
  if (summaryPath) io.log(`mcp-gate: bundle summary written to ${summaryPath}`);
  if (!summary.verdict) return { kind: 'undecided' };
  return { kind: 'verdict', verdict: summary.verdict, reportWritten: written };
}

/** A format this kind of document has no form in is a usage problem, told before any server starts. */
export function assertRenders(kind: DocumentKind, format: Format): void {
  const why = unsupported(kind, format);
  if (why) throw new InputError([{ file: 'command line', line: null, path: `--format ${format}`, message: why }]);
}

/** What an entry point prints for an error that stopped the gate before a verdict (exit 3). */
export function failureText(error: unknown): string {
  if (error instanceof WriteError) return `mcp-gate: ${error.message}`;
  if (error instanceof InputError) return `mcp-gate: invalid input:\n${error.problems.map((p) => `  ${formatProblem(p)}`).join('\n')}`;
  // init, record and snapshot read one side, so its failure comes here bare: its stderr follows it, as run's does.
  if (error instanceof SideUnavailableError) return `mcp-gate: cannot decide: ${error.message}${stderrExcerpt(error)}`;
  if (error instanceof BaselineUnavailableError || error instanceof RunTimeoutError || error instanceof BaselineBuildError) {
    return `mcp-gate: cannot decide: ${error.message}`;
  }
  return `mcp-gate: internal error: ${error instanceof Error ? stackOf(error, packageFile('dist/packed/mcp-gate.cjs')) : String(error)}`;
}

/** Loads the config for a command, and says on stderr what is worth fixing but does not stop it (a deprecated key). */
export function readConfig(file: string, io: CommandIO, flags: ConfigFlags = {}): GateConfig {
  const config = loadConfig(file, io.env, flags, io.cwd);
  for (const note of config.notes) io.log(`mcp-gate: note: ${formatProblem(note)}`);
  return config;
}
