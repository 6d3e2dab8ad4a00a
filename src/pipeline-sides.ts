/**
 * The live sides of a run (pipeline.ts): both reached and read, a side that failed while starting
 * started once more; then the cases replayed on each, and the breaks' witnesses sent to both.
 */

import { likelyCause } from './base/error-text.js';
import { replayCases, unreachedCases, type Replay } from './cases/replay.js';
import { datasetNameProblems } from './cases/names.js';
import { InputError } from './base/problems.js';
import type { Dataset } from './cases/types.js';
import type { GateConfig } from './config/types.js';
import { BaselineUnavailableError, SideUnavailableError, failedWhileStarting } from './connect/errors.js';
import type { SideDirs } from './connect/side-dirs.js';
import type { Side } from './findings/types.js';
import { openSide, type OpenSide } from './contract/open-side.js';
import { fallbackBaseline, noFallbackNote } from './report/fallback.js';
import { describeProfile, relativeToCwd } from './connect/redact.js';
import { RunDeadline } from './connect/run-deadline.js';
import { noticeSlow } from './connect/slow-notice.js';
import { applyLive } from './diff/confirm-live.js';
import { sendWitnesses, worthCalling, type LiveSide } from './cases/witness-calls.js';
import type { Ground } from './cases/witness-grounds.js';
import type { Change } from './findings/types.js';

export interface Connected {
  base: OpenSide;
  /** Null when the candidate could not be reached: a finding, and a verdict. */
  cand: OpenSide | null;
  candidateError: SideUnavailableError | null;
  /** Why the candidate's first start failed, when it was started again and failed again (`alone`: a third time, alone). */
  candidateRetried?: { phase: string; message: string; alone?: boolean };
  /** Set when the sides cannot run at once: they are replayed and sent witnesses one after the other (pipeline-in-turn.ts). */
  inTurn?: InTurn;
}

/** Sides that could not run at once: the side that could not start beside the other, why, and how to start a side again. */
export interface InTurn {
  side: Side;
  failed: { phase: string; message: string };
  reopen: (side: Side) => Promise<OpenSide>;
}

/**
 * Reaches both sides in parallel and reads their contracts. A side that fails while starting is
 * started once more, after the other side has started: a server that raced its twin for a lock or
 * a cache then starts alone. A baseline that still cannot be read is exit 3.
 */
export async function connect(
  config: GateConfig,
  deadline: RunDeadline,
  log: (line: string) => void,
  dirs: Record<Side, SideDirs | null>,
  server: string | null,
  env: NodeJS.ProcessEnv,
): Promise<Connected> {
  const profiles = { baseline: config.profiles[config.baseline]!, candidate: config.profiles[config.candidate]! };
  log(
    `connecting: baseline "${config.baseline}" (${describeProfile(profiles.baseline)}), candidate "${config.candidate}" (${describeProfile(profiles.candidate)})`,
  );
  for (const side of ['baseline', 'candidate'] as const) {
    const missing = dirs[side]?.missing ?? [];
    if (missing.length) log(`note: ${side}: home entries not on this machine, not linked or copied: ${missing.join(', ')}`);
  }
  const open = (side: Side) => openSide(side, profiles[side], config, env, deadline.adopt, log, dirs[side]);
  const opened = await Promise.allSettled([open('baseline'), open('candidate')]);
  const firstStart: Partial<Record<Side, { phase: string; message: string; alone?: boolean }>> = {};
  // One at a time, baseline first: two sides that both failed then start apart from each other.
  for (const [i, side] of (['baseline', 'candidate'] as const).entries()) {
    const outcome = opened[i]!;
    if (outcome.status === 'fulfilled' || deadline.expired || !failedWhileStarting(outcome.reason)) continue;
    const first = outcome.reason;
    firstStart[side] = { phase: first.phase, message: first.message };
    log(`${side}: failed while starting (${first.phase}: ${first.message}); starting it once more`);
    dirs[side]?.renew();
    const again = await Promise.allSettled([open(side)]);
    const retried = again[0];
    opened[i] = retried.status === 'fulfilled' ? { status: 'fulfilled', value: { ...retried.value, retried: firstStart[side] } } : retried;
  }
  const inTurn = deadline.expired ? null : await startAlone(opened, firstStart, open, dirs, log);
  const baseline = deadline.blame(opened[0], 'baseline');
  const candidate = deadline.blame(opened[1], 'candidate');
  let base: OpenSide;
  if (baseline.status === 'rejected') {
    if (!(baseline.reason instanceof SideUnavailableError)) throw baseline.reason;
    const stand = deadline.expired ? null : fallbackBaseline(profiles.baseline, baseline.reason, config.reports.dir, server, process.cwd());
    if (!stand)
      throw new BaselineUnavailableError(
        baseline.reason,
        config.baseline,
        firstStart.baseline,
        noFallbackNote(profiles.baseline, relativeToCwd(config.reports.dir)),
      );
    log(
      `baseline: could not start; fallback ${stand.fallback!.kind}: ${stand.fallback!.report ? `its contract in ${stand.fallback!.report}` : 'an empty server'} stands in (baseline-fallback)`,
    );
    base = { ...stand, retried: firstStart.baseline };
  } else base = baseline.value;
  if (candidate.status === 'fulfilled') return { base, cand: candidate.value, candidateError: null, ...(inTurn && { inTurn }) };
  if (!(candidate.reason instanceof SideUnavailableError)) throw candidate.reason;
  return { base, cand: null, candidateError: candidate.reason, candidateRetried: firstStart.candidate };
}

/**
 * After the retries: a side that failed while starting twice, both times while the other side ran,
 * when the other did start, may be one that cannot run beside its twin (a lock it holds in a shared
 * HOME for its lifetime). The other is stopped (its contract kept) and the side started alone.
 * Started, the sides run one after the other, and the returned InTurn says so. Failing alone too,
 * it is unavailable for a reason of its own, and the other is started again as before. `opened` is
 * updated in place.
 */
async function startAlone(
  opened: PromiseSettledResult<OpenSide>[],
  firstStart: Partial<Record<Side, { phase: string; message: string; alone?: boolean }>>,
  open: (side: Side) => Promise<OpenSide>,
  dirs: Record<Side, SideDirs | null>,
  log: (line: string) => void,
): Promise<InTurn | null> {
  const i = opened.findIndex((o, n) => o.status === 'rejected' && firstStart[SIDES[n]!] && failedWhileStarting(o.reason));
  const other = opened[1 - i];
  if (i < 0 || other?.status !== 'fulfilled' || !other.value.session) return null;
  const [side, running] = [SIDES[i]!, SIDES[1 - i]!];
  const failure = (opened[i] as PromiseRejectedResult).reason as SideUnavailableError;
  // A cause the other side cannot have made (a missing package, file or variable) does not go away
  // when it stops: a third start would only repeat it.
  if (likelyCause(failure.stderrTail)) return null;
  log(
    `${side}: failed again while the ${running} ran (${failure.phase}: ${failure.message}); the ${running} is stopped and the ${side} started alone. ` +
      'If they share a lock or a cache in HOME, `home: isolated` on the profiles lets them run at once',
  );
  await other.value.session.close();
  firstStart[side] = { ...firstStart[side]!, alone: true };
  dirs[side]?.renew();
  const [alone] = await Promise.allSettled([open(side)]);
  if (alone.status === 'fulfilled') {
    opened[i] = { status: 'fulfilled', value: { ...alone.value, retried: firstStart[side] } };
    log(`${side}: started alone; the sides run one after the other`);
    return { side, failed: { phase: failure.phase, message: failure.message }, reopen: open };
  }
  log(`${side}: does not start alone either; the ${running} is started again`);
  opened[i] = alone;
  dirs[running]?.renew();
  const [again] = await Promise.allSettled([open(running)]);
  opened[1 - i] = again.status === 'fulfilled' ? { status: 'fulfilled', value: { ...again.value, retried: other.value.retried } } : again;
  return null;
}

const SIDES = ['baseline', 'candidate'] as const;

/** Every case on both sides; a side that is not there (or a run already past its deadline) skips them. */
export async function replayBoth(
  datasets: Dataset[],
  base: OpenSide,
  cand: OpenSide | null,
  config: GateConfig,
  deadline: RunDeadline,
  log: (line: string) => void,
): Promise<[Replay, Replay]> {
  const caseCount = datasets.reduce((n, d) => n + d.cases.length, 0);
  if (caseCount) log(`replaying ${caseCount} cases on both sides`);
  // Past the deadline already (a side was blamed for it): every server is gone, so nothing is replayed.
  if (deadline.expired) return [unreachedCases(datasets), unreachedCases(datasets)];
  const replay = (side: OpenSide) => replaySide(datasets, side, config, deadline, log);
  return deadline.race(Promise.all([replay(base), cand ? replay(cand) : Promise.resolve(unreachedCases(datasets))]));
}

/** Every case on one side: called on its live server, or skipped with why where it has none. Each case is said as it ends. */
export function replaySide(
  datasets: Dataset[],
  side: OpenSide,
  config: GateConfig,
  deadline: RunDeadline,
  log: (line: string) => void,
): Promise<Replay> {
  const caseCount = datasets.reduce((n, d) => n + d.cases.length, 0);
  // Past 50 cases, every twentieth of them, so a long run shows it moves.
  const every = caseCount <= 50 ? 1 : Math.ceil(caseCount / 20);
  const session = side.session;
  const call = tracker(side, config, deadline, log);
  let done = 0;
  return replayCases(datasets, {
    contract: side.contract,
    caller: session ? { callTool: (name, args) => call(name, `tools/call ${name}`, () => session.callTool(name, args)) } : null,
    reader: session
      ? {
          getPrompt: (name, args) =>
            call(`prompt ${name}`, `prompts/get ${name}`, () => session.request('prompts/get', 'prompts/get', { name, arguments: args })),
          readResource: (uri) =>
            call(`resource ${uri}`, `resources/read ${uri}`, () => session.request('resources/read', 'resources/read', { uri })),
        }
      : null,
    noCallerReason: side.fallback
      ? `profile "${side.profile.name}" could not start; its fallback (${side.fallback.kind}) has no server to call`
      : `profile "${side.profile.name}" is a snapshot: no live server to call`,
    allowSideEffects: side.profile.allowSideEffects,
    safeTools: side.profile.transport === 'snapshot' ? [] : side.profile.safeTools,
    concurrency: config.cases.concurrency,
    onCase: (result) => {
      done++;
      if (done % every === 0 || done === caseCount) log(`${side.side}: case ${done}/${caseCount} ${result.id}: ${result.status}`);
    },
  });
}

/**
 * One request of a side, as the run tracks it: `tracked` is how the run deadline names a call in
 * flight; `what` is the request, for the slow notice.
 */
function tracker(side: OpenSide, config: GateConfig, deadline: RunDeadline, log: (line: string) => void) {
  const requestMs = { name: 'timeouts.requestMs', ms: config.timeouts.requestMs };
  return <T>(tracked: string, what: string, step: () => Promise<T>) =>
    deadline.track(side.side, tracked, () => noticeSlow(log, `${side.side}: ${what}`, requestMs, step));
}

/**
 * The breaks' witnesses sent to both live servers (cases/witness-calls.ts), and what their answers
 * make of each: on a case's call where `grounds` holds one for the tool (cases/witness-grounds.ts).
 */
export async function confirmLive(
  changes: Change[],
  base: OpenSide,
  cand: OpenSide,
  config: GateConfig,
  deadline: RunDeadline,
  log: (line: string) => void,
  grounds?: Map<string, Ground[]>,
): Promise<Change[]> {
  if (deadline.expired || !changes.some(worthCalling)) return changes;
  const live = (side: OpenSide) => liveSide(side, config, deadline, log);
  const checks = await deadline.race(
    sendWitnesses(changes, { baseline: live(base), candidate: live(cand) }, config.limits.witnessCalls, log, grounds),
  );
  return applyLive(changes, checks);
}

/** A side as the witnesses see it: its contract and consent, and its live server's tools/call (none for a snapshot). */
export function liveSide(side: OpenSide, config: GateConfig, deadline: RunDeadline, log: (line: string) => void): LiveSide {
  const session = side.session;
  const call = tracker(side, config, deadline, log);
  return {
    side: side.side,
    contract: side.contract,
    consent: {
      allowSideEffects: side.profile.allowSideEffects,
      safeTools: side.profile.transport === 'snapshot' ? [] : side.profile.safeTools,
    },
    call: session ? (name, args) => call(name, `tools/call ${name} (a witness)`, () => session.callTool(name, args)) : null,
    alive: () => session?.alive ?? false,
  };
}

/** A dataset that names a tool neither side has is a dataset problem (exit 3), before any case runs. */
export function checkDatasetNames(datasets: Dataset[], base: OpenSide, cand: OpenSide | null, log: (line: string) => void): void {
  const names = datasetNameProblems(datasets, cand ? [base.contract, cand.contract] : [base.contract], cand !== null);
  if (names.problems.length) throw new InputError(names.problems);
  for (const note of names.notes) log(`note: ${note}`);
}
