/** The page's stylesheet, inline so the file works alone from file:// and asks the network for nothing. */
export const STYLE = `
:root { --bg: #fff; --fg: #1d2330; --muted: #667085; --line: #e4e7ec; --panel: #f8f9fb;
  --breaking: #b42318; --breaking-bg: #fee4e2; --dangerous: #b54708; --dangerous-bg: #fef0c7;
  --safe: #067647; --safe-bg: #dcfae6; --info: #175cd3; --info-bg: #d1e9ff;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color-scheme: light dark; }
@media (prefers-color-scheme: dark) { :root { --bg: #11141b; --fg: #e6e8ee; --muted: #98a2b3; --line: #2a303c; --panel: #181c25;
  --breaking: #fda29b; --breaking-bg: #55160c; --dangerous: #fec84b; --dangerous-bg: #4e1d09;
  --safe: #75e0a7; --safe-bg: #053321; --info: #84caff; --info-bg: #102a56; } }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
main, header.verdict > *, footer { max-width: 1280px; margin-left: auto; margin-right: auto; }
main { padding: 0 24px 48px; }
h1 { margin: 4px 0 8px; font-size: 28px; }
h2 { margin: 28px 0 10px; font-size: 18px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h4 { margin: 14px 0 6px; }
code, .hash, .json, .tool-name { font-family: var(--mono); font-size: 12.5px; }
.muted { color: var(--muted); }
.standing-fixed { color: var(--safe, #1a7f37); font-weight: 600; }
.standing-new { font-weight: 600; }
header.verdict { padding: 20px 24px; border-bottom: 4px solid var(--line); background: var(--panel); }
.verdict-Rollback { border-color: var(--breaking) !important; } .verdict-Rollback #verdict { color: var(--breaking); }
.verdict-Hold { border-color: var(--dangerous) !important; } .verdict-Hold #verdict { color: var(--dangerous); }
.verdict-Promote { border-color: var(--safe) !important; } .verdict-Promote #verdict { color: var(--safe); }
.kicker { margin: 0; color: var(--muted); text-transform: uppercase; letter-spacing: .06em; font-size: 12px; }
.route { font-weight: 400; font-size: 18px; color: var(--muted); }
#reasons { margin: 6px 0 0; padding-left: 18px; }
.action { font-weight: 600; text-transform: uppercase; font-size: 11px; padding: 1px 6px; border-radius: 3px; }
.action-rollback { color: var(--breaking); background: var(--breaking-bg); } .action-hold { color: var(--dangerous); background: var(--dangerous-bg); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 5px 8px; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
thead th { font-size: 12px; color: var(--muted); font-weight: 600; white-space: nowrap; }
table.profiles tbody th { width: 140px; font-size: 12.5px; color: var(--muted); font-weight: 600; }
.tiles { display: flex; flex-wrap: wrap; gap: 10px; }
.tile { border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 120px; background: var(--panel); }
.tile .count { display: block; font-size: 24px; font-weight: 700; }
.tile .label { color: var(--muted); font-size: 12px; }
.tone-breaking .count { color: var(--breaking); } .tone-dangerous .count { color: var(--dangerous); } .tone-safe .count { color: var(--safe); }
.sev, .risk, .outcome, .kind { display: inline-block; font-size: 11px; font-weight: 600; padding: 0 6px; border-radius: 9px; line-height: 18px; white-space: nowrap; }
.sev-breaking, .risk-destructive, .outcome-failed { color: var(--breaking); background: var(--breaking-bg); }
.sev-dangerous, .risk-open-world, .kind-regression, .outcome-skipped { color: var(--dangerous); background: var(--dangerous-bg); }
.sev-safe, .risk-read-only, .outcome-passed { color: var(--safe); background: var(--safe-bg); }
.kind-shared, .kind-baseline { color: var(--info); background: var(--info-bg); }
#filters { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; align-items: center; gap: 8px; padding: 10px 0; background: var(--bg); border-bottom: 1px solid var(--line); }
.filter { font: inherit; font-size: 12.5px; border: 1px solid var(--line); border-radius: 14px; padding: 3px 10px; background: var(--panel); color: var(--fg); cursor: pointer; }
.filter[aria-pressed="false"] { opacity: .45; text-decoration: line-through; }
.filter-breaking { border-color: var(--breaking); } .filter-dangerous { border-color: var(--dangerous); } .filter-safe { border-color: var(--safe); }
#search { font: inherit; padding: 4px 10px; border: 1px solid var(--line); border-radius: 14px; min-width: 240px; background: var(--bg); color: var(--fg); }
.hide-breaking [data-severity="breaking"], .hide-dangerous [data-severity="dangerous"], .hide-safe [data-severity="safe"], .hide-none [data-severity="none"] { display: none !important; }
[hidden] { display: none !important; }
.tool-head, .tool-summary { display: grid; grid-template-columns: 110px minmax(0, 1fr) minmax(0, 1fr) 170px; gap: 10px; align-items: center; }
.tool-head { font-size: 12px; color: var(--muted); font-weight: 600; padding: 4px 8px; }
/* Headers stay visible under the sticky filter bar, whose height (it wraps when narrow) the script sets as --sticky-top. */
.tool-head, table.changes.all > thead th, table.findings > thead th, table.cases > thead th { position: sticky; top: var(--sticky-top, 50px); z-index: 1; background: var(--bg); box-shadow: 0 1px 0 var(--line); }
section, details.tool, [id^="tool-"] { scroll-margin-top: calc(var(--sticky-top, 50px) + 40px); }
details.tool { border-bottom: 1px solid var(--line); }
/* A closed row off screen is not laid out: 1,000 tools render in a fraction of the time. */
details.tool:not([open]) { content-visibility: auto; contain-intrinsic-size: auto 31px; }
.tool-summary { padding: 5px 8px; cursor: pointer; list-style: none; }
.tool-summary::-webkit-details-marker { display: none; }
details.tool[open] > .tool-summary, .tool-summary:hover { background: var(--panel); }
.status { font-size: 12px; font-weight: 600; } .tool-changes { white-space: nowrap; }
.side-label { font-size: 11px; color: var(--muted); text-transform: uppercase; letter-spacing: .05em; margin-bottom: 2px; }
.status-added { color: var(--safe); } .status-removed, .status-renamed { color: var(--breaking); } .status-changed { color: var(--dangerous); }
.cell .risk { margin-left: 2px; } .cell.absent { color: var(--muted); }
details.tool[data-status="added"] .cell-candidate { box-shadow: inset 3px 0 var(--safe); padding-left: 6px; }
details.tool[data-status="removed"] .cell-baseline, details.tool[data-status="renamed"] .cell-baseline { box-shadow: inset 3px 0 var(--breaking); padding-left: 6px; }
.tool-details { padding: 6px 8px 16px 120px; }
.tool-text { margin: 4px 0; }
.columns { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.json { font-size: 12px; background: var(--panel); border: 1px solid var(--line); border-radius: 4px; padding: 6px 0; overflow-x: auto; white-space: pre; }
.json .line { padding: 0 8px; }
.json .del { background: var(--breaking-bg); } .json .ins { background: var(--safe-bg); } .json .mod { background: var(--info-bg); }
.json .flag { box-shadow: inset 4px 0 currentColor; font-weight: 600; }
.json .flag-breaking { color: var(--breaking); } .json .flag-dangerous { color: var(--dangerous); } .json .flag-safe { color: var(--safe); }
.json-empty { white-space: normal; padding: 8px; color: var(--muted); }
table.hints { width: auto; margin: 10px 0; } table.hints td.differs { font-weight: 700; } table.hints tbody th { font-weight: 400; color: var(--muted); }
table.changes td:nth-child(1) { width: 1%; } table.changes td:nth-child(2) code { white-space: nowrap; }
table.changes td.message { min-width: min(280px, 30vw); }
/* Names and pointers wrap only at their separators (<wbr>, client/dom.ts breakable), never mid-word. */
.tool-name, code.path { overflow-wrap: break-word; word-break: normal; }
td.tool-name, td:has(> code.path) { overflow-wrap: break-word; min-width: min(30ch, 20vw); }
table.changes td.before-after { font-family: var(--mono); font-size: 12px; color: var(--muted); }
table.findings td:nth-child(-n+3) { width: 1%; white-space: nowrap; }
table.cases th { width: 140px; } table.cases th .muted { font-weight: 400; font-size: 12px; } table.cases td { width: 45%; }
ul.failures, ul.probes { margin: 4px 0 0; padding-left: 18px; }
ul.probes { color: var(--muted); font-size: 12.5px; }
.side-error { color: var(--breaking); }
.run-note { color: var(--dangerous); }
.rests-on { color: var(--muted); font-size: 12.5px; }
button.more { font: inherit; font-size: 12.5px; border: 1px solid var(--line); border-radius: 4px; padding: 3px 10px; background: var(--panel); color: var(--fg); cursor: pointer; }
details.other-findings > summary { cursor: pointer; color: var(--muted); padding: 6px 0; }
pre { white-space: pre-wrap; font-family: var(--mono); font-size: 12px; }
footer { padding: 16px 24px 32px; color: var(--muted); font-size: 12px; }
/* Narrow windows (760 px and less wide): nothing runs off the side; codes wrap at their hyphens. */
@media (max-width: 900px) {
  main { padding: 0 12px 48px; } header.verdict { padding: 16px 12px; }
  .tool-head, .tool-summary { grid-template-columns: 76px minmax(0, 1fr) minmax(0, 1fr) 132px; gap: 6px; }
  .tool-details { padding-left: 8px; }
  .columns { grid-template-columns: minmax(0, 1fr); }
  table.changes td:nth-child(2) code, table.findings td:nth-child(-n+3) { white-space: normal; }
  #search { min-width: 0; flex: 1 1 160px; }
}
`;
