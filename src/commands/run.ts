import { relative } from 'node:path';
import { loadConfig } from '../config/load.js';
import { runGate } from '../run.js';
import { writeReport } from '../report/write.js';
import { renderReport } from '../report/render.js';
import { describe } from '../error-text.js';
import { redactDeep } from '../secrets.js';
import type { CommandIO, Format, Outcome } from './outcome.js';

export interface RunFlags {
  config: string;
  baseline?: string;
  candidate?: string;
  datasets?: string[];
  reportDir?: string;
  format: Format;
  /** The PR label that approved this run, if any (see decide/approve). */
  approvedByLabel?: string;
}

/** `mcp-gate run`: the whole gate, then the report is written and the chosen format printed. */
export async function runCommand(flags: RunFlags, io: CommandIO): Promise<Outcome> {
  const config = loadConfig(flags.config, io.env, {
    baseline: flags.baseline,
    candidate: flags.candidate,
    datasets: flags.datasets,
    reportDir: flags.reportDir,
  }, io.cwd);
  // Servers may echo what they were given (stderr, errors, descriptions): the report never keeps it.
  const report = redactDeep(await runGate(config, { log: (line) => io.log(`mcp-gate: ${line}`), approvedByLabel: flags.approvedByLabel }));
  // Servers ended by a signal fail their calls: a verdict from that would be about the signal.
  if (io.interrupted()) return { kind: 'undecided' };
  let reportPath: string | null = null;
  const started = performance.now();
  try {
    reportPath = relative(io.cwd, writeReport(config.reports.dir, report));
    report.timing.stages.report = Math.round(performance.now() - started);
  } catch (error) {
    io.error(`mcp-gate: could not write the report to ${relative(io.cwd, config.reports.dir) || '.'}: ${describe(error)}. Set reports.dir (or --report-dir) to a writable directory.`);
  }
  io.stdout(renderReport(report, flags.format, { reportPath, colour: io.colour }));
  if (reportPath) io.log(`mcp-gate: report written to ${reportPath} (${report.timing.stages.report} ms)`);
  return { kind: 'verdict', verdict: report.decision.verdict, reportWritten: reportPath !== null, report, reportPath };
}
