import { inert } from '../inert.js';
import { CODES, type Code, type Severity } from '../findings/codes.js';
import { fallbackLine } from './side.js';
import type { Report } from './types.js';

type Level = 'error' | 'warning' | 'note' | 'none';
const LEVEL: Record<Severity, Level> = { breaking: 'error', dangerous: 'warning', safe: 'note' };
const INFORMATION_URI = 'https://github.com/mcp-gate/mcp-gate';

interface Result {
  ruleId: Code;
  kind?: 'pass';
  level: Level;
  message: { text: string };
  locations: object[];
  partialFingerprints: Record<string, string>;
}

/**
 * SARIF 2.1.0, for GitHub code scanning. Results are the changes that matter (breaking and
 * dangerous), the candidate's failed cases (a pre-existing one as a note), the candidate's audit regressions, and the
 * baseline findings the candidate fixed (kind "pass"). Each is placed
 * at the file it belongs to: the dataset for a case, the gate config for the rest (a contract has
 * no source line of its own), with the tool as a logical location.
 */
export function renderSarif(report: Report): string {
  const config = report.config?.file ?? 'gate.config.yaml';
  const where = (uri: string, tool: string | null) => ({
    physicalLocation: { artifactLocation: { uri }, region: { startLine: 1 } },
    ...(tool && { logicalLocations: [{ name: tool, kind: 'function', fullyQualifiedName: `${report.candidate.profile}/${tool}` }] }),
  });
  const results: Result[] = [];
  for (const x of report.diff.changes) {
    if (x.severity === 'safe') continue;
    results.push({
      ruleId: x.code,
      level: LEVEL[x.severity],
      message: { text: inert(x.message) },
      locations: [where(config, x.tool)],
      partialFingerprints: { 'mcpGateChange/v1': x.fingerprint },
    });
  }
  for (const r of report.candidate.caseResults) {
    if (r.status !== 'failed') continue;
    const preexisting = r.regression === false;
    results.push({
      ruleId: preexisting ? 'case-already-failing' : 'case-broken',
      level: preexisting ? 'note' : 'error',
      message: {
        text: inert(
          `Case ${r.id} (${r.role}) fails on the candidate${preexisting ? ' and on the baseline, the same way' : ''}: ${r.failures.map((f) => f.message).join('; ')}`,
        ),
      },
      locations: [where(r.dataset, r.failures[0]?.tool ?? null)],
      partialFingerprints: { 'mcpGateCase/v1': `${r.dataset}#${r.id}` },
    });
  }
  for (const f of report.audit.findings) {
    if (f.side !== 'candidate' || !f.regression) continue;
    results.push({
      ruleId: f.code,
      level: LEVEL[f.severity],
      message: { text: inert(f.message) },
      locations: [where(config, f.tool)],
      partialFingerprints: { 'mcpGateAudit/v1': `${f.code}|${f.tool ?? ''}|${f.caseId ?? ''}` },
    });
  }
  // A baseline that could not start and was stood in for: said even when a rule ignores baseline-fallback.
  if (report.baseline.fallback) {
    results.push({
      ruleId: 'baseline-fallback',
      level: 'warning',
      message: { text: inert(fallbackLine(report.baseline.fallback)) },
      locations: [where(config, null)],
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
      locations: [where(config, f.tool)],
      partialFingerprints: { 'mcpGateAudit/v1': `${f.code}|${f.tool ?? ''}|${f.caseId ?? ''}` },
    });
  }
  const used = [...new Set(results.map((r) => r.ruleId))];
  const rules = used.map((code) => ({
    id: code,
    name: code.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()).replace(/^\w/, (c) => c.toUpperCase()),
    shortDescription: { text: CODES[code].title },
    helpUri: `${INFORMATION_URI}#finding-codes`,
    defaultConfiguration: { level: CODES[code].action === 'rollback' ? 'error' : CODES[code].action === 'hold' ? 'warning' : 'note' },
    properties: { action: CODES[code].action, area: CODES[code].area },
  }));
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: report.generatedBy.name, version: report.generatedBy.version, informationUri: INFORMATION_URI, rules } },
        automationDetails: { id: `mcp-gate/${report.baseline.profile}-to-${report.candidate.profile}/` },
        results: results.map((r) => ({ ...r, ruleIndex: used.indexOf(r.ruleId) })),
        properties: { verdict: report.decision.verdict, reasons: report.decision.reasons.map((r) => r.code) },
      },
    ],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}
