import type { Side } from '../findings/types.js';

export type Phase = 'spawn' | 'initialize' | 'tools/list' | 'tools/call' | 'run';

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
