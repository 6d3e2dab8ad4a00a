import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { summarizeBundle, type ServerOutcome } from '../bundle/summary.js';
import { InputError, type Problem } from '../base/problems.js';
import { DEFAULTS, type GateConfig } from '../config/types.js';
import type { Policy } from '../decide/decide.js';
import { describe } from '../base/error-text.js';
import { readReport } from '../report/read.js';
import { writeBundleSummary } from '../report/write.js';
import { WriteError } from '../base/atomic-write.js';
import type { Format } from '../report/formats.js';
import { readConfig, assertRenders, printBundle, type CommandIO, type Outcome } from './io.js';

export interface MergeFlags {
  config: string;
  /** True when -c was given: then the file must exist. */
  configGiven: boolean;
  reports: string[];
  reportDir?: string;
  format: Format;
  /** Where the rendered summary goes instead of stdout (`-o`). */
  output?: string;
}

const DEFAULT_POLICY: Policy = {
  rules: {},
  maxNewDestructiveTools: DEFAULTS.promotion.maxNewDestructiveTools,
  maxBrokenCases: DEFAULTS.promotion.maxBrokenCases,
  destructiveToolsOutsideRoles: DEFAULTS.promotion.destructiveToolsOutsideRoles,
  exceptions: [],
};

/**
 * `mcp-gate merge REPORT...`: per-server reports (from `run --server NAME` jobs) combined into the
 * bundle verdict and summary, exactly as `run` on the bundle would. With the config at hand, a
 * server of the bundle that has no report is undecided, and the bundle's policy judges collisions.
 */
export function mergeCommand(flags: MergeFlags, io: CommandIO): Outcome {
  assertRenders('bundle', flags.format);
  if (!flags.reports.length)
    throw new InputError([{ file: 'merge', line: null, path: '', message: 'needs the per-server reports: mcp-gate merge reports/*.json' }]);
  const config: GateConfig | null = flags.configGiven || existsSync(resolve(io.cwd, flags.config)) ? readConfig(flags.config, io) : null;
  const problems: Problem[] = [];
  const outcomes: ServerOutcome[] = [];
  for (const file of flags.reports) {
    const report = readReport(file, io.cwd);
    const display = relative(io.cwd, resolve(io.cwd, file)) || file;
    const problem = (message: string) => problems.push({ file: display, line: null, path: 'server', message });
    if (!report.server)
      problem('is not set: this report did not gate a server of a bundle. Write per-server reports with `mcp-gate run --server NAME`.');
    else if (outcomes.some((o) => o.name === report.server)) problem(`"${report.server}" is given twice; pass one report per server`);
    else if (config?.bundle && !config.bundle.servers.some((s) => s.name === report.server))
      problem(
        `"${report.server}" is not a server of ${relative(io.cwd, config.file!)}; its servers: ${config.bundle.servers.map((s) => s.name).join(', ')}`,
      );
    else outcomes.push({ name: report.server, report, reportPath: display });
  }
  if (problems.length) throw new InputError(problems);
  for (const server of config?.bundle?.servers ?? []) {
    if (outcomes.some((o) => o.name === server.name)) continue;
    outcomes.push({
      name: server.name,
      report: null,
      error: 'no report was given for this server (its run may have stopped with exit 3)',
      baseline: server.config.baseline,
      candidate: server.config.candidate,
    });
  }
  const reports = outcomes.flatMap((o) => (o.report ? [o.report] : []));
  const summary = summarizeBundle(outcomes, config?.promotion ?? DEFAULT_POLICY, {
    startedAt: reports.map((r) => r.startedAt).sort()[0]!,
    finishedAt: reports
      .map((r) => r.finishedAt)
      .sort()
      .at(-1)!,
    config: config?.file ? relative(io.cwd, config.file) : null,
  });
  const dir = flags.reportDir ? resolve(io.cwd, flags.reportDir) : config?.reports.dir;
  let summaryPath: string | null = null;
  if (dir) {
    try {
      summaryPath = relative(io.cwd, writeBundleSummary(dir, summary));
    } catch (error) {
      io.error(
        `mcp-gate: could not write the bundle summary to ${relative(io.cwd, dir) || '.'}: ${error instanceof WriteError ? error.reason : describe(error)}. Set --report-dir to a writable directory.`,
      );
    }
  }
  return printBundle(summary, summaryPath, !dir || summaryPath !== null, flags, io);
}
