import type { StdioProfile } from '../config/types.js';
import type { Side } from '../findings/types.js';
import { serverEnvironment } from './environment.js';
import { SideUnavailableError } from './errors.js';
import { spawnGroup, type SpawnedGroup } from './process-group.js';
import { StreamTail } from './stderr-tail.js';

/** A started server process whose output is already being read, before any transport adopts it. */
export interface LaunchedServer {
  group: SpawnedGroup;
  /** The last bytes of stderr, from the first byte on. */
  stderr: StreamTail;
  /** Hands stdout to its reader, with whatever arrived before. */
  readStdout(reader: (chunk: Buffer) => void): void;
}

/**
 * Starts a profile's server process. This module does not load the SDK, so the gate starts both
 * servers first and loads the SDK (a few hundred ms) while they boot. Output is read from the
 * start: Node drops the unread output of a child that exits, and a server that dies at once
 * leaves its reason on stderr.
 */
export function launchServer(side: Side, profile: StdioProfile, stderrTailBytes: number): LaunchedServer {
  const { env, missing } = serverEnvironment(profile.env, process.env);
  if (missing.length) {
    throw new SideUnavailableError(side, 'spawn', `profile "${profile.name}": env refers to unset variables: ${missing.join(', ')}`);
  }
  const group = spawnGroup(profile.command, profile.args, { cwd: profile.cwd, env });
  const stderr = new StreamTail(stderrTailBytes);
  group.child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk));
  const early: Buffer[] = [];
  let reader: ((chunk: Buffer) => void) | null = null;
  group.child.stdout!.on('data', (chunk: Buffer) => (reader ? reader(chunk) : early.push(chunk)));
  return {
    group,
    stderr,
    readStdout(next) {
      reader = next;
      for (const chunk of early.splice(0)) next(chunk);
    },
  };
}
