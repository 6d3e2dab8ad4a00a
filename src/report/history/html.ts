import { contentSecurityPolicy } from '../content-security-policy.js';
import { escapeHtml } from '../html/page.js';
import type { History, HistoryRun } from './runs.js';
import { shortHash, shortTime } from './runs.js';

const STYLE = `
:root { --fg: #1d2330; --muted: #667085; --line: #e4e7ec; --panel: #f8f9fb; --bg: #fff;
  --Rollback: #b42318; --Hold: #b54708; --Promote: #067647; color-scheme: light dark; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e8ee; --muted: #98a2b3; --line: #2a303c; --panel: #181c25; --bg: #11141b;
  --Rollback: #fda29b; --Hold: #fec84b; --Promote: #75e0a7; } }
body { margin: 0 auto; max-width: 1000px; padding: 20px 24px 40px; font: 14px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 26px 0 8px; border-bottom: 1px solid var(--line); }
.muted { color: var(--muted); } code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12.5px; }
svg { width: 100%; height: auto; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; }
svg text { fill: var(--muted); font-size: 11px; font-family: system-ui, sans-serif; }
svg .grid { stroke: var(--line); } svg .drift { stroke: var(--muted); stroke-dasharray: 3 3; }
svg .s-tools { stroke: #175cd3; fill: #175cd3; } svg .s-breaking { stroke: #b42318; fill: #b42318; } svg .s-broken { stroke: #b54708; fill: #b54708; }
svg polyline { fill: none !important; stroke-width: 2; }
svg .v-Rollback { fill: var(--Rollback); } svg .v-Hold { fill: var(--Hold); } svg .v-Promote { fill: var(--Promote); }
ol.timeline { list-style: none; padding: 0; margin: 0; border-left: 2px solid var(--line); }
ol.timeline li { position: relative; padding: 6px 0 10px 18px; }
ol.timeline li::before { content: ""; position: absolute; left: -7px; top: 11px; width: 12px; height: 12px; border-radius: 50%; background: var(--muted); }
li.verdict-Rollback::before { background: var(--Rollback) !important; } li.verdict-Hold::before { background: var(--Hold) !important; } li.verdict-Promote::before { background: var(--Promote) !important; }
.verdict { font-weight: 700; } .verdict-Rollback .verdict { color: var(--Rollback); } .verdict-Hold .verdict { color: var(--Hold); } .verdict-Promote .verdict { color: var(--Promote); }
.drift-mark { font-size: 11px; font-weight: 600; padding: 0 6px; border-radius: 9px; border: 1px solid var(--muted); }
.counts { color: var(--muted); }
`;

const SERIES = [
  { key: 'toolCount', label: 'candidate tools', css: 's-tools' },
  { key: 'breaking', label: 'breaking changes', css: 's-breaking' },
  { key: 'brokenCases', label: 'broken cases', css: 's-broken' },
] as const;

/** Three small panels sharing the time axis: tool count, breaking changes, broken cases. Each has its own scale. */
function historyChart(runs: HistoryRun[]): string {
  const width = 720;
  const panel = 64;
  const gap = 14;
  const left = 130;
  const right = 16;
  const verdictRow = SERIES.length * (panel + gap) + 8;
  const height = verdictRow + 22;
  const x = (i: number) => (runs.length === 1 ? (left + width - right) / 2 : left + (i * (width - left - right)) / (runs.length - 1));
  const parts: string[] = [];
  SERIES.forEach((series, s) => {
    const top = 8 + s * (panel + gap);
    const values = runs.map((r) => r[series.key]);
    const max = Math.max(1, ...values);
    const y = (v: number) => top + panel - (v / max) * panel;
    parts.push(`<text x="8" y="${top + 12}">${series.label}</text><text x="8" y="${top + 28}">max ${max}</text>`);
    parts.push(`<line class="grid" x1="${left}" x2="${width - right}" y1="${top + panel}" y2="${top + panel}"/>`);
    if (s === 0)
      runs.forEach(
        (r, i) =>
          r.drift &&
          parts.push(
            `<line class="drift" x1="${x(i)}" x2="${x(i)}" y1="${top}" y2="${verdictRow - 4}"><title>contract drift</title></line>`,
          ),
      );
    parts.push(
      `<polyline class="${series.css}" data-series="${series.key}" points="${values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ')}"/>`,
    );
    values.forEach((v, i) =>
      parts.push(
        `<circle class="${series.css}" cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3.5"><title>${escapeHtml(`${shortTime(runs[i]!.startedAt)}: ${v} ${series.label}`)}</title></circle>`,
      ),
    );
  });
  parts.push(`<text x="8" y="${verdictRow + 11}">verdict</text>`);
  runs.forEach((r, i) =>
    parts.push(
      `<rect class="v-${escapeHtml(r.verdict)}" x="${(x(i) - 6).toFixed(1)}" y="${verdictRow}" width="12" height="12" rx="2"><title>${escapeHtml(`${shortTime(r.startedAt)}: ${r.verdict}`)}</title></rect>`,
    ),
  );
  return `<svg id="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="tool count, breaking changes and broken cases per run">${parts.join('')}</svg>`;
}

function runItem(r: HistoryRun): string {
  const link = r.page ? ` · <a href="${escapeHtml(r.page)}">open the report</a>` : '';
  const drift = r.drift
    ? ' <span class="drift-mark" title="the candidate contract differs from the previous run of the same baseline → candidate pair">drift</span>'
    : '';
  return `<li class="run verdict-${escapeHtml(r.verdict)}" data-verdict="${escapeHtml(r.verdict)}" data-drift="${r.drift === true}">
<div><span class="verdict">${escapeHtml(r.verdict)}</span> ${escapeHtml(`${r.baseline} → ${r.candidate}`)} <span class="muted">${escapeHtml(shortTime(r.startedAt))}</span></div>
<div class="counts">${r.addedTools} added, ${r.removedTools} removed, ${r.breaking} breaking, ${r.brokenCases} broken cases, ${r.toolCount} tools · contract <code title="${escapeHtml(r.contractHash ?? '')}">${escapeHtml(shortHash(r.contractHash))}</code>${drift}${link}</div>
<div class="muted"><code>${escapeHtml(r.file)}</code></div>
</li>`;
}

/** The history as one static page: no script at all, so its policy allows only its own style. */
export function renderHistoryHtml(history: History): string {
  const runs = history.runs;
  const body = runs.length
    ? `<h2>Over time</h2>\n${historyChart(runs)}\n<h2>Runs, oldest first</h2>\n<ol class="timeline">\n${runs.map(runItem).join('\n')}\n</ol>`
    : `<p>No readable reports in <code>${escapeHtml(history.dir)}</code>.</p>`;
  const unreadable = history.unreadable.length
    ? `<h2>Unreadable files</h2>\n<ul>${history.unreadable.map((u) => `<li><code>${escapeHtml(u.file)}</code>: ${escapeHtml(u.problems.join('; '))}</li>`).join('')}</ul>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy({ style: STYLE }))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mcp-gate history: ${escapeHtml(history.dir)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>mcp-gate history</h1>
<p class="muted">${runs.length} run${runs.length === 1 ? '' : 's'} in <code>${escapeHtml(history.dir)}</code>; ${runs.filter((r) => r.drift).length} with contract drift.</p>
${body}
${unreadable}
</body>
</html>
`;
}
