import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { InputError } from '../config/problems.js';
import { openSide } from '../contract/open-side.js';
import { toSnapshot } from '../contract/snapshot.js';
import { redactDeep } from '../secrets.js';
import { readConfig, type CommandIO, type Outcome } from './io.js';

/** `mcp-gate snapshot --profile NAME [-o FILE]`: one profile's contract, deterministic, as JSON. */
export async function snapshotCommand(flags: { config: string; profile?: string; output?: string }, io: CommandIO): Promise<Outcome> {
  const config = readConfig(flags.config, io);
  const name = flags.profile;
  const profile = name ? config.profiles[name] : undefined;
  if (!name || !profile) {
    throw new InputError([
      {
        file: 'command line',
        line: null,
        path: '--profile',
        message: `${name ? `"${name}" is not a profile` : 'is required'}; profiles: ${Object.keys(config.profiles).join(', ')}`,
      },
    ]);
  }
  io.log(`mcp-gate: reading the contract of profile "${name}"`);
  const side = await openSide(
    'candidate',
    profile,
    config,
    () => undefined,
    (line) => io.log(`mcp-gate: ${line}`),
  );
  await side.session?.close();
  const text = toSnapshot(redactDeep(side.contract));
  if (!flags.output || flags.output === '-') {
    io.stdout(text);
  } else {
    const target = resolve(io.cwd, flags.output);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(`${target}.tmp`, text);
    renameSync(`${target}.tmp`, target);
    io.log(`mcp-gate: wrote ${side.contract.tools.length} tools to ${relative(io.cwd, target)}`);
  }
  for (const problem of side.contract.discovery.errors) io.error(`mcp-gate: protocol-violation: ${problem.message}`);
  return { kind: 'ok' };
}
