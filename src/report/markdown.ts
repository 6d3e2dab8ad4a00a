import { protocolLabel } from './protocol-label.js';
import type { Change } from '../findings/types.js';
import { inert, markdownCode, markdownText } from '../base/inert.js';
import { auditHighlights, standings } from './audit-highlights.js';
import { featureRows } from './feature-rows.js';
import { passRateText } from './case-tally.js';
import { fallbackLine } from './side.js';
import { runNotes } from './run-notes.js';
import type { Report, SideReport } from './types.js';
import { restsOn } from './rests-on.js';

/** The hidden line that marks the gate's PR comment, so a later run updates it instead of adding one. */
export const STICKY_MARKER = '<!-- mcp-gate:report -->';
/** GitHub refuses comments over 65,536 characters; this leaves room for the parts that are always shown. */
const MARKDOWN_BUDGET = 60_000;

export const VERDICT_ICON = { Promote: '✅', Hold: '⚠️', Rollback: '⛔' } as const;
const STANDING_ICON = { fixed: '✅', new: '🆕', still: '⏳' } as const;
/** A group of changes longer than this is folded: a fix release's long tables come after what it fixed, closed. */
const OPEN_ROWS = 10;
/** The longest server text a cell shows (a tool name can be 70 KB); the report keeps it whole. */
const CELL_CHARACTERS = 300;
/** Text in markdown prose or a table cell: one line, clipped, and nothing GitHub would act on (see src/base/inert.ts). */
const clip = (text: string, max = CELL_CHARACTERS) => (text.length > max ? `${[...text.slice(0, max + 1)].slice(0, max).join('')}…` : text);
export const cell = (text: string): string => markdownText(clip(text));
/** A Fixed / New / Still there line names up to eight tools beside its counts: longer than a cell, still bounded. */
const standingLine = (text: string): string => markdownText(clip(text, 1_500));
const code = (text: string): string => markdownCode(clip(text));
const short = (hash: string | null) => (hash ? markdownCode(hash.replace(/^sha256:/, '').slice(0, 12)) : '-');

export interface MarkdownOptions {
  /** The PR label that approves a run (the action's `approve-label`), for the "how to approve" note. */
  approveLabel?: string;
  /** Where the full report can be found (e.g. the workflow artifact), for the "left out" note. */
  reportLink?: string;
  /** Character budget for the whole text. */
  budget?: number;
}

/**
 * Markdown for a PR comment or job summary. A pure function of the report. The fixed parts come
 * first; change rows fill what is left of the budget, and the rest is counted, not silently cut.
 */
export function renderMarkdown(report: Report, options: MarkdownOptions = {}): string {
  const { baseline: b, candidate: c, decision } = report;
  const head: string[] = [STICKY_MARKER];
  const reasons = decision.reasons.map((r) => markdownCode(r.code)).join(', ');
  const approved = decision.approval
    ? ` (approved by label ${markdownCode(decision.approval.label)}; the gate said **${decision.approval.verdictBefore}**)`
    : '';
  head.push(
    `## ${VERDICT_ICON[decision.verdict]} mcp-gate: **${decision.verdict}**${approved}: ${cell(b.profile)} → ${cell(c.profile)}${reasons ? ` — ${reasons}` : ''}`,
  );
  head.push('');
  // Fix first: what the release fixed, broke and left, before the reasons and any table of changes.
  const standing = standings(report);
  for (const s of standing) head.push(`- ${STANDING_ICON[s.kind]} ${standingLine(s.sentence)}`);
  if (standing.length) head.push('');
  if (decision.staleApproval) head.push('> [!WARNING]', `> ${cell(decision.staleApproval.message)}`, '');
  for (const r of decision.reasons) head.push(`- **${r.action}** ${markdownCode(r.code)} (${r.count}): ${cell(r.message)}`);
  if (!decision.reasons.length) head.push('- No finding asks for Hold or Rollback.');
  const basis = restsOn(report);
  if (basis) head.push(`- ${basis}`);
  for (const e of decision.exceptionsApplied)
    head.push(`- approved until ${cell(e.expires)}: ${markdownCode(e.code)}${e.tool ? ` on ${cell(e.tool)}` : ''} (${cell(e.reason)})`);
  head.push('');
  const s = report.diff.summary;
  head.push(
    `**Diff:** ${s.addedTools} added, ${s.removedTools} removed, ${s.schemaBreakages} schema breakages, ${s.readOnlyHintRegressions} read-only regressions, ${s.addedDestructiveTools} new destructive tools.`,
  );

  const fixed = [
    ...serverSection(b, c),
    ...(report.release ? ['', `Release: ${cell(report.release.summary)}`] : []),
    ...approveSection(report, options),
  ];
  if (report.policy?.error)
    fixed.unshift('', `> [!WARNING]\n> The gate's own config and datasets were not compared with the base: ${cell(report.policy.error)}`);
  for (const note of runNotes(report).reverse()) fixed.unshift('', `> [!NOTE]\n> ${cell(note)}`);
  if (options.reportLink)
    fixed.push('', `The full report (JSON, and an HTML page to open in a browser) is in [this run's artifacts](${options.reportLink}).`);
  // The whole body is budgeted. The head (verdict and reasons, one line per code, every cell
  // clipped) and the fixed parts are small; changes, then cases, roles and the audit share what
  // is left, in that order, each cut at a row with the rest counted.
  let left = (options.budget ?? MARKDOWN_BUDGET) - length(head) - length(fixed) - 400;
  const fit = (lines: string[]): string[] => {
    const kept = fitRows(lines, left, options.reportLink);
    left -= length(kept);
    return kept;
  };
  // Changes lead, but leave the other sections at least 40% of the room when they need it.
  const others = length([...caseSection(b, c), ...roleSection(report), ...auditSection(report)]);
  const changes = changeSection(report.diff.changes, left - Math.min(others, Math.floor(left * 0.4)), options.reportLink);
  left -= length(changes);
  const [cases, roles, audit] = [fit(caseSection(b, c)), fit(roleSection(report)), fit(auditSection(report))];
  return `${[...head, ...changes, ...cases, ...roles, ...audit, ...fixed].join('\n')}\n`;
}

const length = (lines: string[]) => lines.reduce((n, l) => n + l.length + 1, 0);

/**
 * A section within `budget` characters: whole if it fits, else its table rows (`| ...`) and list
 * items stop where the budget does, and one line says how many were left out and where they are.
 */
function fitRows(lines: string[], budget: number, reportLink?: string): string[] {
  if (length(lines) <= budget) return lines;
  const out: string[] = [];
  let used = 200;
  let dropped = 0;
  let seenRow = false;
  for (const line of lines) {
    const row = /^(\| |- )/.test(line) && !line.startsWith('|---') && !line.startsWith('| case |') && !line.startsWith('| role |');
    // Headings and table heads before the first row are always shown, so a section is never silently gone.
    if (!row && !seenRow) {
      out.push(line);
      continue;
    }
    seenRow ||= row;
    if (dropped || used + line.length + 1 > budget) {
      if (row) dropped++;
      continue;
    }
    used += line.length + 1;
    out.push(line);
  }
  if (dropped)
    out.push(
      '',
      `_${dropped} more row${dropped === 1 ? '' : 's'} left out to keep this under GitHub's comment limit; ${reportLink ? `see [the full report](${reportLink})` : 'see the saved JSON report'}._`,
    );
  return out;
}

/** Changes grouped by severity, breaking first and open; rows stop at the budget and the rest is counted. */
function changeSection(changes: Change[], budget: number, reportLink?: string): string[] {
  const out: string[] = [];
  let used = 0;
  let left = 0;
  for (const severity of ['breaking', 'dangerous', 'safe'] as const) {
    const group = changes.filter((x) => x.severity === severity);
    if (!group.length) continue;
    const rows: string[] = [];
    for (const x of group) {
      const row = `| ${markdownCode(x.code)} | ${cell(x.tool ?? '')} | ${code(x.path || '/')} | ${cell(x.message)} |`;
      if (used + row.length > budget) {
        left += 1;
        continue;
      }
      used += row.length + 1;
      rows.push(row);
    }
    if (!rows.length) continue;
    out.push(
      '',
      `<details${severity === 'breaking' && group.length <= OPEN_ROWS ? ' open' : ''}><summary>${group.length} ${severity} change${group.length === 1 ? '' : 's'}</summary>`,
      '',
    );
    out.push('| code | tool | path | change |', '|---|---|---|---|', ...rows, '', '</details>');
  }
  if (left)
    out.push(
      '',
      `_${left} more change${left === 1 ? '' : 's'} left out to keep this under GitHub's comment limit; ${reportLink ? `see [the full report](${reportLink})` : 'see the saved JSON report'}._`,
    );
  return out;
}

function caseSection(b: SideReport, c: SideReport): string[] {
  if (!b.cases.total && !c.cases.total) return [];
  const out = ['', '### Frozen role cases', ''];
  out.push(`Pass rate (skipped cases neither pass nor fail): baseline ${passRateText(b.cases)}, candidate ${passRateText(c.cases)}.`, '');
  out.push('| case | role | baseline | candidate | candidate: why it failed or was skipped |', '|---|---|---|---|---|');
  const baseline = new Map(b.caseResults.map((r) => [r.id, r]));
  for (const r of c.caseResults) {
    const before = baseline.get(r.id)?.status ?? '-';
    const why = r.status === 'skipped' ? (r.probes.find((p) => p.reason)?.reason ?? '') : r.failures.map((f) => f.message).join('; ');
    const status = r.status !== 'failed' ? r.status : r.regression === false ? 'failed (pre-existing)' : '**failed**';
    out.push(`| ${cell(r.id)} | ${cell(r.role)} | ${before} | ${status} | ${cell(why)} |`);
  }
  return out;
}

/** Per role, shown under the same rule as the text: more than one role, or a scoped one. */
function roleSection(report: Report): string[] {
  const roles = report.roles ?? [];
  if (!roles.length || (roles.length === 1 && !roles[0]!.allowedTools && roles[0]!.maxDestructiveTools === null)) return [];
  const out = ['', '### Roles', '', '| role | candidate cases passed | outside its allowlist | verdict |', '|---|---|---|---|'];
  for (const role of roles) {
    const outside = role.findings
      .filter((f) => f.code === 'role-surface-leak')
      .map((f) => `${cell(f.tool!)}${f.regression === false ? ' (baseline too)' : ''}`)
      .join(', ');
    out.push(
      `| ${cell(role.name)} | ${role.cases.candidate.passed}/${role.cases.candidate.total} | ${outside || '-'} | ${VERDICT_ICON[role.verdict]} ${role.verdict} |`,
    );
  }
  return out;
}

/** The new findings themselves (what was fixed, new and still there is counted at the top). */
function auditSection(report: Report): string[] {
  const audit = auditHighlights(report);
  if (!audit.regressions && !audit.preexisting) return [];
  const out = ['', '### What the model sees', ''];
  for (const f of audit.shown) out.push(`- ${markdownCode(f.code)}: ${cell(f.message)}`);
  out.push(`- ${audit.regressions} new on the candidate, ${audit.preexisting} shared with the baseline (reported, not judged).`);
  return out;
}

function serverSection(b: SideReport, c: SideReport): string[] {
  const version = (s: SideReport) =>
    s.server.name ? `${s.server.name} ${s.server.version ?? ''}`.trim() : s.available ? '?' : 'unavailable';
  return [
    '',
    '| | baseline | candidate |',
    '|---|---|---|',
    `| profile | ${cell(b.profile)} (${b.transport}) | ${cell(c.profile)} (${c.transport}) |`,
    `| server | ${cell(version(b))} | ${cell(version(c))} |`,
    `| protocol | ${cell(protocolLabel(b.server) || '-')} | ${cell(protocolLabel(c.server) || '-')} |`,
    `| tools | ${b.toolCount} | ${c.available ? c.toolCount : 'unavailable'} |`,
    ...featureRows(b, c).map(([label, was, now]) => `| ${label} | ${was} | ${now} |`),
    `| contract | ${short(b.contractHash)} | ${short(c.contractHash)} |`,
    ...(b.retried || c.retried ? [`| started | ${started(b)} | ${started(c)} |`] : []),
    ...(b.fallback ? [`| fallback | ${cell(fallbackLine(b.fallback))} | - |`] : []),
  ];
}

/** How a side started, when either was started twice: the report says so beside the verdict. */
const started = (s: SideReport): string =>
  s.retried
    ? cell(
        `${s.available ? (s.retried.alone ? 'on the third try, alone' : 'on the second try') : s.retried.alone ? 'three times, the last alone, failing each time' : 'twice, failing both times'}; the first start failed (${s.retried.phase}: ${s.retried.message})`,
      )
    : 'first try';

function approveSection(report: Report, options: MarkdownOptions): string[] {
  if (report.decision.verdict === 'Promote' && !report.decision.approval) return [];
  const out = ['', '<details><summary>How to approve</summary>', ''];
  if (report.decision.approval)
    out.push(
      `This run was approved by the ${markdownCode(report.decision.approval.label)} label. The changes above are still listed; remove the label to gate again.`,
    );
  else {
    if (options.approveLabel)
      out.push(
        `- For this pull request only: add the ${markdownCode(options.approveLabel)} label. It approves the findings present when it is given (by someone who may approve); this comment is rendered again on the label's event.`,
      );
    const policy = report.decision.reasons.some((r) => r.code === 'gate-policy-changed');
    // An exception is an edit to the gate config, itself policy: never advised for the policy Hold.
    if (policy)
      out.push(
        `- \`gate-policy-changed\`: ${(report.policy?.files ?? []).map((f) => `${code(f.file)} (${cell(f.change)})`).join(', ') || "the gate's policy files"} changed. It clears when the policy's owners approve the run${options.approveLabel ? ' with the label' : ''}, or when the policy change lands on the base branch on its own first. An exception would edit the policy again.`,
      );
    const first = report.decision.reasons.find((r) => r.code !== 'gate-policy-changed');
    if (first) {
      const change = report.diff.changes.find((x) => x.code === first.code);
      out.push(
        '- For a known change, until a date: add an exception to `promotion.exceptions` in the gate config, e.g.' +
          (policy || report.policy
            ? ' (in a pull request that is itself a policy change, `gate-policy-changed`, which its owners approve)'
            : ''),
        '',
      );
      out.push('```yaml', 'promotion:', '  exceptions:');
      // Inside the fence, inert keeps each value on its line: a newline would close the fence.
      out.push(`    - code: ${inert(first.code)}`);
      // JSON is a YAML double-quoted string; a backtick as \u0060 cannot close the code fence.
      if (change?.tool) out.push(`      tool: ${JSON.stringify(change.tool).replace(/`/g, '\\u0060')}`);
      if (change) out.push(`      fingerprint: ${inert(change.fingerprint)}`);
      out.push('      reason: why this is safe to ship', `      expires: ${plusDays(report.startedAt, 30)}`, '```');
      out.push(
        '',
        'An expired exception holds the gate again (`exception-expired`), and one that matches nothing holds it too (`exception-stale`).',
      );
    }
  }
  out.push('', '</details>');
  return out;
}

const plusDays = (iso: string, days: number) => new Date(Date.parse(iso) + days * 86_400_000).toISOString().slice(0, 10);
