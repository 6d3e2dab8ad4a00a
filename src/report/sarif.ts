import { inert } from '../base/inert.js';
import { CODES, type JudgedCode, type Severity } from '../findings/codes.js';
import { fallbackLine } from './side.js';
import type { Source } from '../findings/types.js';
import type { Report } from './types.js';

type Level = 'error' | 'warning' | 'note' | 'none';
const LEVEL: Record<Severity, Level> = { breaking: 'error', dangerous: 'warning', safe: 'note' };
const INFORMATION_URI = 'https://github.com/mcp-gate/mcp-gate';

interface Result {
  ruleId: JudgedCode;
  kind?: 'pass';
  level: Level;
  message: { text: string };
  locations: object[];
  partialFingerprints: Record<string, string>;
}

/**
 * SARIF 2.1.0, for GitHub code scanning. Results are the changes that matter (breaking and
 * dangerous), the candidate's failed cases (a pre-existing one as a note), the candidate's audit regressions, and the
 * baseline findings the candidate fixed (kind "pass"). Each is placed where the report says it
 * comes from (`source`: a case's line in its dataset, a change's in a snapshot), else at the file it
 * belongs to, line 1: the dataset for a case, the gate config for the rest (a live contract has no
 * source line of its own), with the tool as a logical location.
 */
export function renderSarif(report: Report): string {
  const results = sarifResults(report);
  const used = [...new Set(results.map((r) => r.ruleId))];
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: report.generatedBy.name,
            version: report.generatedBy.version,
            informationUri: INFORMATION_URI,
            rules: used.map(ruleOf),
          },
        },
        automationDetails: { id: `mcp-gate/${report.baseline.profile}-to-${report.candidate.profile}/` },
        results: results.map((r) => ({ ...r, ruleIndex: used.indexOf(r.ruleId) })),
        properties: { verdict: report.decision.verdict, reasons: report.decision.reasons.map((r) => r.code) },
      },
    ],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}

/** Where a result points: a file and a line (line 1 when the report has none), and the tool as a logical location. */
type Where = (uri: string, tool: string | null, source?: Source) => object;

/** The results, in order: changes, failed cases, audit regressions, a baseline fallback, fixed findings. */
function sarifResults(report: Report): Result[] {
  const config = report.config?.file ?? 'gate.config.yaml';
  const where: Where = (uri, tool, source) => ({
    physicalLocation: { artifactLocation: { uri: source?.file ?? uri }, region: { startLine: source?.line ?? 1 } },
    ...(tool && { logicalLocations: [{ name: tool, kind: 'function', fullyQualifiedName: `${report.candidate.profile}/${tool}` }] }),
  });
  const changes: Result[] = report.diff.changes
    .filter((x) => x.severity !== 'safe')
    .map((x) => ({
      ruleId: x.code,
      level: LEVEL[x.severity],
      message: { text: inert(x.message) },
      locations: [where(config, x.tool, x.source)],
      partialFingerprints: { 'mcpGateChange/v1': x.fingerprint },
    }));
  return [...changes, ...caseResults(report, where), ...auditResults(report, (tool, source) => where(config, tool, source))];
}

/** The candidate's failed cases, at their dataset; one that failed the same way on the baseline is a note. */
function caseResults(report: Report, where: Where): Result[] {
  return report.candidate.caseResults
    .filter((r) => r.status === 'failed')
    .map((r) => {
      const preexisting = r.regression === false;
      return {
        ruleId: preexisting ? 'case-already-failing' : 'case-broken',
        level: preexisting ? 'note' : 'error',
        message: {
          text: inert(
            `Case ${r.id} (${r.role}) fails on the candidate${preexisting ? ' and on the baseline, the same way' : ''}: ${r.failures.map((f) => f.message).join('; ')}`,
          ),
        },
        locations: [where(r.dataset, r.failures[0]?.tool ?? null, r.source)],
        partialFingerprints: { 'mcpGateCase/v1': `${r.dataset}#${r.id}` },
      };
    });
}

/** At the config: the candidate's audit regressions, a baseline that was stood in for, and the findings the candidate fixed. */
function auditResults(report: Report, atTool: (tool: string | null, source?: Source) => object): Result[] {
  const results: Result[] = report.audit.findings
    .filter((f) => f.side === 'candidate' && f.regression)
    .map((f) => ({
      ruleId: f.code,
      level: LEVEL[f.severity],
      message: { text: inert(f.message) },
      locations: [atTool(f.tool, f.source)],
      partialFingerprints: { 'mcpGateAudit/v1': `${f.code}|${f.tool ?? ''}|${f.caseId ?? ''}` },
    }));
  // A baseline that could not start and was stood in for: said even when a rule ignores baseline-fallback.
  if (report.baseline.fallback) {
    results.push({
      ruleId: 'baseline-fallback',
      level: 'warning',
      message: { text: inert(fallbackLine(report.baseline.fallback)) },
      locations: [atTool(null)],
      partialFingerprints: { 'mcpGateRun/v1': `baseline-fallback|${report.baseline.profile}` },
    });
  }
  // A finding the candidate fixed is a result of kind "pass" (SARIF 2.1.0 §3.27.9): shown, not alerted.
  for (const f of report.audit.findings) {
    if (f.side !== 'baseline' || f.direction !== 'fixed') continue;
    results.push({
      ruleId: f.code,
      kind: 'pass',
      level: 'none',
      message: { text: `Fixed in this release: ${inert(f.message)}` },
      locations: [atTool(f.tool)],
      partialFingerprints: { 'mcpGateAudit/v1': `${f.code}|${f.tool ?? ''}|${f.caseId ?? ''}` },
    });
  }
  return results;
}

/** A rule for each code used: its title, and its default action as the level. */
function ruleOf(code: JudgedCode) {
  return {
    id: code,
    name: code.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()).replace(/^\w/, (c) => c.toUpperCase()),
    shortDescription: { text: CODES[code].title },
    helpUri: `${INFORMATION_URI}#finding-codes`,
    defaultConfiguration: { level: CODES[code].action === 'rollback' ? 'error' : CODES[code].action === 'hold' ? 'warning' : 'note' },
    properties: { action: CODES[code].action, area: CODES[code].area },
  };
}
