import { caseRoles, loadDatasets } from './cases/load.js';
import { datasetNameProblems } from './cases/names.js';
import { markRegressions } from './cases/regression.js';
import { InputError } from './config/problems.js';
import { replayCases, type Replay, type ReplaySide } from './cases/replay.js';
import { audit } from './audit/index.js';
import type { Dataset } from './cases/types.js';
import type { GateConfig, Profile } from './config/types.js';
import { BaselineUnavailableError, RunTimeoutError, SideUnavailableError } from './connect/errors.js';
import { openSide, type OpenSide } from './connect/open-side.js';
import { describeRemoteProfile } from './connect/redact.js';
import type { Session } from './connect/session.js';
import type { Contract } from './contract/types.js';
import { approveCovering, decide } from './decide/decide.js';
import { collectSignals } from './decide/signals.js';
import { policyFindings, type PolicyDrift } from './config/policy-drift.js';
import { diffContracts } from './diff/index.js';
import { summarize } from './diff/summary.js';
import { discoveryFindings, unavailableFinding } from './findings/discovery.js';
import type { Change, Finding, Side } from './findings/types.js';
import { buildSideReport } from './report/side.js';
import { roleBreakdown } from './roles/breakdown.js';
import { roleDefinitions } from './roles/definitions.js';
import { REPORT_SCHEMA_VERSION, type Report, type Timing } from './report/types.js';
import { GATE_NAME, GATE_VERSION } from './version.js';
import { startWatchdog } from './watchdog.js';
import { RUN_MARK } from './connect/process-group.js';

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
}

/**
 * The whole gate, from config to a Report: reach both sides in parallel, discover, diff, replay
 * cases on both sides, decide. Writing the report is the caller's step, so a report that cannot be
 * written still has a verdict to print.
 */
export async function runGate(config: GateConfig, options: RunOptions = {}): Promise<Report> {
  const log = options.log ?? (() => undefined);
  const now = options.now ?? (() => new Date());
  const datasets = options.datasets ?? loadDatasets(config.datasets);
  const startedAt = now();
  const clock = performance.now();
  const sessions: Session[] = [];
  const baselineProfile = config.profiles[config.baseline]!;
  const candidateProfile = config.profiles[config.candidate]!;
  const stages: Timing['stages'] = { connect: 0, discover: 0, diff: 0, cases: 0, audit: 0, decide: 0, report: 0 };

  const inFlight: InFlight = { baseline: new Map(), candidate: new Map() };
  let expiredDuring = 'the case replay';
  // At runMs every server is ended, whatever it is doing; what was waiting on it then fails fast.
  let expired = false;
  let rejectDeadline: (error: Error) => void = () => undefined;
  const deadline = new Promise<never>((_, reject) => (rejectDeadline = reject));
  deadline.catch(() => undefined);
  // Should the main thread ever be too busy to keep runMs, a worker thread ends the run (src/watchdog.ts).
  // A worker costs about 30 ms of CPU and 10 MB, so it starts only once a run has lasted 2 s: the
  // runs that end sooner (most) pay nothing, and a run that is stuck from its first 2 s is not covered.
  const WATCHDOG_SLACK_MS = 15_000;
  let standDownWatchdog = (): void => undefined;
  const watchdogStart = setTimeout(() => {
    standDownWatchdog = startWatchdog(config.timeouts.runMs - 2_000 + config.timeouts.killGraceMs + WATCHDOG_SLACK_MS, RUN_MARK, `the gate did not answer ${WATCHDOG_SLACK_MS / 1000} s past timeouts.runMs (${config.timeouts.runMs} ms): its main thread is stuck; killing every server and the gate (exit 137)`);
  }, 2_000);
  watchdogStart.unref();
  const standDown = () => {
    clearTimeout(watchdogStart);
    standDownWatchdog();
  };
  const timer = setTimeout(() => {
    expired = true;
    expiredDuring = waitingOn(inFlight); // before the servers are ended and their calls fail
    void Promise.all(sessions.map((s) => s.close())).then(() => rejectDeadline(new RunTimeoutError(config.timeouts.runMs, expiredDuring)));
  }, config.timeouts.runMs);
  const blameDeadline = (outcome: PromiseSettledResult<OpenSide>, side: Side): PromiseSettledResult<OpenSide> =>
    expired && outcome.status === 'rejected' && outcome.reason instanceof SideUnavailableError
      ? { status: 'rejected', reason: new SideUnavailableError(side, 'run', `the run exceeded timeouts.runMs (${config.timeouts.runMs} ms) during ${outcome.reason.phase}`, outcome.reason.stderrTail) }
      : outcome;
  try {
    log(`connecting: baseline "${config.baseline}" (${describeProfile(baselineProfile)}), candidate "${config.candidate}" (${describeProfile(candidateProfile)})`);
    const opened = await Promise.allSettled([
      openSide('baseline', baselineProfile, config, (s) => sessions.push(s)),
      openSide('candidate', candidateProfile, config, (s) => sessions.push(s)),
    ]);
    const baseline = blameDeadline(opened[0], 'baseline');
    const candidate = blameDeadline(opened[1], 'candidate');
    if (baseline.status === 'rejected') {
      if (baseline.reason instanceof SideUnavailableError) throw new BaselineUnavailableError(baseline.reason, config.baseline);
      throw baseline.reason;
    }
    if (candidate.status === 'rejected' && !(candidate.reason instanceof SideUnavailableError)) throw candidate.reason;
    const base = baseline.value;
    const cand = candidate.status === 'fulfilled' ? candidate.value : null;
    stages.connect = Math.max(base.timing.connectMs, cand?.timing.connectMs ?? 0);
    stages.discover = Math.max(base.timing.discoverMs, cand?.timing.discoverMs ?? 0);
    log(`discovered: baseline ${base.contract.tools.length} tools, candidate ${cand ? `${cand.contract.tools.length} tools` : 'unavailable'}`);
    const names = datasetNameProblems(datasets, cand ? [base.contract, cand.contract] : [base.contract], cand !== null);
    if (names.problems.length) throw new InputError(names.problems);
    for (const note of names.notes) log(`note: ${note}`);

    let mark = performance.now();
    const changes: Change[] = cand ? diffContracts(base.contract, cand.contract) : [];
    stages.diff = Math.round(performance.now() - mark);

    mark = performance.now();
    const caseCount = datasets.reduce((n, d) => n + d.cases.length, 0);
    if (caseCount) log(`replaying ${caseCount} cases on both sides`);
    // Past the deadline already (a side was blamed for it): every server is gone, so nothing is replayed.
    const expiredBeforeCases = expired;
    const [baseReplay, candReplay] = expiredBeforeCases
      ? await Promise.all([unreachedCases(datasets), unreachedCases(datasets)])
      : await Promise.race([
        Promise.all([replay(datasets, base, config, inFlight), cand ? replay(datasets, cand, config, inFlight) : unreachedCases(datasets)]),
        deadline,
      ]);
    stages.cases = Math.round(performance.now() - mark);
    if (expired && !expiredBeforeCases) throw new RunTimeoutError(config.timeouts.runMs, expiredDuring);
    const baseCases = baseReplay.results;
    const candCases = markRegressions(baseCases, candReplay.results);

    mark = performance.now();
    const audited = audit(
      { side: 'baseline', contract: base.contract, observations: baseReplay.observations },
      { side: 'candidate', contract: cand?.contract ?? null, observations: candReplay.observations },
      config.audit,
    );
    stages.audit = Math.round(performance.now() - mark);

    mark = performance.now();
    const definitions = roleDefinitions(datasets);
    const today = startedAt.toISOString().slice(0, 10);
    const findings: Finding[] = [...discoveryFindings(base.contract, cand?.contract ?? null), ...policyFindings(options.policy)];
    if (candidate.status === 'rejected') findings.push(unavailableFinding(candidate.reason as SideUnavailableError));
    const roles = roleBreakdown(definitions, { baseline: base.contract, candidate: cand?.contract ?? null }, { baseline: baseCases, candidate: candCases }, config.promotion, today);
    const signals = collectSignals(changes, candCases, [...findings, ...audited.findings, ...roles.findings]);
    const decided = decide(signals, config.promotion, today);
    const decision = options.approvedByLabel ? approveCovering(decided, signals, options.approvedByLabel, options.approvalCovers ?? null) : decided;
    if (decision.staleApproval) log(`approval: ${decision.staleApproval.message}`);
    stages.decide = Math.round(performance.now() - mark);
    log(`decision: ${decision.verdict}${decision.approval ? ` (approved by label "${decision.approval.label}"; the gate said ${decision.approval.verdictBefore})` : ''}`);

    const candidateReport = cand
      ? buildSideReport(cand, candCases)
      : buildSideReport(unavailableSide(candidateProfile, candidate.status === 'rejected' ? (candidate.reason as SideUnavailableError) : null), candCases);
    return {
      schemaVersion: REPORT_SCHEMA_VERSION,
      generatedBy: { name: GATE_NAME, version: GATE_VERSION },
      startedAt: startedAt.toISOString(),
      finishedAt: now().toISOString(),
      config: { file: config.file ? relativeToCwd(config.file) : null, datasets: datasets.map((d) => d.file), roles: definitions.map((r) => r.name) },
      baseline: buildSideReport(base, baseCases),
      candidate: candidateReport,
      diff: { summary: summarize(changes), changes },
      audit: audited,
      roles: roles.roles,
      decision,
      ...(options.policy && { policy: options.policy }),
      timing: { totalMs: Math.round(performance.now() - clock), stages },
    };
  } finally {
    clearTimeout(timer);
    standDown();
    await Promise.all(sessions.map((s) => s.close()));
  }
}

/** Tool calls in flight per side, so a run that times out during the cases can say who it was waiting on. */
type InFlight = Record<Side, Map<string, number>>;

function waitingOn(inFlight: InFlight): string {
  const sides = (['baseline', 'candidate'] as const).flatMap((side) => {
    const calls = [...inFlight[side]].filter(([, n]) => n > 0).map(([tool, n]) => (n > 1 ? `${tool} ×${n}` : tool)).sort();
    return calls.length ? [`${side} (tools/call ${calls.join(', ')})`] : [];
  });
  return sides.length ? `the case replay, waiting on the ${sides.join(' and the ')}` : 'the case replay';
}

function replay(datasets: Dataset[], side: OpenSide, config: GateConfig, inFlight: InFlight): Promise<Replay> {
  const session = side.session;
  const calls = inFlight[side.side];
  const track = async <T>(tool: string, call: () => Promise<T>): Promise<T> => {
    calls.set(tool, (calls.get(tool) ?? 0) + 1);
    try {
      return await call();
    } finally {
      calls.set(tool, calls.get(tool)! - 1);
    }
  };
  const replaySide: ReplaySide = {
    contract: side.contract,
    caller: session ? { callTool: (name, args) => track(name, () => session.callTool(name, args)) } : null,
    noCallerReason: `profile "${side.profile.name}" is a snapshot: no live server to call`,
    allowSideEffects: side.profile.allowSideEffects,
    concurrency: config.cases.concurrency,
  };
  return replayCases(datasets, replaySide);
}

/** Cases on a side that could not be reached: skipped (never passed), with the reason. */
async function unreachedCases(datasets: Dataset[]): Promise<Replay> {
  const results = datasets.flatMap((d) => d.cases.map((c) => ({
    id: c.id, role: d.role, roles: caseRoles(d, c), dataset: d.file, status: 'skipped' as const, passed: false,
    failures: [], probes: [],
  })));
  return { results, observations: [] };
}

const emptyContract = (): Contract => ({
  server: { name: null, version: null, protocolVersion: null, instructions: null },
  tools: [],
  hash: '',
  discovery: { pages: 0, durationMs: 0, errors: [] },
});

function unavailableSide(profile: Profile, error: SideUnavailableError | null): OpenSide & { error: SideUnavailableError | null } {
  return { side: 'candidate' as Side, profile, contract: emptyContract(), session: null, timing: { connectMs: 0, discoverMs: 0 }, error };
}

const describeProfile = (p: Profile) =>
  p.transport === 'snapshot' ? `snapshot ${relativeToCwd(p.path)}` : p.transport === 'stdio' ? [p.command, ...p.args].join(' ') : describeRemoteProfile(p);

function relativeToCwd(file: string): string {
  const cwd = process.cwd();
  return file.startsWith(`${cwd}/`) ? file.slice(cwd.length + 1) : file;
}

