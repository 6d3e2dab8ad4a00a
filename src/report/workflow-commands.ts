import { inert, inertLines } from '../base/inert.js';
import { annotated, type Annotation } from './annotated.js';
import type { Report } from './types.js';

/** GitHub shows at most 10 of each level per step anyway; more is noise in the log. */
export const MAX_WORKFLOW_ANNOTATIONS = 30;

// The workflow-command escapes: data escapes %, CR and LF; properties also escape : and ,.
const data = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const property = (s: string) => data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/**
 * A run's workflow annotations (`::error file=…,line=…,title=…::message`), one line each, for a
 * GitHub Actions log: what `annotated()` finds, errors first, at most `max`; past the cap, one
 * notice says how many were left out.
 */
export function renderWorkflowCommands(report: Report, sourceRoot = '', max = MAX_WORKFLOW_ANNOTATIONS): string {
  const all = annotated(report, sourceRoot);
  const lines = all.slice(0, max).map(command);
  if (all.length > max)
    lines.push(
      command({
        level: 'notice',
        title: 'mcp-gate',
        message: `${all.length - max} more annotations left out; the report lists every change.`,
        place: null,
      }),
    );
  return lines.map((line) => `${line}\n`).join('');
}

/** One workflow command (`::error title=...::message`), escaped and inert; `place` when the file and line are known. */
export function command(a: Annotation): string {
  const props = [a.place && `file=${property(a.place.file)}`, a.place?.line && `line=${a.place.line}`, `title=${property(inert(a.title))}`]
    .filter(Boolean)
    .join(',');
  return `::${a.level} ${props}::${data(inertLines(a.message))}`;
}
