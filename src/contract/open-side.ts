import { relative } from 'node:path';
import type { GateConfig, Profile } from '../config/types.js';
import { discover } from './discover.js';
import { readSnapshot } from './snapshot.js';
import type { Contract } from './types.js';
import type { BaselineFallback } from './types.js';
import type { Side } from '../findings/types.js';
import { SideUnavailableError } from '../connect/errors.js';
import { Session } from '../connect/session.js';
import { noticeSlow } from '../connect/slow-notice.js';
import type { SideDirs } from '../connect/side-dirs.js';

/** One side of the comparison once reached: its contract, and a live session unless it is a snapshot. */
export interface OpenSide {
  side: Side;
  profile: Profile;
  contract: Contract;
  session: Session | null;
  timing: { connectMs: number; discoverMs: number };
  /** Set when the first start failed and this is the second (see pipeline.ts): why the first failed. */
  retried?: { phase: string; message: string; alone?: boolean };
  /** The baseline could not start, and its profile's fallback stood in (see report/fallback.ts). */
  fallback?: BaselineFallback;
}

/**
 * Reaches a profile and reads its contract. Throws SideUnavailableError (with phase and stderr tail)
 * when the server cannot be started, initialised or listed; never returns an empty contract for that.
 */
export async function openSide(
  side: Side,
  profile: Profile,
  config: GateConfig,
  /** The gate's own environment, as the entry point read it (connect/session.ts). */
  env: NodeJS.ProcessEnv,
  track: (session: Session) => void,
  log?: (line: string) => void,
  dirs: SideDirs | null = null,
): Promise<OpenSide> {
  const started = performance.now();
  if (profile.transport === 'snapshot') {
    const contract = profile.git
      ? readSnapshot(profile.path, profile.path, profile.text)
      : readSnapshot(profile.path, relative(process.cwd(), profile.path) || profile.path);
    const ms = Math.round(performance.now() - started);
    return { side, profile, contract, session: null, timing: { connectMs: 0, discoverMs: ms } };
  }
  const { startupMs, requestMs } = config.timeouts;
  const session = await noticeSlow(
    log,
    `${side}: starting the server (spawn and initialize)`,
    { name: 'timeouts.startupMs', ms: startupMs },
    () => Session.open(side, profile, config.timeouts, config.limits, env, track, dirs),
  );
  const connected = performance.now();
  try {
    const contract = await noticeSlow(
      log,
      `${side}: reading its contract (tools/list, then prompts, resources and templates)`,
      { name: 'timeouts.requestMs, per request', ms: requestMs },
      () => discover(session, config.limits),
    );
    return {
      side,
      profile,
      contract,
      session,
      timing: { connectMs: Math.round(connected - started), discoverMs: Math.round(performance.now() - connected) },
    };
  } catch (error) {
    await session.close();
    if (error instanceof SideUnavailableError) throw error;
    throw new SideUnavailableError(side, 'tools/list', (error as Error).message, session.stderrTail);
  }
}

export const emptyContract = (): Contract => ({
  server: { name: null, version: null, protocolVersion: null, instructions: null },
  tools: [],
  hash: '',
  discovery: { pages: 0, durationMs: 0, errors: [] },
});

/** The candidate when it could not be reached: no contract, no session, and why. */
export function unavailableSide(profile: Profile, error: SideUnavailableError | null): OpenSide & { error: SideUnavailableError | null } {
  return { side: 'candidate', profile, contract: emptyContract(), session: null, timing: { connectMs: 0, discoverMs: 0 }, error };
}
