import { endAllGroups, killAllGroupsNow } from './process-group.js';

/** The conventional exit code of each signal the gate handles: 128 + its number. */
const EXIT_CODES: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

/**
 * For an entry point (src/cli.ts, action/main.ts): on SIGINT, SIGTERM or SIGHUP, end
 * every server group the gate started and leave with the conventional code (130, 143, 129). A
 * second signal while that is under way kills every group at once (SIGKILL) and leaves. On any
 * exit, what is left is killed. Returns whether a signal came, so a command can refuse to decide
 * (and print no decision) on servers it was told to end.
 */
export function guardProcess(): () => boolean {
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    const code = EXIT_CODES[signal] ?? 143;
    if (interrupted) {
      process.stderr.write(`mcp-gate: ${signal} again: killing server processes now\n`);
      killAllGroupsNow();
      process.exit(code);
    }
    interrupted = true;
    process.stderr.write(`mcp-gate: ${signal}: ending server processes\n`);
    void endAllGroups(1_000).finally(() => process.exit(code));
  };
  for (const signal of Object.keys(EXIT_CODES) as NodeJS.Signals[]) process.on(signal, onSignal);
  process.once('exit', killAllGroupsNow);
  return () => interrupted;
}
