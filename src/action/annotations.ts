import type { Code } from '../findings/codes.js';
import { inert, inertLines } from '../base/inert.js';
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
 * `::error` / `::warning` / `::notice` workflow commands for the changes, broken cases, audit
 * regressions and the policy files of a run, placed at a file and line where one is known. The
 * level follows the verdict, not a change's severity: error for what rolls back, warning for what
 * holds, notice for the rest (an approved run's reasons too). A reason with nothing to place (a
 * run-level one) gets one annotation of its own, so a failing Hold never shows only notices.
 * Errors first; past the cap, one notice says how many were left out. Only the annotations shown
 * are placed: finding a line can mean reading a dataset, and a run can break hundreds of cases.
 */
export function annotations(report: Report, locate: Locator, max = MAX_ANNOTATIONS): string[] {
  const { decision } = report;
  const acting = new Map<Code, Level>();
  if (!decision.approval) for (const r of decision.reasons) acting.set(r.code, r.action === 'rollback' ? 'error' : 'warning');
  const found = foundInRun(report, locate);
  const shown = new Set(found.map((a) => a.code));
  const runLevel: Pending[] = decision.reasons
    .filter((r) => !shown.has(r.code))
    .map((r) => ({ code: r.code, title: `mcp-gate ${r.code}`, message: r.message, place: none }));
  const sorted = [...found, ...runLevel]
    .map((a, i) => [{ ...a, level: acting.get(a.code) ?? 'notice' }, i] as const)
    .sort(([a, i], [b, j]) => RANK[a.level] - RANK[b.level] || i - j)
    .map(([a]) => a);
  const lines = sorted.slice(0, max).map((a) => command({ level: a.level, title: a.title, message: a.message, place: a.place() }));
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

/** An annotation before its level and its place: a place is looked up only for the annotations shown. */
interface Pending {
  code: Code;
  title: string;
  message: string;
  place: () => Place | null;
}

const none = () => null;

/** The changes, the candidate's broken cases, its audit regressions and the policy files changed, in that order. */
function foundInRun(report: Report, locate: Locator): Pending[] {
  const atTool = (tool: string | null) => (tool ? () => locate.toolLine(tool) : none);
  const changes = report.diff.changes.map((x) => ({
    code: x.code,
    title: `mcp-gate ${x.code}`,
    message: x.message,
    place: atTool(x.tool),
  }));
  const cases = report.candidate.caseResults
    .filter((r) => r.status === 'failed')
    .map((r): Pending => {
      const preexisting = r.regression === false;
      return {
        code: preexisting ? 'case-already-failing' : 'case-broken',
        title: preexisting ? `mcp-gate case ${r.id} fails on the baseline too (pre-existing)` : `mcp-gate case ${r.id} broken`,
        message: r.failures.map((f) => f.message).join('\n'),
        place: () => locate.caseLine(r.dataset, r.id),
      };
    });
  const audit = report.audit.findings
    .filter((f) => f.side === 'candidate' && f.regression)
    .map((f) => ({ code: f.code, title: `mcp-gate ${f.code}`, message: f.message, place: atTool(f.tool) }));
  // The policy Hold names each file it saw changed, at the file.
  const policy = (report.policy?.files ?? []).map((file): Pending => ({
    code: 'gate-policy-changed',
    title: `mcp-gate gate-policy-changed: ${file.file} (${file.change})`,
    message: `This file is the gate's policy and the pull request ${file.change === 'added' ? 'adds' : 'changes'} it; its owners must approve the run (the approve label) or land the change on the base branch first.`,
    place: () => ({ file: file.file, line: null }),
  }));
  return [...changes, ...cases, ...audit, ...policy];
}

/** One workflow command (`::error title=...::message`), escaped; `place` when the file and line are known. */
export function command(a: Annotation): string {
  const props = [a.place && `file=${property(a.place.file)}`, a.place?.line && `line=${a.place.line}`, `title=${property(inert(a.title))}`]
    .filter(Boolean)
    .join(',');
  return `::${a.level} ${props}::${data(inertLines(a.message))}`;
}
