import { relative } from 'node:path';
import { assertPolicyBase, baselineRunPaths, policyDrift, policyFiles, policyFolders } from '../config/policy-drift.js';
import { loadDatasets } from '../cases/load.js';
import type { Dataset } from '../cases/types.js';
import { endUnadopted, prelaunch } from '../connect/prelaunch.js';
import { launchSpecOf } from '../connect/environment.js';
import { makeSideDirs, type SideDirs } from '../connect/side-dirs.js';
import type { Side } from '../findings/types.js';
import { describe } from '../base/error-text.js';
import { redactDeep } from '../base/secrets.js';
import { summarizeBundle, type ServerOutcome } from '../bundle/summary.js';
import { mapLimit } from '../base/concurrency.js';
import { writeBundleSummary, writeReport } from '../report/write.js';
import { WriteError } from '../base/atomic-write.js';
import { jsonPieces } from '../report/json-pieces.js';
import type { Format } from '../report/formats.js';
import { readConfig, assertRenders, emit, emitPieces, printBundle, type CommandIO, type Outcome } from './io.js';
import { formatProblem, InputError } from '../base/problems.js';
import type { GateConfig, ServerGate } from '../config/types.js';
import type { Report } from '../report/types.js';

export interface RunFlags {
  config: string;
  baseline?: string;
  candidate?: string;
  datasets?: string[];
  reportDir?: string;
  format: Format;
  /** Where the rendered format goes instead of stdout (`-o`). */
  output?: string;
  /** Gate only this server of a bundle (`servers.<name>`). */
  server?: string;
  /** The PR label that approved this run, if any (`approveCovering`, decide/decide.ts). */
  approvedByLabel?: string;
  /** What the label's approval covers (`RunOptions.approvalCovers`, pipeline.ts). */
  approvalCovers?: string[] | null;
  /** Compare the config and datasets with this commit, the change's base (see config/policy-drift.ts). */
  policyBase?: string;
}

/** `mcp-gate run`: the whole gate, then the report is written and the chosen format printed. */
export async function runCommand(flags: RunFlags, io: CommandIO): Promise<Outcome> {
  const config = readConfig(flags.config, io, {
    baseline: flags.baseline,
    candidate: flags.candidate,
    datasets: flags.datasets,
    reportDir: flags.reportDir,
  });
  if (flags.policyBase !== undefined) assertPolicyBase(flags.policyBase, io.cwd);
  if (config.bundle && flags.server === undefined) return bundleCommand(config, flags, io);
  const server = flags.server === undefined ? null : serverOf(config, flags.server, flags.config);
  const { config: pair, remove } = await placeGit(
    await fromGit(server?.config ?? config, server?.name ?? null, flags, io),
    server?.name ?? null,
    io,
  );
  let gated: Awaited<ReturnType<typeof gateOne>>;
  try {
    const { datasets, sideDirs } = await startEarly(pair, io.env);
    for (const note of datasets.flatMap((d) => d.notes ?? [])) io.log(`mcp-gate: note: ${formatProblem(note)}`);
    gated = await gateOne(pair, server?.name ?? null, flags, io, datasets, sideDirs);
  } finally {
    remove();
  }
  if (!gated) return { kind: 'undecided' };
  const { report, reportPath } = gated;
  const { render } = await import('../report/formats.js');
  // The json format, which may be tens of megabytes, goes out a piece at a time (docs/security.md,
  // "The report is at most 32 MiB").
  if (flags.format === 'json') await emitPieces(jsonPieces(report, { toolsOnOneLine: false }), flags.output, io);
  else emit(render('report', report, flags.format, { reportPath, colour: io.colour && !flags.output }), flags.output, io);
  if (reportPath) io.log(`mcp-gate: report written to ${reportPath} (${report.timing.stages.report} ms)`);
  return { kind: 'verdict', verdict: report.decision.verdict, reportWritten: reportPath !== null, report, reportPath };
}

/**
 * Starts both stdio servers before the datasets are read and the pipeline's modules load, so their
 * boot overlaps ours, each in its side's own folders. A dataset that does not load ends them again
 * (and removes the folders) before the run stops.
 */
async function startEarly(
  config: GateConfig,
  env: NodeJS.ProcessEnv,
): Promise<{ datasets: Dataset[]; sideDirs: Record<Side, SideDirs | null> }> {
  const sideDirs = makeSideDirs(config, env);
  for (const side of ['baseline', 'candidate'] as const) {
    const profile = config.profiles[config[side]];
    if (profile?.transport !== 'stdio' || profile.unresolved.length) continue; // the session says why it cannot start
    prelaunch(launchSpecOf(profile, env, sideDirs[side]).spec, config.limits.stderrTailBytes);
  }
  try {
    return { datasets: loadDatasets(config.datasets), sideDirs };
  } catch (error) {
    await endUnadopted(config.timeouts.killGraceMs);
    for (const dirs of Object.values(sideDirs)) dirs?.remove();
    throw error;
  }
}

const fromGitRef = (config: GateConfig) => [config.baseline, config.candidate].some((name) => config.profiles[name]?.git);
const progress = (server: string | null, io: CommandIO) => (line: string) =>
  io.log(`${server === null ? 'mcp-gate: ' : `mcp-gate: [${server}] `}${line}`);

/** The pair with its git profiles checked out and built (connect/git-baseline.ts); the git code loads only when one is. */
async function fromGit(config: GateConfig, server: string | null, flags: Pick<RunFlags, 'policyBase'>, io: CommandIO): Promise<GateConfig> {
  if (!fromGitRef(config)) return config;
  const { checkoutGitProfiles } = await import('../connect/git-baseline.js');
  return checkoutGitProfiles(config, flags.policyBase, io.env, progress(server, io), io.cwd);
}

/** The built trees placed for the pair about to start (`placeTrees`), and what removes the copies it made for it. */
async function placeGit(config: GateConfig, server: string | null, io: CommandIO): Promise<{ config: GateConfig; remove: () => void }> {
  if (!fromGitRef(config)) return { config, remove: () => undefined };
  const { placeTrees } = await import('../connect/git-baseline.js');
  return placeTrees(config, io.env, progress(server, io));
}

/** One baseline/candidate pair, gated and its report written; null when the gate was interrupted. */
export async function gateOne(
  config: GateConfig,
  server: string | null,
  flags: Pick<RunFlags, 'approvedByLabel' | 'approvalCovers' | 'policyBase'>,
  io: CommandIO,
  datasets?: Dataset[],
  /** The sides' folders the servers started early were given; removed here once the run ends. */
  sideDirs?: Record<Side, SideDirs | null>,
): Promise<{ report: Report; reportPath: string | null } | null> {
  const prefix = server === null ? 'mcp-gate: ' : `mcp-gate: [${server}] `;
  const policy = flags.policyBase
    ? policyDrift(flags.policyBase, policyFiles(config), io.cwd, baselineRunPaths(config), policyFolders(config))
    : undefined;
  if (policy?.error) io.log(`${prefix}warning: the gate's policy was not checked for changes: ${policy.error}`);
  // The pipeline (and the SDK with it) loads here, while servers started early boot.
  const { runGate } = await import('../pipeline.js');
  let gated: Report;
  try {
    // After a signal nothing more is said about the run: no decision from servers told to end.
    gated = await runGate(config, {
      env: io.env,
      log: (line) => (io.interrupted() ? undefined : io.log(`${prefix}${line}`)),
      approvedByLabel: flags.approvedByLabel,
      approvalCovers: flags.approvalCovers,
      datasets,
      policy,
      sideDirs,
      ...(server !== null && { server }),
    });
  } finally {
    await endUnadopted(config.timeouts.killGraceMs);
    for (const dirs of Object.values(sideDirs ?? {})) dirs?.remove();
  }
  // Servers may echo what they were given (stderr, errors, descriptions): the report never keeps it.
  const report = redactDeep(gated);
  // Servers ended by a signal fail their calls: a verdict from that would be about the signal.
  if (io.interrupted()) return null;
  let reportPath: string | null = null;
  const started = performance.now();
  try {
    reportPath = relative(io.cwd, writeReport(config.reports.dir, report));
    report.timing.stages.report = Math.round(performance.now() - started);
  } catch (error) {
    io.error(
      `${prefix}could not write the report to ${relative(io.cwd, config.reports.dir) || '.'}: ${error instanceof WriteError ? error.reason : describe(error)}. Set reports.dir (or --report-dir) to a writable directory.`,
    );
  }
  return { report, reportPath };
}

/**
 * `mcp-gate run` on a config with `servers`: every server gated (bundle.concurrency at a time),
 * one report each, then the bundle summary written and printed. A server that cannot be decided
 * (its baseline unreachable, a bad dataset) is listed as undecided; the others still run.
 */
async function bundleCommand(config: GateConfig, flags: RunFlags, io: CommandIO): Promise<Outcome> {
  const bundle = config.bundle!;
  assertRenders('bundle', flags.format);
  const startedAt = new Date().toISOString();
  io.log(`mcp-gate: bundle of ${bundle.servers.length} servers, ${bundle.concurrency} at a time`);
  // Every git baseline is built (or found whole in the cache) before any server starts: no server's
  // code has run yet while a tree is made (docs/baselines.md, "The cache").
  const built = await mapLimit(bundle.servers, bundle.concurrency, (server) =>
    fromGit(server.config, server.name, flags, io).then(
      (ready) => ({ ready }),
      (error: unknown) => ({ error }),
    ),
  );
  const outcomes = await mapLimit(bundle.servers, bundle.concurrency, (server) =>
    gateServer(server, built[bundle.servers.indexOf(server)]!, flags, io),
  );
  if (io.interrupted()) return { kind: 'undecided' };
  const summary = redactDeep(
    summarizeBundle(outcomes, config.promotion, {
      startedAt,
      finishedAt: new Date().toISOString(),
      config: config.file ? relative(io.cwd, config.file) : null,
    }),
  );
  let summaryPath: string | null = null;
  try {
    summaryPath = relative(io.cwd, writeBundleSummary(config.reports.dir, summary));
  } catch (error) {
    io.error(
      `mcp-gate: could not write the bundle summary to ${relative(io.cwd, config.reports.dir) || '.'}: ${error instanceof WriteError ? error.reason : describe(error)}. Set reports.dir (or --report-dir) to a writable directory.`,
    );
  }
  return printBundle(summary, summaryPath, outcomes.every((o) => o.report === null || o.written) && summaryPath !== null, flags, io);
}

/** One server of a bundle, its trees made already (or the error that stopped them): gated, or undecided and why. */
async function gateServer(
  server: ServerGate,
  made: { ready: GateConfig } | { error: unknown },
  flags: RunFlags,
  io: CommandIO,
): Promise<ServerOutcome & { written: boolean }> {
  const undecided = (error: string) => ({
    name: server.name,
    report: null,
    error,
    baseline: server.config.baseline,
    candidate: server.config.candidate,
    written: false,
  });
  try {
    if ('error' in made) throw made.error;
    const placed = await placeGit(made.ready, server.name, io);
    let gated: Awaited<ReturnType<typeof gateOne>>;
    try {
      gated = await gateOne(placed.config, server.name, flags, io);
    } finally {
      placed.remove();
    }
    if (!gated) return undecided('interrupted');
    io.log(`mcp-gate: [${server.name}] ${gated.report.decision.verdict}${gated.reportPath ? `, report ${gated.reportPath}` : ''}`);
    return { name: server.name, report: gated.report, reportPath: gated.reportPath, written: gated.reportPath !== null };
  } catch (error) {
    io.error(`mcp-gate: [${server.name}] undecided: ${describe(error)}`);
    return undecided(describe(error));
  }
}

function serverOf(config: GateConfig, name: string, file: string): ServerGate {
  const names = config.bundle?.servers.map((s) => s.name) ?? [];
  const found = config.bundle?.servers.find((s) => s.name === name);
  if (found) return found;
  const message = config.bundle
    ? `has no server "${name}"; its servers: ${names.join(', ')}`
    : `declares no servers, so --server ${name} has nothing to pick; --server gates one server of a bundle (see \`servers\` in the config)`;
  throw new InputError([{ file: relative(process.cwd(), config.file ?? file) || file, line: null, path: 'servers', message }]);
}
