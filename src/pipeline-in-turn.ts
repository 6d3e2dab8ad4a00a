/**
 * Sides that cannot run at once (pipeline-sides.ts, `startAlone`): a server that holds a lock in a
 * shared HOME for its lifetime fails to start beside its twin, though it starts alone without
 * trouble. The side that started alone is replayed and sent its witnesses first, then stopped; the
 * other is started again, alone, for its own cases and witnesses. The witnesses' answers are
 * judged once both sides have given theirs.
 */

import { unreachedCases, type Replay } from './cases/replay.js';
import type { Dataset } from './cases/types.js';
import { witnessesInTurn, worthCalling } from './cases/witness-calls.js';
import type { GateConfig } from './config/types.js';
import { BaselineUnavailableError, SideUnavailableError } from './connect/errors.js';
import type { RunDeadline } from './connect/run-deadline.js';
import type { OpenSide } from './contract/open-side.js';
import { applyLive } from './diff/confirm-live.js';
import type { Change, Side } from './findings/types.js';
import { liveSide, replaySide, type Connected, type InTurn } from './pipeline-sides.js';

/**
 * Both sides' cases and the breaks' witnesses, one side after the other. `connected` is updated in
 * place: the side started again holds its new session (its report shows that server's stderr); a
 * candidate that does not start again is unavailable, and a baseline is exit 3.
 */
export async function replayInTurn(
  datasets: Dataset[],
  connected: Connected,
  changes: Change[],
  config: GateConfig,
  deadline: RunDeadline,
  log: (line: string) => void,
): Promise<{ replays: [Replay, Replay]; confirmed: Change[] }> {
  const inTurn: InTurn = connected.inTurn!;
  const sides: Record<Side, OpenSide> = { baseline: connected.base, candidate: connected.cand! };
  const first = inTurn.side;
  const second: Side = first === 'baseline' ? 'candidate' : 'baseline';
  const caseCount = datasets.reduce((n, d) => n + d.cases.length, 0);
  if (caseCount) log(`replaying ${caseCount} cases on each side in turn: the ${first}, then the ${second}`);
  const live = (side: OpenSide) => liveSide(side, config, deadline, log);
  const witnesses = witnessesInTurn(
    changes,
    { baseline: live(sides.baseline), candidate: live(sides.candidate) },
    config.limits.witnessCalls,
    log,
  );
  const worth = changes.some(worthCalling);
  const replays: Partial<Record<Side, Replay>> = {};
  const turn = async (side: OpenSide) => {
    replays[side.side] = await deadline.race(replaySide(datasets, side, config, deadline, log));
    if (worth) await deadline.race(witnesses.ask(live(side)));
  };

  await turn(sides[first]);
  await sides[first].session?.close();
  log(`${second}: started again, alone, for its cases and witnesses`);
  try {
    const again = await deadline.race(inTurn.reopen(second));
    if (again.contract.hash !== sides[second].contract.hash)
      log(`note: the ${second}'s contract differs from its first start's; the diff compares the first`);
    // The contract of its first start stays: the diff was made from it.
    sides[second] = { ...again, contract: sides[second].contract, retried: sides[second].retried };
  } catch (error) {
    if (!(error instanceof SideUnavailableError)) throw error;
    if (second === 'baseline') throw new BaselineUnavailableError(error, config.baseline, sides.baseline.retried);
    log(`candidate: does not start again (${error.phase}: ${error.message}): unavailable`);
    connected.cand = null;
    connected.candidateError = error;
    return { replays: [replays.baseline!, unreachedCases(datasets)], confirmed: changes };
  }
  await turn(sides[second]);
  connected.base = sides.baseline;
  connected.cand = sides.candidate;
  return { replays: [replays.baseline!, replays.candidate!], confirmed: worth ? applyLive(changes, witnesses.checks()) : changes };
}
