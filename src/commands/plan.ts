import { relative } from 'node:path';
import { InputError } from '../base/problems.js';
import { readConfig, type CommandIO, type Outcome } from './io.js';

/**
 * `mcp-gate plan`: the bundle's servers as a GitHub Actions matrix, `{"include":[{"server":"a"},...]}`,
 * in config order. Each matrix job runs `mcp-gate run --server ${{ matrix.server }}`.
 */
export function planCommand(flags: { config: string }, io: CommandIO): Outcome {
  const config = readConfig(flags.config, io);
  if (!config.bundle) {
    throw new InputError([
      {
        file: relative(io.cwd, config.file ?? flags.config) || flags.config,
        line: null,
        path: 'servers',
        message:
          'is not set: plan prints the servers of a bundle. Declare them under `servers: { <name>: { baseline, candidate, datasets } }`, or run this config with `mcp-gate run`.',
      },
    ]);
  }
  io.stdout(`${JSON.stringify({ include: config.bundle.servers.map((s) => ({ server: s.name })) })}\n`);
  return { kind: 'ok' };
}
