import type { Side } from '../findings/types.js';

export type Phase =
  | 'spawn'
  | 'ready'
  | 'initialize'
  | 'tools/list'
  | 'prompts/list'
  | 'resources/list'
  | 'resources/templates/list'
  | 'tools/call'
  | 'prompts/get'
  | 'resources/read'
  | 'run';

/** A side could not be reached or read. The message says what happened, in which phase. */
export class SideUnavailableError extends Error {
  constructor(
    readonly side: Side,
    readonly phase: Phase,
    message: string,
    readonly stderrTail: string = '',
  ) {
    super(message);
    this.name = 'SideUnavailableError';
  }
}

/** The live baseline could not be read: the gate cannot decide (exit 3). */
export class BaselineUnavailableError extends Error {
  constructor(
    readonly failure: SideUnavailableError,
    profile: string,
  ) {
    const tail = failure.stderrTail.trim()
      ? `\nserver stderr (tail):\n${failure.stderrTail.trimEnd().split('\n').slice(-10).join('\n')}`
      : '';
    super(`baseline profile "${profile}" is unavailable (${failure.phase}): ${failure.message}${tail}`);
    this.name = 'BaselineUnavailableError';
  }
}

/** The whole run passed `timeouts.runMs` after both sides were read (during the cases): exit 3. */
export class RunTimeoutError extends Error {
  constructor(runMs: number, stage: string) {
    super(`the run exceeded timeouts.runMs (${runMs} ms) during ${stage}; every server was ended`);
    this.name = 'RunTimeoutError';
  }
}

/**
 * fetch() fails with a bare "fetch failed"; the cause says why (ECONNREFUSED, ENOTFOUND, a TLS
 * error). Null when the error is not a network failure (an HTTP status, a protocol error).
 */
export function networkFailure(error: unknown): string | null {
  if (!(error instanceof TypeError) || !/fetch failed/i.test(error.message)) return null;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code
    ? `${cause.code}${cause.message && !cause.message.includes(cause.code) ? ` (${cause.message})` : ''}`
    : (cause?.message ?? error.message);
}
