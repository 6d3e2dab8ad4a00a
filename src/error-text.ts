import { formatProblem, InputError } from './config/problems.js';
import { BaselineUnavailableError, RunTimeoutError, SideUnavailableError } from './connect/errors.js';

/** The message of anything thrown, for people. */
export const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** What an entry point prints for an error that stopped the gate before a verdict (exit 3). */
export function failureText(error: unknown): string {
  if (error instanceof InputError) return `mcp-gate: invalid input:\n${error.problems.map((p) => `  ${formatProblem(p)}`).join('\n')}`;
  if (error instanceof BaselineUnavailableError || error instanceof SideUnavailableError || error instanceof RunTimeoutError) {
    return `mcp-gate: cannot decide: ${error.message}`;
  }
  return `mcp-gate: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
}
