import { standings } from '../audit-highlights.js';
import type { CaseResult } from '../../cases/types.js';
import type { ContractTool, Features } from '../../contract/types.js';
import { CODES, type Severity } from '../../findings/codes.js';
import type { Change, Finding } from '../../findings/types.js';
import type { Report, SideReport } from '../types.js';
import { naturalCompare } from '../natural-order.js';
import { runNotes } from '../run-notes.js';
import { restsOn } from '../rests-on.js';

/** How a tool differs between the two sides, as the surface view marks it. */
type ToolStatus = 'added' | 'removed' | 'renamed' | 'changed' | 'unchanged' | 'not-compared';

/** What the page shows of a tool: the raw annotations, hash and unmodelled fields stay in the JSON report. */
export type ViewTool = Pick<
  ContractTool,
  'name' | 'title' | 'description' | 'inputSchema' | 'outputSchema' | 'effectiveAnnotations' | 'defaultedHints'
>;

const viewTool = (t: ContractTool): ViewTool => ({
  name: t.name,
  title: t.title ?? null,
  description: t.description ?? null,
  inputSchema: t.inputSchema ?? null,
  outputSchema: t.outputSchema ?? null,
  effectiveAnnotations: t.effectiveAnnotations,
  defaultedHints: t.defaultedHints ?? [],
});

/** One line of the side-by-side surface: the same tool on both sides, aligned by name. */
export interface ToolRow {
  /** The baseline name, or the candidate name for an added tool: unique per row. */
  key: string;
  status: ToolStatus;
  baseline: ViewTool | null;
  candidate: ViewTool | null;
  /** Every change about this tool (for a rename, about either name), in report order. */
  changes: Change[];
  /** The worst severity among the changes, or null when nothing changed. */
  severity: Severity | null;
}

interface CaseRow {
  id: string;
  role: string | null;
  baseline: CaseResult | null;
  candidate: CaseResult | null;
}

export type SideView = Omit<SideReport, 'tools' | 'caseResults' | 'features'>;

/** One line of the features beside the tools, both sides aligned by key (a name, a URI, a template, a capability). */
export interface FeatureRow {
  kind: 'capability' | 'prompt' | 'template' | 'resource';
  key: string;
  /** What the side lists under the key, in one line; null when it does not list it. */
  baseline: string | null;
  candidate: string | null;
  status: 'added' | 'removed' | 'changed' | 'unchanged';
}

/** Everything the page shows, computed once on the Node side; the page only lays it out. */
export interface ReportView {
  generatedBy: Report['generatedBy'];
  startedAt: string;
  finishedAt: string;
  config: Report['config'] | null;
  decision: Report['decision'];
  summary: Report['diff']['summary'] & { renamedTools: number };
  /** False when a side could not be read, so the contracts were not compared. */
  compared: boolean;
  severityCounts: Record<Severity, number>;
  sides: { baseline: SideView; candidate: SideView };
  /** How the run went, beside its findings (report/run-notes.ts); absent in views of older builds. */
  notes?: string[];
  /** What a Promote or a Hold rests on when no case ran (report/rests-on.ts); absent in views of older builds. */
  restsOn?: string | null;
  rows: ToolRow[];
  /** Capabilities, prompts, templates and resources side by side; null when neither side read them. */
  features: FeatureRow[] | null;
  /** Changes that belong to no listed tool: server instructions, protocol version, features. */
  serverChanges: Change[];
  cases: CaseRow[];
  /** Candidate regressions first (those that move the verdict before those that do not), then the rest. */
  findings: Finding[];
  /** "Fixed in this release: …", "New in this release: …", "Still there: …", the empty ones left out (all of them in an older report). */
  standings: ReturnType<typeof standings>;
  cost: Report['audit']['cost'] | null;
}

const RANK: Record<Severity, number> = { breaking: 0, dangerous: 1, safe: 2 };

const worstSeverity = (changes: { severity: Severity }[]): Severity | null =>
  changes.reduce<Severity | null>((worst, c) => (worst === null || RANK[c.severity] < RANK[worst] ? c.severity : worst), null);

/** Aligns the two tool lists by name; a rename joins the old and the new name in one row. */
export function toolRows(report: Report): ToolRow[] {
  // A side that could not be read lists no tools: its absence says nothing about the other side's.
  const compared = report.baseline.available && report.candidate.available;
  const before = new Map(report.baseline.tools.map((t) => [t.name, t]));
  const after = new Map(report.candidate.tools.map((t) => [t.name, t]));
  const renamedTo = new Map<string, string>();
  for (const c of report.diff.changes) {
    if (c.code === 'tool-renamed' && c.tool && typeof c.after === 'string' && before.has(c.tool) && after.has(c.after))
      renamedTo.set(c.tool, c.after);
  }
  const successors = new Set(renamedTo.values());
  const byTool = new Map<string, Change[]>();
  for (const c of report.diff.changes) if (c.tool !== null) byTool.set(c.tool, [...(byTool.get(c.tool) ?? []), c]);

  const rows: ToolRow[] = [];
  for (const name of [...new Set([...before.keys(), ...after.keys()])].sort(naturalCompare)) {
    if (successors.has(name) && !before.has(name)) continue; // shown on its predecessor's row
    const successor = renamedTo.get(name);
    const candidate = successor ? after.get(successor)! : (after.get(name) ?? null);
    const baseline = before.get(name) ?? null;
    const changes = [...(byTool.get(name) ?? []), ...(successor ? (byTool.get(successor) ?? []) : [])];
    const status: ToolStatus = !compared
      ? 'not-compared'
      : successor
        ? 'renamed'
        : !baseline
          ? 'added'
          : !candidate
            ? 'removed'
            : changes.length || baseline.hash !== candidate.hash
              ? 'changed'
              : 'unchanged';
    rows.push({
      key: name,
      status,
      baseline: baseline && viewTool(baseline),
      candidate: candidate && viewTool(candidate),
      changes,
      severity: worstSeverity(changes),
    });
  }
  return rows;
}

/** Case results joined by id, in the order the baseline ran them (then any the candidate alone has). */
function caseRows(report: Report): CaseRow[] {
  const rows = new Map<string, CaseRow>();
  for (const side of ['baseline', 'candidate'] as const) {
    for (const result of report[side].caseResults) {
      const row = rows.get(result.id) ?? { id: result.id, role: result.role ?? null, baseline: null, candidate: null };
      row[side] = result;
      rows.set(result.id, row);
    }
  }
  return [...rows.values()];
}

/** Regressions first, those with a verdict-moving default before report-only ones; then the candidate, then the baseline. */
export function orderedFindings(findings: Finding[]): Finding[] {
  const weight = (f: Finding) =>
    (f.regression ? 0 : 4) + ((CODES[f.code]?.action ?? 'ignore') === 'ignore' ? 1 : 0) + (f.side === 'candidate' ? 0 : 2);
  return findings
    .map((f, i) => ({ f, i }))
    .sort((a, b) => weight(a.f) - weight(b.f) || a.i - b.i)
    .map(({ f }) => f);
}

const sideView = ({ tools: _tools, caseResults: _cases, features: _features, ...rest }: SideReport): SideView => rest;

/** Each feature of one side, keyed, in one line: what the page shows of it. */
function featureLines(features: Features | undefined): Map<string, { kind: FeatureRow['kind']; key: string; line: string }> {
  const lines = new Map<string, { kind: FeatureRow['kind']; key: string; line: string }>();
  if (!features) return lines;
  const add = (kind: FeatureRow['kind'], key: string, line: string) => lines.set(`${kind}\u0000${key}`, { kind, key, line });
  for (const [name, value] of Object.entries(features.capabilities)) {
    const subs = value && typeof value === 'object' ? Object.keys(value).filter((k) => (value as Record<string, unknown>)[k]) : [];
    add('capability', name, subs.length ? `${name} (${subs.join(', ')})` : name);
  }
  for (const p of features.prompts ?? [])
    add('prompt', p.name, `${p.name}(${p.arguments.map((a) => (a.required ? `${a.name}*` : a.name)).join(', ')})`);
  for (const t of features.resourceTemplates ?? [])
    add('template', t.uriTemplate, t.mimeType ? `${t.uriTemplate} (${t.mimeType})` : t.uriTemplate);
  for (const r of features.resources ?? []) add('resource', r.uri, r.mimeType ? `${r.uri} (${r.mimeType})` : r.uri);
  return lines;
}

const KIND_ORDER: FeatureRow['kind'][] = ['capability', 'prompt', 'template', 'resource'];

/** The features of both sides aligned by kind and key; a side that did not read them (a tools-only snapshot) is left out of the status. */
export function featureRows(report: Report): FeatureRow[] | null {
  const [b, c] = [report.baseline.features, report.candidate.features];
  if (!b && !c) return null;
  const before = featureLines(b);
  const after = featureLines(c);
  return [...new Set([...before.keys(), ...after.keys()])]
    .map((id) => {
      const was = before.get(id) ?? null;
      const now = after.get(id) ?? null;
      const { kind, key } = (was ?? now)!;
      const status: FeatureRow['status'] = !was ? 'added' : !now ? 'removed' : was.line === now.line ? 'unchanged' : 'changed';
      return { kind, key, baseline: was?.line ?? null, candidate: now?.line ?? null, status: b && c ? status : 'unchanged' };
    })
    .sort((x, y) => KIND_ORDER.indexOf(x.kind) - KIND_ORDER.indexOf(y.kind) || naturalCompare(x.key, y.key));
}

export function reportView(report: Report): ReportView {
  const rows = toolRows(report);
  const shown = new Set(rows.flatMap((r) => r.changes));
  const changes = report.diff.changes;
  return {
    generatedBy: report.generatedBy,
    startedAt: report.startedAt,
    finishedAt: report.finishedAt,
    config: report.config ?? null,
    decision: report.decision,
    summary: { ...report.diff.summary, renamedTools: rows.filter((r) => r.status === 'renamed').length },
    compared: report.baseline.available && report.candidate.available,
    severityCounts: {
      breaking: changes.filter((c) => c.severity === 'breaking').length,
      dangerous: changes.filter((c) => c.severity === 'dangerous').length,
      safe: changes.filter((c) => c.severity === 'safe').length,
    },
    sides: { baseline: sideView(report.baseline), candidate: sideView(report.candidate) },
    notes: runNotes(report),
    restsOn: restsOn(report),
    rows,
    features: featureRows(report),
    serverChanges: changes.filter((c) => !shown.has(c)),
    cases: caseRows(report),
    findings: orderedFindings(report.audit.findings),
    standings: standings(report),
    cost: report.audit.cost ?? null,
  };
}
