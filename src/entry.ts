/**
 * The bundle's entry point (scripts/bundle.mjs makes dist/entry/mcp-gate.cjs of it): what the two
 * launchers call, bin/mcp-gate.js and bin/mcp-gate-action.js. Loading it starts nothing, so the
 * build can record its code cache (src/launch.ts). The action's own modules load only for the action.
 */
export { runCli } from './cli.js';

export async function runAction(): Promise<void> {
  (await import('./action/main.js')).runAction();
}
