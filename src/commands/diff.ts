import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { defaultConfig } from '../config/load.js';
import { InputError } from '../config/problems.js';
import type { GateConfig, Profile } from '../config/types.js';
import { renderReport } from '../report/render.js';
import { runGate } from '../pipeline.js';
import type { Format } from '../report/render.js';
import { readConfig, type CommandIO, type Outcome } from './io.js';

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

/**
 * `mcp-gate diff BEFORE AFTER`: each side is a snapshot file or a profile of the config.
 * The gate runs with no datasets, so the verdict comes from the contracts alone.
 */
export async function diffCommand(
  flags: { config: string; before: string; after: string; format: Format },
  io: CommandIO,
): Promise<Outcome> {
  const needsConfig = !isFile(resolve(io.cwd, flags.before)) || !isFile(resolve(io.cwd, flags.after));
  const loaded: GateConfig | null = needsConfig ? readConfig(flags.config, io) : null;
  const side = (arg: string, key: 'before' | 'after'): Profile => {
    const path = resolve(io.cwd, arg);
    if (isFile(path)) return { name: arg, transport: 'snapshot', path, allowSideEffects: false };
    const profile = loaded?.profiles[arg];
    if (!profile) {
      throw new InputError([
        {
          file: 'command line',
          line: null,
          path: key.toUpperCase(),
          message: `"${arg}" is neither a snapshot file nor a profile; profiles: ${Object.keys(loaded?.profiles ?? {}).join(', ')}`,
        },
      ]);
    }
    return { ...profile, name: arg };
  };
  const before = side(flags.before, 'before');
  const after = side(flags.after, 'after');
  const base = loaded ?? defaultConfig({}, 'before', 'after', io.cwd);
  const config: GateConfig = {
    ...base,
    profiles: { [before.name]: before, [after.name]: after },
    baseline: before.name,
    candidate: after.name,
    datasets: [],
  };
  const report = await runGate(config, { log: (line) => io.log(`mcp-gate: ${line}`) });
  io.stdout(renderReport(report, flags.format, { colour: io.colour }));
  return { kind: 'verdict', verdict: report.decision.verdict, reportWritten: true };
}
