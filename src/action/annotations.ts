import type { Severity } from '../findings/codes.js';
import { inert, inertLines } from '../inert.js';
import type { Report } from '../report/types.js';

export interface Place {
  file: string;
  line: number | null;
}

/** Where a case or a tool is written down in the repository, when it is (a dataset, a committed snapshot). */
export interface Locator {
  caseLine(dataset: string, caseId: string): Place | null;
  toolLine(tool: string): Place | null;
}

type Level = 'error' | 'warning' | 'notice';
const LEVEL: Record<Severity, Level> = { breaking: 'error', dangerous: 'warning', safe: 'notice' };
const RANK: Record<Level, number> = { error: 0, warning: 1, notice: 2 };
/** GitHub shows at most 10 of each level per step anyway; more is noise in the log. */
export const MAX_ANNOTATIONS = 30;

// The workflow-command escapes: data escapes %, CR and LF; properties also escape : and ,.
const data = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const property = (s: string) => data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

export interface Annotation {
  level: Level;
  title: string;
  message: string;
  place: Place | null;
}

/**
 * `::error` / `::warning` / `::notice` workflow commands for breaking, dangerous and informational
 * changes, broken cases and audit regressions, placed at a file and line where one is known.
 * Errors first; past the cap, one notice says how many were left out. Only the annotations shown
 * are placed: finding a line can mean reading a dataset, and a run can break hundreds of cases.
 */
export function annotations(report: Report, locate: Locator, max = MAX_ANNOTATIONS): string[] {
  const all: (Omit<Annotation, 'place'> & { place: () => Place | null })[] = [];
  const none = () => null;
  for (const x of report.diff.changes) {
    const tool = x.tool;
    all.push({
      level: LEVEL[x.severity],
      title: `mcp-gate ${x.code}`,
      message: x.message,
      place: tool ? () => locate.toolLine(tool) : none,
    });
  }
  for (const r of report.candidate.caseResults) {
    if (r.status !== 'failed') continue;
    const preexisting = r.regression === false;
    all.push({
      level: preexisting ? 'notice' : 'error',
      title: preexisting ? `mcp-gate case ${r.id} fails on the baseline too (pre-existing)` : `mcp-gate case ${r.id} broken`,
      message: r.failures.map((f) => f.message).join('\n'),
      place: () => locate.caseLine(r.dataset, r.id),
    });
  }
  for (const f of report.audit.findings) {
    if (f.side !== 'candidate' || !f.regression) continue;
    const tool = f.tool;
    all.push({
      level: f.severity === 'safe' ? 'notice' : 'warning',
      title: `mcp-gate ${f.code}`,
      message: f.message,
      place: tool ? () => locate.toolLine(tool) : none,
    });
  }
  const sorted = all
    .map((a, i) => [a, i] as const)
    .sort(([a, i], [b, j]) => RANK[a.level] - RANK[b.level] || i - j)
    .map(([a]) => a);
  const lines = sorted.slice(0, max).map((a) => command({ ...a, place: a.place() }));
  if (sorted.length > max)
    lines.push(
      command({
        level: 'notice',
        title: 'mcp-gate',
        message: `${sorted.length - max} more annotations left out; the report lists every change.`,
        place: null,
      }),
    );
  return lines;
}

/** One workflow command (`::error title=...::message`), escaped; `place` when the file and line are known. */
export function command(a: Annotation): string {
  const props = [a.place && `file=${property(a.place.file)}`, a.place?.line && `line=${a.place.line}`, `title=${property(inert(a.title))}`]
    .filter(Boolean)
    .join(',');
  return `::${a.level} ${props}::${data(inertLines(a.message))}`;
}
