import { jsonInert } from '../../base/inert.js';
import { contentSecurityPolicy } from '../content-security-policy.js';
import type { Report } from '../types.js';
import { clientScript } from './script.js';
import { STYLE } from './style.js';
import { reportView, type ReportView } from './view.js';

/** Text for an HTML text node or a quoted attribute. */
export const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * JSON that is safe inside <script type="application/json">: no `<` (so no `</script>` or `<!--`),
 * `>` or `&` survives as itself, nor a bidirectional or zero-width character (jsonInert), so the
 * page's source reads as it parses; JSON.parse reads the \u escapes back.
 */
export const embedJson = (value: unknown): string =>
  jsonInert(JSON.stringify(value)).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

/**
 * The view as embedded: an unchanged tool is the same on both sides, so its row carries it once
 * (candidate null); the page's main() puts it back. This halves the page for large surfaces.
 */
const packView = (view: ReportView): ReportView => ({
  ...view,
  rows: view.rows.map((row) => (row.status === 'unchanged' ? { ...row, candidate: null } : row)),
});

/** The report as one self-contained HTML page: inline CSS and script, the data embedded as JSON. */
export function renderHtml(report: Report): string {
  return htmlPage(reportView(report));
}

function htmlPage(view: ReportView): string {
  const script = clientScript();
  const title = `${view.decision.verdict}: ${view.sides.baseline.profile} → ${view.sides.candidate.profile} · mcp-gate`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy({ style: STYLE, script }))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${escapeHtml(`${view.generatedBy.name} ${view.generatedBy.version}`)}">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<div id="app"><noscript>This report is drawn by its inline script. Without JavaScript, read it with <code>mcp-gate show REPORT.json</code>.</noscript></div>
<script type="application/json" id="report-data">${embedJson(packView(view))}</script>
<script>${script}</script>
</body>
</html>
`;
}
