import { crashExcerpt } from '../base/error-text.js';
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
    /** The side did not answer in time (rather than exiting or breaking the protocol). */
    readonly timedOut = false,
    /** The JSON-RPC error code the server answered with, when it answered with one (-32602: invalid params). */
    readonly rpcCode?: number,
  ) {
    super(message);
    this.name = 'SideUnavailableError';
  }
}

/** Phases of starting a side: spawning, waiting for its url, the handshake, and discovery. */
const STARTING: readonly Phase[] = [
  'spawn',
  'ready',
  'initialize',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
];

/**
 * Whether a side failed while starting, by exiting or by breaking the protocol before discovery
 * ended: such a failure is often a collision with the other side (a lock, a port, a cache being
 * written), so it is worth one more start. A timeout is not retried (it would double the wait),
 * nor is a side ended by the run's deadline.
 */
export const failedWhileStarting = (error: unknown): error is SideUnavailableError =>
  error instanceof SideUnavailableError && STARTING.includes(error.phase) && !error.timedOut;

/** A side's failure told with its profile's name, for a command that reads one profile (init, record, snapshot). */
export function ofProfile(name: string, failure: SideUnavailableError): SideUnavailableError {
  if (failure.message.startsWith(`profile "${name}"`)) return failure;
  const message = `profile "${name}" is unavailable (${failure.phase}): ${failure.message}`;
  return new SideUnavailableError(failure.side, failure.phase, message, failure.stderrTail, failure.timedOut, failure.rpcCode);
}

/** What a side that failed wrote to stderr, as lines that follow its message; empty when it wrote nothing. */
export const stderrExcerpt = (failure: SideUnavailableError): string =>
  failure.stderrTail.trim() ? `\nserver stderr (tail):\n${crashExcerpt(failure.stderrTail, 10).join('\n')}` : '';

/** The live baseline could not be read: the gate cannot decide (exit 3). */
export class BaselineUnavailableError extends Error {
  constructor(
    readonly failure: SideUnavailableError,
    profile: string,
    /** Why the first start failed, when this failure is of the second. */
    firstStart?: { phase: string; message: string; alone?: boolean },
    /** Why the profile's fallback did not stand in, when it has one. */
    fallbackNote = '',
  ) {
    const times = firstStart?.alone ? 'three times, the last alone with the candidate stopped' : 'twice';
    const retry = firstStart ? ` (started ${times}: the first start failed too, in ${firstStart.phase}: ${firstStart.message})` : '';
    super(
      `baseline profile "${profile}" is unavailable (${failure.phase}): ${failure.message}${retry}${fallbackNote}${stderrExcerpt(failure)}`,
    );
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
  // The SDK v2 client wraps a failure of its server/discover probe: the fetch error is its cause.
  for (let depth = 0; depth < 3 && error instanceof Error && !(error instanceof TypeError); depth++) error = error.cause;
  if (!(error instanceof TypeError) || !/fetch failed/i.test(error.message)) return null;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code
    ? `${cause.code}${cause.message && !cause.message.includes(cause.code) ? ` (${cause.message})` : ''}`
    : (cause?.message ?? error.message);
}
