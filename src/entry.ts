/**
 * The gate bundle's entry point (scripts/bundle.mjs makes dist/entry/mcp-gate.cjs of it): the
 * commands, for the CLI's front (src/cli.ts, its own small bundle), and the GitHub Action, for
 * bin/mcp-gate-action.js. Loading it starts nothing, so the build can record its code cache
 * (src/launch.ts). Each command's modules, and the action's, load only when used.
 */
export { runCommand } from './commands/dispatch.js';

export async function runAction(): Promise<void> {
  (await import('./action/main.js')).runAction();
}
