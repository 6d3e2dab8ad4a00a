import { inert, markdownCode } from '../base/inert.js';
import type { BundleSummary } from './bundle-summary.js';
import { cell, VERDICT_ICON } from './markdown.js';
import { plain, type TextStyle } from './text.js';

const verdictOf = (s: { verdict: string | null }) => s.verdict ?? 'undecided';

/** The bundle summary for a terminal. */
export function renderBundleText(summary: BundleSummary, style: TextStyle = plain, summaryPath: string | null = null): string {
  const paint = (v: string) => (v === 'Promote' ? style.green(v) : v === 'Hold' ? style.yellow(v) : style.red(v));
  const lines = [style.bold(`mcp-gate bundle: ${summary.servers.length} servers`)];
  const rows = [['server', 'baseline -> candidate', 'verdict', 'report']];
  for (const s of summary.servers)
    rows.push([s.name, s.baseline && s.candidate ? `${s.baseline} -> ${s.candidate}` : '-', verdictOf(s), s.report ?? '-']);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  rows.forEach((row, n) =>
    lines.push(
      `  ${row.map((cell, i) => (n && i === 2 ? paint(cell).padEnd(widths[i]! + paint(cell).length - cell.length) : cell.padEnd(widths[i]!))).join('   ')}`.trimEnd(),
    ),
  );
  lines.push('');
  for (const s of summary.servers) {
    if (s.error) lines.push(`  ${s.name}: ${style.red('undecided')}: ${inert(s.error)}`);
    for (const r of s.reasons) lines.push(`  ${s.name}: [${r.action}] ${r.code}: ${inert(r.message)}`);
    if (s.status === 'decided' && !s.reasons.length) lines.push(style.dim(`  ${s.name}: no finding asks for Hold or Rollback`));
  }
  if (summary.collisions.length) {
    lines.push('', style.bold('Across servers'));
    for (const c of summary.collisions.filter((x) => x.regression)) lines.push(`  ${inert(c.tool)}: exposed by ${c.servers.join(', ')}`);
    const old = summary.collisions.filter((x) => !x.regression);
    if (old.length)
      lines.push(
        style.dim(`  ${old.length} names the baselines already shared (reported, not judged): ${old.map((c) => inert(c.tool)).join(', ')}`),
      );
  }
  lines.push('');
  const verdict = summary.verdict ? paint(style.bold(summary.verdict)) : style.red(style.bold('undecided'));
  lines.push(
    `${style.bold('Bundle decision:')} ${verdict}${summary.verdict && !summary.servers.every((s) => s.status === 'decided') ? ' (a server is undecided, but another is already Rollback)' : ''}`,
  );
  for (const r of summary.decision.reasons) lines.push(`  - [${r.action}] ${r.code}: ${inert(r.message)}`);
  for (const s of summary.servers) if (s.verdict && s.verdict !== 'Promote') lines.push(`  - ${s.name}: ${s.verdict}`);
  for (const s of summary.servers) if (s.status === 'undecided') lines.push(`  - ${s.name}: undecided`);
  if (summaryPath) lines.push('', `Bundle summary: ${summaryPath}`);
  return `${lines.join('\n')}\n`;
}

const ICON: Record<string, string> = { ...VERDICT_ICON, undecided: '❔' };

export function renderBundleMarkdown(summary: BundleSummary): string {
  const verdict = verdictOf(summary);
  const out = [`## ${ICON[verdict]} mcp-gate bundle: **${verdict}** (${summary.servers.length} servers)`, ''];
  for (const s of summary.servers) if (s.staleApproval) out.push('> [!WARNING]', `> ${cell(s.name)}: ${cell(s.staleApproval.message)}`, '');
  out.push('| server | baseline → candidate | verdict | reasons |', '|---|---|---|---|');
  for (const s of summary.servers) {
    const why = s.error ? cell(s.error) : s.reasons.map((r) => `\`${r.code}\``).join(', ') || '-';
    const approval = s.approval
      ? ` (approved by label ${markdownCode(s.approval.label)}; the gate said **${s.approval.verdictBefore}**)`
      : '';
    out.push(
      `| ${cell(s.name)} | ${s.baseline && s.candidate ? `${cell(s.baseline)} → ${cell(s.candidate)}` : '-'} | ${ICON[verdictOf(s)]} ${verdictOf(s)}${approval} | ${why} |`,
    );
  }
  if (summary.collisions.length) {
    out.push('', '### Across servers', '');
    for (const c of summary.collisions)
      out.push(
        `- ${markdownCode(c.tool)} is exposed by ${c.servers.map(cell).join(', ')}${c.regression ? '' : ' (the baselines too: reported, not judged)'}`,
      );
  }
  for (const r of summary.decision.reasons) out.push('', `- **${r.action}** \`${r.code}\` (${r.count}): ${cell(r.message)}`);
  return `${out.join('\n')}\n`;
}
