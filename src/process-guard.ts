import { endAllGroups, killAllGroupsNow } from './connect/process-group.js';

/**
 * For an entry point (commands/dispatch.ts, action/main.ts): on SIGINT or SIGTERM, end every server group the
 * gate started and leave with the conventional code (130, 143); on any exit, kill what is left.
 * Returns whether a signal came, so a command can refuse to decide on servers it was told to end.
 */
export function guardProcess(): () => boolean {
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    interrupted = true;
    process.stderr.write(`mcp-gate: ${signal}: ending server processes\n`);
    void endAllGroups(1_000).finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.once('exit', killAllGroupsNow);
  return () => interrupted;
}
