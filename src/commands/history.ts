import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { InputError, formatProblem } from '../base/problems.js';
import { historyRuns, type History, type SavedReport, type UnreadableReport } from '../report/history/runs.js';
import { readReport } from '../report/read.js';
import { render, type Format } from '../report/formats.js';
import { readConfig, assertRenders, emit, type CommandIO, type Outcome } from './io.js';
import { isBundleSummaryName } from '../report/write.js';

export interface HistoryFlags {
  dir?: string;
  config: string;
  /** True when -c was given: a missing config file is then an error, not a fallback. */
  configGiven: boolean;
  format: Format;
  output?: string;
}

/** DIR, else `reports.dir` of the config, else MCPGATE_REPORTS__DIR or `reports` when there is no config file. */
function reportsDir(flags: HistoryFlags, io: CommandIO): string {
  if (flags.dir) return resolve(io.cwd, flags.dir);
  if (flags.configGiven || existsSync(resolve(io.cwd, flags.config))) return readConfig(flags.config, io).reports.dir;
  return resolve(io.cwd, io.env.MCPGATE_REPORTS__DIR || 'reports');
}

/** A link from where the page will be read to `<report>.html`, when that page exists. */
function pageLink(jsonPath: string, from: string): string | null {
  const page = jsonPath.replace(/\.json$/, '.html');
  if (!existsSync(page)) return null;
  return relative(from, page).split(sep).map(encodeURIComponent).join('/');
}

/**
 * `mcp-gate history [DIR]`: every `*.json` in DIR read as a report, oldest first. A file that is not
 * a readable report (broken JSON, another shape, a newer schemaVersion) is named on stderr and
 * skipped; the others are still listed, and the command then ends `undecided` (exit 3), as `show`
 * does for such a file.
 */
export function historyCommand(flags: HistoryFlags, io: CommandIO): Outcome {
  assertRenders('history', flags.format);
  const dir = reportsDir(flags, io);
  const shown = relative(io.cwd, dir) || '.';
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new InputError([
      {
        file: shown,
        line: null,
        path: '',
        message: 'no such directory; pass the folder that holds the saved reports (reports.dir of the config)',
      },
    ]);
  }
  // Links in the HTML page are relative to where it is written: -o FILE, or DIR itself for stdout.
  const linkBase = flags.output && flags.output !== '-' ? dirname(resolve(io.cwd, flags.output)) : dir;
  const saved: SavedReport[] = [];
  const unreadable: UnreadableReport[] = [];
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.json') && !isBundleSummaryName(n))
    .sort()) {
    const path = join(dir, name);
    const file = relative(io.cwd, path);
    try {
      saved.push({ file, report: readReport(path, io.cwd), page: pageLink(path, linkBase) });
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      unreadable.push({ file, problems: error.problems.map((p) => `${p.path ? `${p.path}: ` : ''}${p.message}`) });
      for (const p of error.problems) io.error(`mcp-gate: skipped ${formatProblem(p)}`);
    }
  }
  const history: History = { dir: shown, runs: historyRuns(saved), unreadable };
  emit(render('history', history, flags.format), flags.output, io);
  if (unreadable.length) {
    io.error(
      `mcp-gate: ${unreadable.length} file${unreadable.length === 1 ? ' is' : 's are'} not readable reports (listed above); exit code 3. Move other JSON files out of ${shown}.`,
    );
    return { kind: 'undecided' };
  }
  return { kind: 'ok' };
}
