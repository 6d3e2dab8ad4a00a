import type { History, HistoryRun } from './runs.js';
import { shortHash, shortTime } from './runs.js';

const DRIFT_NOTE = 'drift: the candidate contract differs from the previous run of the same baseline -> candidate pair';
const profiles = (r: HistoryRun) => `${r.baseline} → ${r.candidate}`;
const driftMark = (r: HistoryRun) => (r.drift ? 'drift' : '');

function columns(r: HistoryRun): string[] {
  return [
    shortTime(r.startedAt),
    profiles(r),
    r.verdict,
    String(r.addedTools),
    String(r.removedTools),
    String(r.breaking),
    String(r.brokenCases),
    shortHash(r.contractHash),
    driftMark(r),
  ];
}
const HEAD = ['time', 'baseline → candidate', 'verdict', 'added', 'removed', 'breaking', 'broken cases', 'contract', ''];
const NUMERIC = new Set([3, 4, 5, 6]);

/** The history for a terminal. */
export function renderHistoryText(history: History): string {
  if (!history.runs.length) return `No readable reports in ${history.dir}.\n`;
  const rows = [HEAD, ...history.runs.map(columns)];
  const widths = HEAD.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const lines = rows.map((r) =>
    r
      .map((cell, i) => (NUMERIC.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
  const drifts = history.runs.filter((r) => r.drift).length;
  lines.push(
    '',
    `${history.runs.length} run${history.runs.length === 1 ? '' : 's'} in ${history.dir}; ${drifts} with contract drift (${DRIFT_NOTE}).`,
  );
  return `${lines.join('\n')}\n`;
}

/** The history as a markdown table. */
export function renderHistoryMarkdown(history: History): string {
  if (!history.runs.length) return `No readable reports in \`${history.dir}\`.\n`;
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const out = [`## mcp-gate history: ${history.runs.length} runs in \`${cell(history.dir)}\``, ''];
  out.push(`| ${HEAD.map((h) => h || 'drift').join(' | ')} |`, `|${HEAD.map((_, i) => (NUMERIC.has(i) ? '---:' : '---')).join('|')}|`);
  for (const r of history.runs) {
    const c = columns(r).map(cell);
    c[7] = `\`${c[7]}\``;
    c[8] = r.drift ? '**drift**' : '';
    out.push(`| ${c.join(' | ')} |`);
  }
  out.push('', `_${DRIFT_NOTE}._`, '');
  return out.join('\n');
}
