import { protocolLabel } from './protocol-label.js';
import { crashExcerpt } from '../base/error-text.js';
import { inert, inertLines } from '../base/inert.js';
import { auditHighlights, standings } from './audit-highlights.js';
import { featureRows } from './feature-rows.js';
import { passRateText } from './case-tally.js';
import { fallbackLine } from './side.js';
import { runNotes } from './run-notes.js';
import type { Report, SideReport } from './types.js';
import { restsOn } from './rests-on.js';

export interface TextStyle {
  bold(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  green(text: string): string;
  dim(text: string): string;
}

export const plain: TextStyle = { bold: (t) => t, red: (t) => t, yellow: (t) => t, green: (t) => t, dim: (t) => t };

const ansi = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
/** Terminal colours, for a TTY without NO_COLOR. */
export const colours: TextStyle = { bold: ansi(1, 22), red: ansi(31, 39), yellow: ansi(33, 39), green: ansi(32, 39), dim: ansi(2, 22) };

/** The text summary: what a person reads in a terminal or a CI log. A pure function of the report. */
export function renderText(report: Report, style: TextStyle = plain, reportPath: string | null = null): string {
  const { baseline: b, candidate: c } = report;
  const lines: string[] = [...headSection(report, style), ...diffSection(report, style)];
  const failures = [...sideFailures('baseline', b), ...sideFailures('candidate', c)];
  if (failures.length) lines.push('', style.bold('Case failures'), ...failures);
  // Skipped is not failed: a snapshot baseline or a tool the gate may not call is listed apart, dimmed.
  const skipped = [...sideSkips('baseline', b), ...sideSkips('candidate', c)];
  if (skipped.length) lines.push('', style.bold('Cases skipped (not run, not failed)'), ...skipped.map((line) => style.dim(line)));
  lines.push(...auditSection(report, style));
  for (const side of [b, c]) lines.push(...sideTrouble(side === b ? 'Baseline' : 'Candidate', side, style));
  for (const note of runNotes(report)) lines.push('', style.yellow(`Note: ${inert(note)}`));
  lines.push(...roleSection(report, style));
  if (report.policy?.error) lines.push('', style.yellow(`Policy not checked: ${inert(report.policy.error)}`));
  lines.push('', ...decisionSection(report, style));
  if (reportPath) lines.push('', `Report: ${reportPath}`);
  return `${lines.join('\n')}\n`;
}

/** The two sides named, and their counts side by side. */
function headSection(report: Report, style: TextStyle): string[] {
  const { baseline: b, candidate: c } = report;
  const protocol = (s: SideReport) => (s.server.protocolVersion ? `, protocol ${inert(protocolLabel(s.server))}` : '');
  const server = (s: SideReport) =>
    s.server.name ? inert(`${s.server.name} ${s.server.version ?? ''}`.trim()) + protocol(s) : s.available ? 'unknown' : 'unavailable';
  // Fix first: the verdict, then what the release fixed, broke and left, before any detail.
  const lines = [`${style.bold('mcp-gate contract promotion:')} ${verdictColour(report, style)(style.bold(report.decision.verdict))}`];
  const colour = { fixed: style.green, new: style.yellow, still: (t: string) => t };
  for (const s of standings(report)) lines.push(`  ${colour[s.kind](inert(s.sentence))}`);
  lines.push('');
  if (report.server) lines.push(`  server     ${inert(report.server)} (one server of a bundle)`);
  lines.push(`  baseline   ${inert(b.profile)} (${b.transport}, ${server(b)})`);
  lines.push(`  candidate  ${inert(c.profile)} (${c.transport}, ${server(c)})`);
  lines.push(`  cases      ${b.cases.total} from ${inert(report.config.datasets.join(', ')) || 'no datasets'}`);
  lines.push('');
  const rows = [
    ['', 'baseline', 'candidate'],
    ['tools', String(b.toolCount), c.available ? String(c.toolCount) : 'unavailable'],
    ...featureRows(b, c),
    ['pass rate', passRateText(b.cases), passRateText(c.cases)],
    ['cases passed', String(b.cases.passed), String(c.cases.passed)],
    ['cases failed', String(b.cases.failed), String(c.cases.failed)],
    ['cases skipped', String(b.cases.skipped), String(c.cases.skipped)],
  ];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const row of rows) lines.push(`  ${row.map((cell, i) => cell.padEnd(widths[i]!)).join('   ')}`.trimEnd());
  lines.push('');
  return lines;
}

/** The diff's counts, then its first 12 changes that are not safe. */
function diffSection({ diff, release }: Report, style: TextStyle): string[] {
  const s = diff.summary;
  const lines = [style.bold('Diff')];
  lines.push(
    `  added tools ${s.addedTools}, removed tools ${s.removedTools}, schema breakages ${s.schemaBreakages}, read-only hint regressions ${s.readOnlyHintRegressions}, added destructive tools ${s.addedDestructiveTools}`,
  );
  lines.push(`  changes: ${s.breaking} breaking, ${s.dangerous} dangerous, ${s.safe} safe`);
  if (release) lines.push(`  release: ${inert(release.summary)}`);
  for (const change of diff.changes.filter((x) => x.severity !== 'safe').slice(0, 12)) {
    lines.push(
      `  ${change.severity === 'breaking' ? style.red('breaking ') : style.yellow('dangerous')} ${change.code}: ${inert(change.message)}`,
    );
  }
  const hidden = diff.changes.filter((x) => x.severity !== 'safe').length - 12;
  if (hidden > 0) lines.push(style.dim(`  ... ${hidden} more in the report`));
  return lines;
}

/** What the model sees: the candidate's new findings (counted at the top with the fixed ones), and the tool definitions' cost. */
function auditSection(report: Report, style: TextStyle): string[] {
  const lines: string[] = [];
  const audit = auditHighlights(report);
  if (audit.regressions || audit.preexisting) {
    lines.push('', style.bold('What the model sees'));
    for (const f of audit.shown) lines.push(`  ${f.code}: ${inert(f.message)}`);
    if (audit.regressions > audit.shown.length)
      lines.push(style.dim(`  ... ${audit.regressions - audit.shown.length} more regressions in the report`));
    lines.push(
      style.dim(`  ${audit.regressions} new on the candidate, ${audit.preexisting} shared with the baseline (reported, not judged)`),
    );
  }
  const cost = report.audit.cost;
  if (cost.baseline && cost.candidate)
    lines.push(
      style.dim(
        `  tool definitions: about ${cost.baseline.totalTokens} -> ${cost.candidate.totalTokens} tokens (${cost.candidate.method})`,
      ),
    );
  return lines;
}

/** A side that started only on its second try, or not at all: why, its fallback, and its crash. */
function sideTrouble(name: string, side: SideReport, style: TextStyle): string[] {
  const lines: string[] = [];
  const first = side.retried ? `${side.retried.phase}: ${inert(side.retried.message)}` : '';
  const tries = side.retried?.alone ? 'on the third try, alone (the other side stopped)' : 'on the second try';
  if (side.retried && !side.error) lines.push('', style.yellow(`${name} started ${tries}; the first start failed (${first})`));
  if (side.error) {
    lines.push('', style.red(`${name} unavailable (${side.error.phase}): ${inert(side.error.message)}`));
    const times = side.retried?.alone ? 'three times, the last alone (the other side stopped)' : 'twice';
    if (side.retried) lines.push(style.red(`  started ${times}; the first start failed too (${first})`));
    if (side.fallback) lines.push(style.yellow(`  ${inert(fallbackLine(side.fallback))}`));
  }
  // The crash's first error line, then its last lines: a stack's end alone hides the reason.
  if (side.error && side.stderr.tail.trim()) lines.push(style.dim(indent(inertLines(crashExcerpt(side.stderr.tail, 5).join('\n')))));
  return lines;
}

/** The verdict, any approval, and each reason behind it. */
const verdictColour = ({ decision }: Report, style: TextStyle) =>
  decision.verdict === 'Promote' ? style.green : decision.verdict === 'Hold' ? style.yellow : style.red;

function decisionSection(report: Report, style: TextStyle): string[] {
  const { decision } = report;
  const colourOf = verdictColour(report, style);
  const approval = decision.approval
    ? ` (approved by label "${inert(decision.approval.label)}"; the gate said ${decision.approval.verdictBefore})`
    : '';
  const lines = [`${style.bold('Decision:')} ${colourOf(style.bold(decision.verdict))}${approval}`];
  if (decision.staleApproval) lines.push(style.yellow(`  ${inert(decision.staleApproval.message)}`));
  for (const reason of decision.reasons) lines.push(`  - [${reason.action}] ${reason.code}: ${inert(reason.message)}`);
  if (!decision.reasons.length) lines.push('  - no finding asks for Hold or Rollback');
  const basis = restsOn(report);
  if (basis) lines.push(style.dim(`  ${basis}`));
  for (const e of decision.exceptionsApplied)
    lines.push(style.dim(`  approved: ${e.code}${e.tool ? ` on ${inert(e.tool)}` : ''} until ${e.expires} (${inert(e.reason)})`));
  return lines;
}

function sideFailures(label: string, side: SideReport): string[] {
  const lines: string[] = [];
  for (const result of side.caseResults) {
    if (result.status !== 'failed') continue;
    const before = result.regression === false ? ' (fails on the baseline too: pre-existing, not judged)' : '';
    lines.push(
      `  ${label} ${inert(result.id)}${before}: ${result.failures
        .slice(0, 4)
        .map((f) => inert(f.message))
        .join('; ')}${result.failures.length > 4 ? `; +${result.failures.length - 4} more` : ''}`,
    );
  }
  return lines;
}

function sideSkips(label: string, side: SideReport): string[] {
  return side.caseResults
    .filter((result) => result.status === 'skipped')
    .map((result) => {
      const why = result.probes.find((p) => p.status === 'skipped')?.reason ?? (side.available ? 'probes skipped' : 'side unavailable');
      return `  ${label} ${inert(result.id)}: ${inert(why)}`;
    });
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');

/**
 * Per role: candidate cases, what the allowlist leaves out, and the verdict the role's own signals
 * ask for. Shown when there is more than one role or a scoped one; a single plain role adds nothing.
 */
function roleSection(report: Report, style: TextStyle): string[] {
  const roles = report.roles ?? [];
  if (!roles.length || (roles.length === 1 && !roles[0]!.allowedTools && roles[0]!.maxDestructiveTools === null)) return [];
  const colour = (v: string) => (v === 'Promote' ? style.green(v) : v === 'Hold' ? style.yellow(v) : style.red(v));
  const rows = [['role', 'cases passed', 'allowed tools', 'outside allowlist', 'verdict']];
  for (const role of roles) {
    const leaks = role.findings.filter((f) => f.code === 'role-surface-leak');
    const judged = leaks.filter((f) => f.regression !== false).map((f) => f.tool!);
    const old = leaks.filter((f) => f.regression === false).map((f) => `${f.tool!} (baseline too)`);
    const surface = role.surface
      ? role.allowedTools
        ? `${role.surface.allowed.length} of ${role.surface.allowed.length + role.surface.outside.length}`
        : 'all'
      : 'n/a';
    rows.push([
      inert(role.name),
      `${role.cases.candidate.passed}/${role.cases.candidate.total}`,
      surface,
      inert([...judged, ...old].join(', ')) || '-',
      role.verdict,
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const lines = ['', style.bold('Roles')];
  rows.forEach((row, n) =>
    lines.push(`  ${row.map((cell, i) => (n && i === 4 ? colour(cell) : cell.padEnd(widths[i]!))).join('   ')}`.trimEnd()),
  );
  for (const role of roles)
    for (const f of role.findings) if (f.code === 'role-destructive-limit') lines.push(`  ${f.code}: ${inert(f.message)}`);
  return lines;
}
