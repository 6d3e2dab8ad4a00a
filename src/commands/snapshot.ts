import { relative, resolve } from 'node:path';
import { InputError } from '../base/problems.js';
import type { GateConfig, Profile } from '../config/types.js';
import { openSide } from '../contract/open-side.js';
import { ofProfile, SideUnavailableError } from '../connect/errors.js';
import { toSnapshot } from '../contract/snapshot.js';
import { redactDeep } from '../base/secrets.js';
import { writeFileAtomic } from '../base/atomic-write.js';
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
  const ready = profile.git
    ? await (await import('../connect/git-baseline.js')).readyProfile(config, name, io.env, (line) => io.log(`mcp-gate: ${line}`), io.cwd)
    : profile;
  const { text, tools } = await contractSnapshot(ready, config, io);
  if (!flags.output || flags.output === '-') {
    io.stdout(text);
  } else {
    const target = resolve(io.cwd, flags.output);
    writeFileAtomic(target, text);
    io.log(`mcp-gate: wrote ${tools} tools to ${relative(io.cwd, target)}`);
  }
  return { kind: 'ok' };
}

/** One profile's contract as snapshot text: its server started, read and ended; its protocol problems said on stderr. */
export async function contractSnapshot(profile: Profile, config: GateConfig, io: CommandIO): Promise<{ text: string; tools: number }> {
  const side = await openSide(
    'candidate',
    profile,
    config,
    io.env,
    () => undefined,
    (line) => io.log(`mcp-gate: ${line}`),
  ).catch((error: unknown) => {
    throw error instanceof SideUnavailableError ? ofProfile(profile.name, error) : error;
  });
  await side.session?.close();
  for (const problem of side.contract.discovery.errors) io.error(`mcp-gate: protocol-violation: ${problem.message}`);
  return { text: toSnapshot(redactDeep(side.contract)), tools: side.contract.tools.length };
}
