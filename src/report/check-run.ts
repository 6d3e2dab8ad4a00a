import { inert, inertLines, jsonInert } from '../base/inert.js';
import { annotated, type Annotation } from './annotated.js';
import { cell } from './markdown.js';
import type { Report } from './types.js';
import { restsOn } from './rests-on.js';

/** GitHub takes at most 50 annotations in one request to create or update a check run. */
export const MAX_CHECK_RUN_ANNOTATIONS = 50;
/** GitHub's bounds: an annotation's title, its message, and the output's summary. */
const MAX_TITLE = 255;
const MAX_MESSAGE = 4000;
const MAX_SUMMARY = 60_000;

const CONCLUSION = { Promote: 'success', Hold: 'action_required', Rollback: 'failure' } as const;
const LEVEL = { error: 'failure', warning: 'warning', notice: 'notice' } as const;

const clip = (text: string, max: number) => (text.length > max ? `${[...text.slice(0, max)].slice(0, max - 1).join('')}…` : text);

/**
 * The JSON payload of a GitHub check run (POST /repos/{owner}/{repo}/check-runs): its conclusion
 * from the verdict, a summary of the reasons, and the run's annotations at the dataset's and the
 * snapshot's lines the report recorded (`source`), errors first, at most 50. What has no line
 * (a run-level reason, a change against a live baseline) is in the summary instead. Every string
 * from a server is inert: plain text in annotations, escaped markdown in the summary.
 */
export function renderCheckRun(report: Report, options: { sourceRoot?: string; headSha?: string } = {}): string {
  const all = annotated(report, options.sourceRoot);
  const placed = all.filter((a): a is Annotation & { place: NonNullable<Annotation['place']> } => a.place !== null);
  const shown = placed.slice(0, MAX_CHECK_RUN_ANNOTATIONS);
  const { verdict } = report.decision;
  const payload = {
    name: report.server === undefined ? 'mcp-gate' : `mcp-gate: ${inert(report.server)}`,
    ...(options.headSha && { head_sha: options.headSha }),
    conclusion: CONCLUSION[verdict],
    output: {
      title: clip(inert(`${verdict}${report.decision.reasons.length ? `: ${reasonsTitle(report)}` : ''}`), MAX_TITLE),
      summary: clip(summary(report, all.length - shown.length), MAX_SUMMARY),
      annotations: shown.map((a) => ({
        path: a.place.file,
        // A file named without a line (a policy file) is annotated at its top.
        start_line: a.place.line ?? 1,
        end_line: a.place.line ?? 1,
        annotation_level: LEVEL[a.level],
        message: clip(inertLines(a.message), MAX_MESSAGE) || a.title,
        title: clip(inert(a.title), MAX_TITLE),
      })),
    },
  };
  return `${jsonInert(JSON.stringify(payload, null, 2))}\n`;
}

const reasonsTitle = (report: Report): string => report.decision.reasons.map((r) => r.code).join(', ');

/** The verdict and its reasons in markdown, and how many annotations only the report holds. */
function summary(report: Report, unshown: number): string {
  const { decision } = report;
  const lines = [`**mcp-gate: ${decision.verdict}**`, ''];
  if (decision.approval)
    lines.push(`Approved by the \`${cell(decision.approval.label)}\` label (was ${decision.approval.verdictBefore}).`, '');
  for (const r of decision.reasons) lines.push(`- [${r.action}] \`${r.code}\`: ${cell(r.message)}`);
  if (!decision.reasons.length) lines.push('No finding asks for Hold or Rollback.');
  const basis = restsOn(report);
  if (basis) lines.push('', basis);
  if (unshown > 0)
    lines.push(
      '',
      `${unshown} more ${unshown === 1 ? 'item is' : 'items are'} not placed beside the code here; the report lists every one.`,
    );
  return lines.join('\n');
}
