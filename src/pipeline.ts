import { audit, failedOutputSchemas } from './audit/index.js';
import { loadDatasets } from './cases/load.js';
import { datasetNameProblems } from './cases/names.js';
import { markRegressions } from './cases/regression.js';
import { replayCases, unreachedCases, type Replay } from './cases/replay.js';
import type { Dataset } from './cases/types.js';
import { policyFindings, type PolicyDrift } from './config/policy-drift.js';
import { InputError } from './config/problems.js';
import type { GateConfig } from './config/types.js';
import { BaselineUnavailableError, SideUnavailableError, failedWhileStarting } from './connect/errors.js';
import { makeSideDirs, type SideDirs } from './connect/side-dirs.js';
import type { Side } from './findings/types.js';
import { openSide, unavailableSide, type OpenSide } from './contract/open-side.js';
import { fallbackBaseline, fallbackFinding, noFallbackNote } from './report/fallback.js';
import { describeProfile, relativeToCwd } from './connect/redact.js';
import { RunDeadline } from './connect/run-deadline.js';
import { containmentUsed } from './connect/containment.js';
import { noticeSlow } from './connect/slow-notice.js';
import { approveCovering, decide, type Decision } from './decide/decide.js';
import { calmRemovals, REMOVED_AFTER_DEPRECATION, removalKey } from './decide/deprecation-window.js';
import { collectSignals } from './decide/signals.js';
import { checkVersionBump } from './decide/version-bump.js';
import { savedReports } from './report/history/saved.js';
import { deprecatedSince } from './report/history/deprecations.js';
import { diffContracts } from './diff/index.js';
import { applyLive } from './diff/confirm-live.js';
import { sendWitnesses, worthCalling, type LiveSide } from './cases/witness-calls.js';
import { SchemaWork } from './contract/schema-work.js';
import { summarize } from './diff/summary.js';
import { discoveryFindings, unavailableFinding } from './contract/findings.js';
import type { Change } from './findings/types.js';
import { buildSideReport } from './report/side.js';
import { REPORT_SCHEMA_VERSION, type Report, type Timing } from './report/types.js';
import { trimReport } from './report/trim.js';
import { roleBreakdown, type RoleReport } from './roles/breakdown.js';
import { roleDefinitions } from './roles/definitions.js';
import { roleReach } from './roles/surface.js';
import { GATE_NAME, GATE_VERSION } from './version.js';

export interface RunOptions {
  /** Progress lines, for stderr. */
  log?: (line: string) => void;
  now?: () => Date;
  /** The config's datasets, when the caller already loaded them (to check them before starting servers). */
  datasets?: Dataset[];
  /** This run was approved by a person through this PR label: Rollback or Hold becomes Promote. */
  approvedByLabel?: string;
  /**
   * What the label's approval covers, from the run when it was given (the action reads it from its
   * own PR comment); null or absent: the label was given now, so it covers this run's findings.
   */
  approvalCovers?: string[] | null;
  /** The gate's own policy files compared with the change's base (see config/policy-drift.ts). */
  policy?: PolicyDrift;
  /**
   * Each side's own TMPDIR and HOME, when the caller made them (to start servers early with them);
   * the caller then removes them. Otherwise the run makes its own, and removes them when it ends.
   */
  sideDirs?: Record<Side, SideDirs | null>;
  /**
   * The server of a bundle this run gates: the saved reports of that server alone tell its history,
   * and hold the contract a baseline's `fallback: last-report` takes.
   */
  server?: string;
}

/**
 * The whole gate, from config to a Report: connect and discover both sides in parallel, diff,
 * replay the cases on both sides, audit, decide. Writing the report is the caller's step, so a
 * report that cannot be written still has a verdict to print.
 */
export async function runGate(config: GateConfig, options: RunOptions = {}): Promise<Report> {
  const log = options.log ?? (() => undefined);
  const now = options.now ?? (() => new Date());
  const datasets = options.datasets ?? loadDatasets(config.datasets);
  const startedAt = now();
  const clock = stageClock();
  const deadline = new RunDeadline(config.timeouts);
  const dirs = options.sideDirs ?? makeSideDirs(config);
  try {
    const { base, cand, candidateError, candidateRetried } = await connect(config, deadline, log, dirs, options.server ?? null);
    clock.stages.connect = Math.max(base.timing.connectMs, cand?.timing.connectMs ?? 0);
    clock.stages.discover = Math.max(base.timing.discoverMs, cand?.timing.discoverMs ?? 0);
    log(
      `discovered: baseline ${base.contract.tools.length} tools, candidate ${cand ? `${cand.contract.tools.length} tools` : 'unavailable'}`,
    );
    checkDatasetNames(datasets, base, cand, log);
    if (cand?.contract.features && !base.contract.features) {
      log(
        'note: the baseline snapshot holds tools only (written before mcp-gate read prompts, resources and capabilities): only the tools are compared',
      );
    }

    const { witnessInstances, witnessNodes, witnessInstancesPerRun, schemaNodesPerTool, schemaNodesPerRun } = config.limits;
    const budget = { instances: witnessInstances, nodes: witnessNodes, perRun: witnessInstancesPerRun };
    // The walks hold the main thread: they look at the deadline themselves (contract/schema-work.ts).
    // A deadline already spent before the diff was blamed on a side (a candidate that paged past
    // it is unavailable, a verdict): only one the diff itself runs past ends the run here.
    const checkDiff = deadline.expired ? () => undefined : () => deadline.check('the schema diff');
    const work = new SchemaWork({ perTool: schemaNodesPerTool, perRun: schemaNodesPerRun }, checkDiff);
    checkDiff();
    const diffed: Change[] = clock.time('diff', () => (cand ? diffContracts(base.contract, cand.contract, budget, work) : []));
    // Cases first, then the witnesses: a witness call never runs beside a case, nor before it.
    const [baseReplay, candReplay, confirmed] = await clock.time('cases', async () => {
      const replays = await replayBoth(datasets, base, cand, config, deadline, log);
      return [...replays, cand ? await confirmLive(diffed, base, cand, config, deadline, log) : diffed] as const;
    });
    const baseCases = baseReplay.results;
    const candCases = markRegressions(baseCases, candReplay.results);
    const audited = clock.time('audit', () =>
      audit(
        { side: 'baseline', contract: base.contract, observations: baseReplay.observations },
        { side: 'candidate', contract: cand?.contract ?? null, observations: candReplay.observations },
        config.audit,
      ),
    );

    const today = startedAt.toISOString().slice(0, 10);
    const { changes, calm } = deprecationLifecycle(confirmed, config, today, options.server);
    const release = checkVersionBump(base.contract.server, cand?.contract.server ?? null, changes);
    const definitions = roleDefinitions(datasets);
    const { decision, roles } = clock.time('decide', () => {
      const findings = [
        ...discoveryFindings(base.contract, cand?.contract ?? null),
        ...policyFindings(options.policy),
        ...(base.fallback ? [fallbackFinding(config.baseline, base.fallback)] : []),
        ...(candidateError ? [unavailableFinding(candidateError)] : []),
        ...release.findings,
      ];
      const roles = roleBreakdown(
        definitions,
        { baseline: base.contract, candidate: cand?.contract ?? null },
        { baseline: baseCases, candidate: candCases },
        config.promotion,
        today,
      );
      const forbidden = datasets.flatMap((d) => d.cases.flatMap((c) => c.forbiddenTools ?? []));
      const reach = roleReach(definitions, forbidden);
      const repairedOutputs = failedOutputSchemas(base.contract, audited.findings);
      const signals = collectSignals(changes, candCases, [...findings, ...audited.findings, ...roles.findings], {
        reach,
        repairedOutputs,
        calmRemovals: calm,
      });
      const decided = decide(signals, config.promotion, today);
      const decision = options.approvedByLabel
        ? approveCovering(decided, signals, options.approvedByLabel, options.approvalCovers ?? null)
        : decided;
      return { decision, roles: roles.roles };
    });
    logDecision(decision, log);

    return trimReport({
      schemaVersion: REPORT_SCHEMA_VERSION,
      generatedBy: { name: GATE_NAME, version: GATE_VERSION },
      startedAt: startedAt.toISOString(),
      finishedAt: now().toISOString(),
      config: {
        file: config.file ? relativeToCwd(config.file) : null,
        datasets: datasets.map((d) => d.file),
        roles: definitions.map((r) => r.name),
      },
      baseline: buildSideReport(base, baseCases),
      candidate: buildSideReport(
        cand ?? { ...unavailableSide(config.profiles[config.candidate]!, candidateError), retried: candidateRetried },
        candCases,
      ),
      diff: { summary: summarize(changes), changes },
      release,
      audit: audited,
      roles: roles satisfies RoleReport[],
      decision,
      ...(options.policy && { policy: options.policy }),
      environment: { containment: containmentUsed() },
      timing: { totalMs: clock.total(), stages: clock.stages },
    });
  } finally {
    await deadline.end();
    // After the servers ended: nothing writes there any more.
    if (!options.sideDirs) for (const d of Object.values(dirs)) d?.remove();
  }
}

/**
 * The "remove" step of the deprecation lifecycle (docs/releases.md): a tool, an argument or a prompt
 * the baseline marked deprecated and the candidate removed is held until the saved reports show the
 * mark at least `promotion.deprecationWindowDays` old; each such change says which it is. The saved
 * reports are read only when there is such a change.
 */
function deprecationLifecycle(
  changes: Change[],
  config: GateConfig,
  today: string,
  server: string | undefined,
): { changes: Change[]; calm: Map<string, string> } {
  const removed = new Map(changes.filter((c) => REMOVED_AFTER_DEPRECATION.has(c.code)).map((c) => [removalKey(c), c.subject]));
  if (!removed.size) return { changes, calm: new Map() };
  const window = config.promotion.deprecationWindowDays ?? 0;
  const since = window === 0 ? new Map<string, string>() : deprecatedSince(savedReports(config.reports.dir), removed, server);
  const calm = calmRemovals([...removed.keys()], since, window, today);
  const noted = changes.map((c) => {
    if (!REMOVED_AFTER_DEPRECATION.has(c.code)) return c;
    const why = calm.get(removalKey(c));
    const first = since.get(removalKey(c));
    const note = why
      ? `Its removal is calm: ${why}.`
      : first
        ? `Held: the saved reports show the mark only since ${first.slice(0, 10)}, under the ${window}-day window (promotion.deprecationWindowDays).`
        : `Held: no saved report in reports.dir shows the mark ${window} days ago (promotion.deprecationWindowDays).`;
    return { ...c, message: `${c.message} ${note}` };
  });
  return { changes: noted, calm };
}

interface Connected {
  base: OpenSide;
  /** Null when the candidate could not be reached: a finding, and a verdict. */
  cand: OpenSide | null;
  candidateError: SideUnavailableError | null;
  /** Why the candidate's first start failed, when it was started twice and the second failed too. */
  candidateRetried?: { phase: string; message: string };
}

/**
 * Reaches both sides in parallel and reads their contracts. A side that fails while starting is
 * started once more, after the other side has started: a server that raced its twin for a lock or
 * a cache then starts alone. A baseline that still cannot be read is exit 3.
 */
async function connect(
  config: GateConfig,
  deadline: RunDeadline,
  log: (line: string) => void,
  dirs: Record<Side, SideDirs | null>,
  server: string | null,
): Promise<Connected> {
  const profiles = { baseline: config.profiles[config.baseline]!, candidate: config.profiles[config.candidate]! };
  log(
    `connecting: baseline "${config.baseline}" (${describeProfile(profiles.baseline)}), candidate "${config.candidate}" (${describeProfile(profiles.candidate)})`,
  );
  for (const side of ['baseline', 'candidate'] as const) {
    const missing = dirs[side]?.missing ?? [];
    if (missing.length) log(`note: ${side}: home entries not on this machine, not linked or copied: ${missing.join(', ')}`);
  }
  const open = (side: Side) => openSide(side, profiles[side], config, deadline.adopt, log, dirs[side]);
  const opened = await Promise.allSettled([open('baseline'), open('candidate')]);
  const firstStart: Partial<Record<Side, { phase: string; message: string }>> = {};
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
  if (candidate.status === 'fulfilled') return { base, cand: candidate.value, candidateError: null };
  if (!(candidate.reason instanceof SideUnavailableError)) throw candidate.reason;
  return { base, cand: null, candidateError: candidate.reason, candidateRetried: firstStart.candidate };
}

/** A dataset that names a tool neither side has is a dataset problem (exit 3), before any case runs. */
function checkDatasetNames(datasets: Dataset[], base: OpenSide, cand: OpenSide | null, log: (line: string) => void): void {
  const names = datasetNameProblems(datasets, cand ? [base.contract, cand.contract] : [base.contract], cand !== null);
  if (names.problems.length) throw new InputError(names.problems);
  for (const note of names.notes) log(`note: ${note}`);
}

/** Every case on both sides; a side that is not there (or a run already past its deadline) skips them. */
async function replayBoth(
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
  // Each case as it ends, per side; past 50 cases, every twentieth of them, so a long run shows it moves.
  const every = caseCount <= 50 ? 1 : Math.ceil(caseCount / 20);
  const replay = (side: OpenSide): Promise<Replay> => {
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
  };
  return deadline.race(Promise.all([replay(base), cand ? replay(cand) : Promise.resolve(unreachedCases(datasets))]));
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

/** The breaks' witnesses sent to both live servers (cases/witness-calls.ts), and what their answers make of each. */
async function confirmLive(
  changes: Change[],
  base: OpenSide,
  cand: OpenSide,
  config: GateConfig,
  deadline: RunDeadline,
  log: (line: string) => void,
): Promise<Change[]> {
  if (deadline.expired || !changes.some(worthCalling)) return changes;
  const live = (side: OpenSide): LiveSide => {
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
  };
  const checks = await deadline.race(
    sendWitnesses(changes, { baseline: live(base), candidate: live(cand) }, config.limits.witnessCalls, log),
  );
  return applyLive(changes, checks);
}

function logDecision(decision: Decision, log: (line: string) => void): void {
  if (decision.staleApproval) log(`approval: ${decision.staleApproval.message}`);
  log(
    `decision: ${decision.verdict}${decision.approval ? ` (approved by label "${decision.approval.label}"; the gate said ${decision.approval.verdictBefore})` : ''}`,
  );
}

/** Each stage's wall time, in whole milliseconds, as the report's `timing` holds them. */
function stageClock() {
  const started = performance.now();
  const stages: Timing['stages'] = { connect: 0, discover: 0, diff: 0, cases: 0, audit: 0, decide: 0, report: 0 };
  return {
    stages,
    total: () => Math.round(performance.now() - started),
    /** Runs one stage and records how long it took; a stage that returns a promise is timed until it settles. */
    time<T>(stage: keyof Timing['stages'], work: () => T): T {
      const mark = performance.now();
      const record = () => (stages[stage] = Math.round(performance.now() - mark));
      const result = work();
      if (result instanceof Promise) return result.finally(record) as T;
      record();
      return result;
    },
  };
}
