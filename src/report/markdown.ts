import { modelSeatHighlights } from './model-seat.js';
import type { Report, SideReport } from './types.js';

const ICON = { Promote: '✅', Hold: '⚠️', Rollback: '⛔' } as const;
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const percent = (rate: number | null) => (rate === null ? 'n/a' : `${Math.round(rate * 100)}%`);

/** Markdown for a PR comment or job summary. A pure function of the report. */
export function renderMarkdown(report: Report): string {
  const { baseline: b, candidate: c, diff, decision } = report;
  const out: string[] = [];
  out.push(`## ${ICON[decision.verdict]} mcp-gate: **${decision.verdict}** (${b.profile} → ${c.profile})`);
  out.push('');
  for (const r of decision.reasons) out.push(`- **${r.action}** \`${r.code}\`: ${cell(r.message)}`);
  if (!decision.reasons.length) out.push('- No finding asks for Hold or Rollback.');
  out.push('');
  out.push('| | baseline | candidate |', '|---|---|---|');
  const version = (s: SideReport) => (s.server.name ? `${s.server.name} ${s.server.version ?? ''}` : s.available ? '?' : 'unavailable');
  out.push(`| server | ${cell(version(b))} | ${cell(version(c))} |`);
  out.push(`| transport, protocol | ${b.transport}, ${b.server.protocolVersion ?? '-'} | ${c.transport}, ${c.server.protocolVersion ?? '-'} |`);
  out.push(`| tools | ${b.toolCount} | ${c.available ? c.toolCount : 'unavailable'} |`);
  out.push(`| pass rate | ${percent(b.cases.passRate)} (${b.cases.passed}/${b.cases.total}) | ${percent(c.cases.passRate)} (${c.cases.passed}/${c.cases.total}) |`);
  out.push(`| contract | \`${(b.contractHash ?? '-').slice(7, 19)}\` | \`${(c.contractHash ?? '-').slice(7, 19)}\` |`);
  out.push('');
  const s = diff.summary;
  out.push(`**Diff:** ${s.addedTools} added, ${s.removedTools} removed, ${s.schemaBreakages} schema breakages, ${s.readOnlyHintRegressions} read-only regressions, ${s.addedDestructiveTools} new destructive tools.`);
  for (const severity of ['breaking', 'dangerous', 'safe'] as const) {
    const changes = diff.changes.filter((x) => x.severity === severity);
    if (!changes.length) continue;
    out.push('', `<details${severity === 'breaking' ? ' open' : ''}><summary>${changes.length} ${severity}</summary>`, '');
    out.push('| code | tool | path | message |', '|---|---|---|---|');
    for (const x of changes) out.push(`| \`${x.code}\` | ${cell(x.tool ?? '')} | \`${cell(x.path || '/')}\` | ${cell(x.message)} |`);
    out.push('', '</details>');
  }
  const failed = [b, c].flatMap((side) => side.caseResults.filter((r) => r.status === 'failed').map((r) => ({ side: side === b ? 'baseline' : 'candidate', r })));
  if (failed.length) {
    out.push('', '**Case failures**', '', '| side | case | failures |', '|---|---|---|');
    for (const { side, r } of failed) out.push(`| ${side} | ${r.id} | ${cell(r.failures.map((f) => f.message).join('; '))} |`);
  }
  const seat = modelSeatHighlights(report);
  if (seat.regressions || seat.preexisting) {
    out.push('', '**What the model sees**', '');
    for (const f of seat.shown) out.push(`- \`${f.code}\`: ${cell(f.message)}`);
    out.push(`- ${seat.regressions} new on the candidate, ${seat.preexisting} shared with the baseline.`);
  }
  out.push('');
  return `${out.join('\n')}\n`;
}
