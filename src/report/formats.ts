import { jsonInert } from '../base/inert.js';
import { redactAll } from '../base/secrets.js';
import { renderBundleMarkdown, renderBundleText } from './bundle-render.js';
import type { BundleSummary } from './bundle-summary.js';
import { renderChangelog } from './changelog.js';
import { renderCheckRun } from './check-run.js';
import { renderHistoryHtml } from './history/html.js';
import { renderHistoryMarkdown, renderHistoryText } from './history/render.js';
import type { History } from './history/runs.js';
import { renderHtml } from './html/page.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import { renderSarif } from './sarif.js';
import { colours, plain, renderText } from './text.js';
import type { Report } from './types.js';
import { renderWorkflowCommands } from './workflow-commands.js';

/**
 * The output formats, in one table: what `--format` accepts, what each renders for each kind of
 * document (one server's report, a bundle summary, the history of runs) and, where a kind has no
 * form in a format, why not. `run`, `show`, `diff`, `merge`, `history`, the Action and the help
 * all read it; adding a format is adding a row.
 */
export interface RenderOptions {
  /** Where the JSON report was saved, for the text output to point at; null when nowhere. */
  reportPath?: string | null;
  /** Where the bundle summary was saved. */
  summaryPath?: string | null;
  colour?: boolean;
  /** Markdown of a report: the PR label that approves a run, for the comment's advice. */
  approveLabel?: string;
  /** Markdown of a report: a link to the run that wrote it. */
  reportLink?: string;
  /**
   * Formats that place findings beside the code (workflow annotations, a check run): where the run's
   * working directory sits in the repository, posix and relative to its root, since the report
   * names files from the former and GitHub from the latter. '' (the default): the same folder.
   */
  sourceRoot?: string;
  /** A check run: the commit it is for (`head_sha`); left out when not given. */
  headSha?: string;
}

export type DocumentKind = 'report' | 'bundle' | 'history';

interface Documents {
  report: Report;
  bundle: BundleSummary;
  history: History;
}

/** A renderer, or the sentence that says why this kind has no form in this format. */
type Form<T> = ((document: T, options: RenderOptions) => string) | { unsupported: string };

interface FormatSpec {
  /** What the format is for, in a few words (the help lists it). */
  help: string;
  report: Form<Report>;
  bundle: Form<BundleSummary>;
  history: Form<History>;
}

const json = (value: unknown) => `${jsonInert(JSON.stringify(value, null, 2))}\n`;
const perServer = (format: string) => ({
  unsupported: `a bundle summary holds each server's verdict and reasons, not its changes and cases; render a server's report with \`mcp-gate show REPORT --format ${format}\`, or the bundle as text, json or markdown`,
});
const perRun = (format: string) => ({
  unsupported: `the history lists runs, not findings; render one run with \`mcp-gate show REPORT --format ${format}\`, or the history as text, json, markdown or html`,
});

export const FORMATS = {
  text: {
    help: 'for people at a terminal',
    report: (r, o) => renderText(r, o.colour ? colours : plain, o.reportPath ?? null),
    bundle: (s, o) => renderBundleText(s, o.colour ? colours : plain, o.summaryPath ?? null),
    history: (h) => renderHistoryText(h),
  },
  json: { help: 'the document itself', report: (r) => json(r), bundle: (s) => json(s), history: (h) => json(h) },
  markdown: {
    help: 'a PR comment or job summary',
    // Redacted before cells are clipped, so no token is cut in half and left in part.
    report: (r, o) => renderMarkdown(redactAll(r), { approveLabel: o.approveLabel, reportLink: o.reportLink }),
    bundle: (s) => renderBundleMarkdown(redactAll(s)),
    history: (h) => renderHistoryMarkdown(h),
  },
  junit: { help: 'JUnit XML for CI test dashboards', report: (r) => renderJunit(r), bundle: perServer('junit'), history: perRun('junit') },
  sarif: { help: 'SARIF 2.1.0 for code scanning', report: (r) => renderSarif(r), bundle: perServer('sarif'), history: perRun('sarif') },
  html: {
    help: 'one self-contained page',
    report: (r) => renderHtml(r),
    bundle: perServer('html'),
    history: (h) => renderHistoryHtml(h),
  },
  changelog: {
    help: 'release notes in markdown, for CHANGELOG.md',
    report: (r) => renderChangelog(redactAll(r)),
    bundle: perServer('changelog'),
    history: perRun('changelog'),
  },
  'workflow-annotations': {
    help: 'GitHub Actions workflow commands, at the lines of datasets and snapshots',
    report: (r, o) => renderWorkflowCommands(r, o.sourceRoot),
    bundle: perServer('workflow-annotations'),
    history: perRun('workflow-annotations'),
  },
  'check-run': {
    help: 'a GitHub check run (JSON), annotated at the lines of datasets and snapshots',
    report: (r, o) => renderCheckRun(r, o),
    bundle: perServer('check-run'),
    history: perRun('check-run'),
  },
} as const satisfies Record<string, FormatSpec>;

export type Format = keyof typeof FORMATS;
export const FORMAT_NAMES = Object.keys(FORMATS) as Format[];
export const isFormat = (name: string): name is Format => Object.hasOwn(FORMATS, name);

/** The formats a kind of document renders to. */
export const formatsFor = (kind: DocumentKind): Format[] => FORMAT_NAMES.filter((f) => typeof FORMATS[f][kind] === 'function');

/** Why a kind of document has no form in a format, or null when it has one: checked before any server starts. */
export function unsupported(kind: DocumentKind, format: Format): string | null {
  const form: FormatSpec[DocumentKind] = FORMATS[format][kind];
  return typeof form === 'function' ? null : form.unsupported;
}

/** One document, one format: the single place that picks a renderer. */
export function render<K extends DocumentKind>(kind: K, document: Documents[K], format: Format, options: RenderOptions = {}): string {
  const form = FORMATS[format][kind] as Form<Documents[K]>;
  if (typeof form !== 'function') throw new Error(`--format ${format}: ${form.unsupported}`);
  return form(document, options);
}

/** A server's report in one format. */
export const renderReport = (report: Report, format: Format, options: RenderOptions = {}): string =>
  render('report', report, format, options);
