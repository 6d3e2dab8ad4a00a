import { audit, errorsAsData, failedOutputSchemas } from './audit/index.js';
import { loadDatasets } from './cases/load.js';
import { markRegressions } from './cases/regression.js';
import type { Dataset } from './cases/types.js';
import { policyFindings, type PolicyDrift } from './config/policy-drift.js';
import type { GateConfig } from './config/types.js';
import { makeSideDirs, type SideDirs } from './connect/side-dirs.js';
import type { Side } from './findings/types.js';
import { unavailableSide } from './contract/open-side.js';
import { fallbackFinding } from './report/fallback.js';
import { relativeToCwd } from './connect/redact.js';
import { RunDeadline } from './connect/run-deadline.js';
import { containmentUsed } from './connect/containment.js';
import { approveCovering, decideByRole, type Decision } from './decide/decide.js';
import { collectSignals, unannotatedSiblings } from './decide/signals.js';
import { checkVersionBump } from './decide/version-bump.js';
import { diffContracts } from './diff/index.js';
import { withEraCheck } from './diff/protocol.js';
import { checkEra } from './contract/era-check.js';
import { judgeByResults } from './diff/observed-outputs.js';
import { SchemaWork } from './contract/schema-work.js';
import { summarize } from './diff/summary.js';
import { discoveryFindings, unavailableFinding } from './contract/findings.js';
import { placedIn } from './contract/places.js';
import type { Change } from './findings/types.js';
import { buildSideReport } from './report/side.js';
import { REPORT_SCHEMA_VERSION, type Report, type RunEnvironment, type Timing } from './report/types.js';
import { unprotectedTreeFinding } from './report/run-notes.js';
import { runEnvironment } from './report/environment.js';
import { trimReport } from './report/trim.js';
import { roleBreakdown, roleReport, type RoleReport } from './roles/breakdown.js';
import { roleDefinitions } from './roles/definitions.js';
import { roleReach } from './roles/surface.js';
import { GATE_NAME, GATE_VERSION } from './base/version.js';
import { checkDatasetNames, confirmLive, connect, replayBoth, type Connected } from './pipeline-sides.js';
import { replayInTurn } from './pipeline-in-turn.js';
import { groundsOf } from './cases/witness-grounds.js';
import { deprecationLifecycle } from './pipeline-deprecation.js';

export interface RunOptions {
  /** The gate's own environment, read once by the entry point (src/cli.ts, src/action/main.ts) and handed down: servers are started from it. */
  env: NodeJS.ProcessEnv;
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
   * The server of a bundle this run gates: the report names it, the saved reports of that server
   * alone tell its history, and hold the contract a baseline's `fallback: last-report` takes.
   */
  server?: string;
}

/**
 * The whole gate, from config to a Report: connect and discover both sides in parallel, diff,
 * replay the cases on both sides, audit, decide. Writing the report is the caller's step, so a
 * report that cannot be written still has a verdict to print.
 */
export async function runGate(config: GateConfig, options: RunOptions): Promise<Report> {
  const log = options.log ?? (() => undefined);
  const now = options.now ?? (() => new Date());
  const datasets = options.datasets ?? loadDatasets(config.datasets);
  const startedAt = now();
  const clock = stageClock();
  const deadline = new RunDeadline(config.timeouts);
  const dirs = options.sideDirs ?? makeSideDirs(config, options.env);
  try {
    const connected = await discoverBoth(config, datasets, { deadline, log, clock }, dirs, options.server ?? null, options.env);
    // Only when the sides' eras differ: the candidate asked for the baseline's revision while the diff and the cases run.
    const era = checkEra(connected.base.contract.server, connected.cand, {
      config,
      env: options.env,
      dirs: dirs.candidate,
      log,
      track: deadline.adopt,
      expired: () => deadline.expired,
    });
    const observed = await observe(config, datasets, connected, { deadline, log, clock });
    const today = startedAt.toISOString().slice(0, 10);
    const { changes, calm } = deprecationLifecycle(withEraCheck(observed.confirmed, await era), config, today, options.server);
    const release = checkVersionBump(connected.base.contract.server, connected.cand?.contract.server ?? null, changes);
    const definitions = roleDefinitions(datasets);
    const environment = runEnvironment(config, containmentUsed());
    const { decision, roles } = clock.time('decide', () =>
      decideRun({ config, datasets, connected, observed, changes, calm, release, definitions, today, environment }, options),
    );
    logDecision(decision, log);
    const { base, cand, candidateError, candidateRetried } = connected;
    return trimReport({
      schemaVersion: REPORT_SCHEMA_VERSION,
      generatedBy: { name: GATE_NAME, version: GATE_VERSION },
      startedAt: startedAt.toISOString(),
      finishedAt: now().toISOString(),
      ...(options.server !== undefined && { server: options.server }),
      config: {
        file: config.file ? relativeToCwd(config.file) : null,
        datasets: datasets.map((d) => d.file),
        roles: definitions.map((r) => r.name),
      },
      baseline: buildSideReport(base, observed.baseCases),
      candidate: buildSideReport(
        cand ?? { ...unavailableSide(config.profiles[config.candidate]!, candidateError), retried: candidateRetried },
        observed.candCases,
      ),
      diff: { summary: summarize(changes), changes },
      release,
      audit: observed.audited,
      roles: roles satisfies RoleReport[],
      decision,
      ...(connected.inTurn && { sidesInTurn: { side: connected.inTurn.side, failed: connected.inTurn.failed } }),
      ...(options.policy && { policy: options.policy }),
      environment,
      timing: { totalMs: clock.total(), stages: clock.stages },
    });
  } finally {
    await deadline.end();
    // After the servers ended: nothing writes there any more.
    if (!options.sideDirs) for (const d of Object.values(dirs)) d?.remove();
  }
}

/** What each stage of a run is given: its deadline, its progress lines and the clock that times it. */
interface Stage {
  deadline: RunDeadline;
  log: (line: string) => void;
  clock: StageClock;
}

/** Both sides connected and their contracts read; the datasets' names checked against them. */
async function discoverBoth(
  config: GateConfig,
  datasets: Dataset[],
  { deadline, log, clock }: Stage,
  dirs: Record<Side, SideDirs | null>,
  server: string | null,
  env: NodeJS.ProcessEnv,
): Promise<Connected> {
  const connected = await connect(config, deadline, log, dirs, server, env);
  const { base, cand } = connected;
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
  return connected;
}

/**
 * What the run saw: the diff (live witnesses applied), each side's case results, and the audit. Sides
 * that cannot run at once are replayed in turn, which may start one again (`connected` is updated).
 */
async function observe(config: GateConfig, datasets: Dataset[], connected: Connected, { deadline, log, clock }: Stage) {
  const { base, cand } = connected;
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
    if (connected.inTurn && cand && !deadline.expired) {
      const inTurn = await replayInTurn(datasets, connected, diffed, config, deadline, log);
      return [...inTurn.replays, inTurn.confirmed] as const;
    }
    const replays = await replayBoth(datasets, base, cand, config, deadline, log);
    // A witness goes out on a call a case made that both sides answered (cases/witness-grounds.ts).
    const grounds = groundsOf(replays[0].observations, replays[1].observations);
    return [...replays, cand ? await confirmLive(diffed, base, cand, config, deadline, log, grounds) : diffed] as const;
  });
  const baseCases = baseReplay.results;
  const audited = clock.time('audit', () =>
    audit(
      { side: 'baseline', contract: base.contract, observations: baseReplay.observations },
      { side: 'candidate', contract: connected.cand?.contract ?? null, observations: candReplay.observations },
      config.audit,
      schemaNodesPerTool,
    ),
  );
  // After the audit: a case is judged broken only where its probe's results show a break.
  const candCases = markRegressions(baseCases, candReplay.results, errorsAsData(audited.findings));
  // Output changes are judged with the results the cases saw (diff/observed-outputs.ts).
  const judged = judgeByResults(confirmed, baseReplay.observations, candReplay.observations, cand?.contract ?? null);
  // What a change or a contract finding is about, placed where a committed baseline snapshot writes it.
  const placed = placedIn(base.contract.source);
  return { confirmed: judged.map(placed), baseCases, candCases, audited: { ...audited, findings: audited.findings.map(placed) } };
}

/** Everything the decision reads: the run's findings, each role's breakdown, then the verdict (approved by a label if given). */
function decideRun(
  run: {
    config: GateConfig;
    datasets: Dataset[];
    connected: Connected;
    observed: Awaited<ReturnType<typeof observe>>;
    changes: Change[];
    calm: Map<string, string>;
    release: ReturnType<typeof checkVersionBump>;
    definitions: ReturnType<typeof roleDefinitions>;
    today: string;
    environment: RunEnvironment;
  },
  options: RunOptions,
): { decision: Decision; roles: RoleReport[] } {
  const { config, connected, observed, today, definitions } = run;
  const { base, cand, candidateError } = connected;
  const findings = [
    ...discoveryFindings(base.contract, cand?.contract ?? null),
    ...policyFindings(options.policy),
    ...(base.fallback ? [fallbackFinding(config.baseline, base.fallback)] : []),
    ...(run.environment.unprotectedTrees ? [unprotectedTreeFinding(run.environment.unprotectedTrees)] : []),
    ...(candidateError ? [unavailableFinding(candidateError)] : []),
    ...run.release.findings,
  ];
  const roles = roleBreakdown(
    definitions,
    { baseline: base.contract, candidate: cand?.contract ?? null },
    { baseline: observed.baseCases, candidate: observed.candCases },
  );
  const forbidden = run.datasets.flatMap((d) => d.cases.flatMap((c) => c.forbiddenTools ?? []));
  const reach = roleReach(definitions, forbidden);
  const repairedOutputs = failedOutputSchemas(base.contract, observed.audited.findings);
  const unannotated = unannotatedSiblings(base.contract, cand?.contract ?? null);
  const signals = collectSignals(run.changes, observed.candCases, [...findings, ...observed.audited.findings, ...roles.findings], {
    reach,
    repairedOutputs,
    calmRemovals: run.calm,
    ...(unannotated && { unannotated }),
  });
  // One pass: the run's decision, and each role's share of it.
  const names = definitions.map((d) => d.name);
  const decided = decideByRole(signals, config.promotion, today, names);
  const decision = options.approvedByLabel
    ? approveCovering(decided.decision, signals, options.approvedByLabel, options.approvalCovers ?? null)
    : decided.decision;
  return { decision, roles: roles.roles.map((share) => roleReport(share, decided.roles.get(share.name)!)) };
}

function logDecision(decision: Decision, log: (line: string) => void): void {
  if (decision.staleApproval) log(`approval: ${decision.staleApproval.message}`);
  log(
    `decision: ${decision.verdict}${decision.approval ? ` (approved by label "${decision.approval.label}"; the gate said ${decision.approval.verdictBefore})` : ''}`,
  );
}

type StageClock = ReturnType<typeof stageClock>;

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
