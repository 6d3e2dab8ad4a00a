import { existsSync, statSync } from 'node:fs';
import { basename, isAbsolute, relative, resolve } from 'node:path';
import { defaultConfig } from '../config/load.js';
import { InputError } from '../base/problems.js';
import type { GateConfig, Profile } from '../config/types.js';
import { runGate } from '../pipeline.js';
import { render, type Format } from '../report/formats.js';
import { emit, readConfig, type CommandIO, type Outcome } from './io.js';

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

/** A snapshot file as a side's name: its path from here when it is below here, else its file name, never a machine's absolute path. */
function sideName(path: string, cwd: string): string {
  const from = relative(cwd, path);
  return from.startsWith('..') || isAbsolute(from) ? basename(path) : from;
}

/**
 * `mcp-gate diff BEFORE AFTER`: each side is a snapshot file or a profile of the config.
 * The gate runs with no datasets, so the verdict comes from the contracts alone. The config is
 * read when a side is a profile, or when `-c` names it: two snapshot files then take its
 * `promotion` rules, `limits`, `audit` settings and `timeouts`, where without `-c` they take the
 * defaults (docs/reports.md).
 */
export async function diffCommand(
  flags: { config: string; configGiven: boolean; before: string; after: string; format: Format; output?: string },
  io: CommandIO,
): Promise<Outcome> {
  const needsConfig = flags.configGiven || !isFile(resolve(io.cwd, flags.before)) || !isFile(resolve(io.cwd, flags.after));
  const loaded: GateConfig | null = needsConfig ? readConfig(flags.config, io) : null;
  const side = (arg: string, key: 'before' | 'after'): Profile => {
    const path = resolve(io.cwd, arg);
    if (isFile(path)) return { name: sideName(path, io.cwd), transport: 'snapshot', path, allowSideEffects: false };
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
  // Two files of one name (old/contract.json, new/contract.json) are told apart by their side.
  if (before.name === after.name) [before.name, after.name] = [`${before.name} (before)`, `${after.name} (after)`];
  const base = loaded ?? defaultConfig({}, 'before', 'after', io.cwd);
  const config: GateConfig = {
    ...base,
    profiles: { [before.name]: before, [after.name]: after },
    baseline: before.name,
    candidate: after.name,
    datasets: [],
  };
  const report = await runGate(config, { env: io.env, log: (line) => io.log(`mcp-gate: ${line}`) });
  emit(render('report', report, flags.format, { colour: io.colour && !flags.output }), flags.output, io);
  return { kind: 'verdict', verdict: report.decision.verdict, reportWritten: true };
}
