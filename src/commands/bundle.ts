import { relative } from 'node:path';
import { bundleFormatError, renderBundle } from '../bundle/render.js';
import { summarizeBundle, type BundleSummary, type ServerOutcome } from '../bundle/summary.js';
import type { GateConfig } from '../config/types.js';
import { describe } from '../error-text.js';
import { mapLimit } from '../concurrency.js';
import { writeBundleSummary } from '../report/write.js';
import { redactDeep } from '../secrets.js';
import type { CommandIO, Format, Outcome } from './outcome.js';
import { gateOne, type RunFlags } from './run.js';

/**
 * `mcp-gate run` on a config with `servers`: every server gated (bundle.concurrency at a time),
 * one report each, then the bundle summary written and printed. A server that cannot be decided
 * (its baseline unreachable, a bad dataset) is listed as undecided; the others still run.
 */
export async function bundleCommand(config: GateConfig, flags: RunFlags, io: CommandIO): Promise<Outcome> {
  const bundle = config.bundle!;
  assertBundleFormat(flags.format);
  const startedAt = new Date().toISOString();
  io.log(`mcp-gate: bundle of ${bundle.servers.length} servers, ${bundle.concurrency} at a time`);
  const outcomes = await mapLimit(bundle.servers, bundle.concurrency, async (server): Promise<ServerOutcome & { written: boolean }> => {
    try {
      const gated = await gateOne(server.config, server.name, flags, io);
      if (!gated) return { name: server.name, report: null, error: 'interrupted', baseline: server.config.baseline, candidate: server.config.candidate, written: false };
      io.log(`mcp-gate: [${server.name}] ${gated.report.decision.verdict}${gated.reportPath ? `, report ${gated.reportPath}` : ''}`);
      return { name: server.name, report: gated.report, reportPath: gated.reportPath, written: gated.reportPath !== null };
    } catch (error) {
      io.error(`mcp-gate: [${server.name}] undecided: ${describe(error)}`);
      return { name: server.name, report: null, error: describe(error), baseline: server.config.baseline, candidate: server.config.candidate, written: false };
    }
  });
  if (io.interrupted()) return { kind: 'undecided' };
  const summary = redactDeep(summarizeBundle(outcomes, config.promotion, {
    startedAt,
    finishedAt: new Date().toISOString(),
    config: config.file ? relative(io.cwd, config.file) : null,
  }));
  let summaryPath: string | null = null;
  try {
    summaryPath = relative(io.cwd, writeBundleSummary(config.reports.dir, summary));
  } catch (error) {
    io.error(`mcp-gate: could not write the bundle summary to ${relative(io.cwd, config.reports.dir) || '.'}: ${describe(error)}. Set reports.dir (or --report-dir) to a writable directory.`);
  }
  return printBundle(summary, summaryPath, outcomes.every((o) => o.report === null || o.written) && summaryPath !== null, flags.format, io);
}

/** Prints a summary and turns it into an outcome: shared by `run` and `merge`. */
export function printBundle(summary: BundleSummary, summaryPath: string | null, written: boolean, format: Format, io: CommandIO): Outcome {
  io.stdout(renderBundle(summary, format, { summaryPath, colour: io.colour }));
  if (summaryPath) io.log(`mcp-gate: bundle summary written to ${summaryPath}`);
  if (!summary.verdict) return { kind: 'undecided' };
  return { kind: 'verdict', verdict: summary.verdict, reportWritten: written };
}

/** Checked before any server starts, so a wrong --format costs nothing. */
export function assertBundleFormat(format: Format): void {
  const error = bundleFormatError(format);
  if (error) throw error;
}
