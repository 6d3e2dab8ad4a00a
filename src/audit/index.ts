import type { AuditSettings } from '../config/types.js';
import { canonicalJson } from '../contract/canonical.js';
import { DEFAULT_SCHEMA_LIMITS } from '../contract/schema-work.js';
import type { Contract } from '../contract/types.js';
import type { Finding, Side } from '../findings/types.js';
import { findingMeta } from '../findings/codes.js';
import { finding } from '../findings/finding.js';
import { clientResultFindings } from './client-results.js';
import { clientFindings, watchedClientFindings } from './clients.js';
import { auditContract, type DefinitionCost, type ToolAuditMemo } from './contract-checks.js';
import { auditResult, readBytes, subjectOf } from './result-checks.js';
import type { Observation } from '../cases/types.js';
import { resultDrift } from './result-drift.js';
import { unannotatedServer, unlistedToolMentions } from './references.js';
import { auditFeatures, instructionsTokens } from './feature-checks.js';
import { thinnedUnderSameDescription } from './thinned.js';

export interface AuditSide {
  side: Side;
  contract: Contract | null;
  observations: Observation[];
}

export interface Audit {
  findings: Finding[];
  cost: { baseline: DefinitionCost | null; candidate: DefinitionCost | null };
}

const keyOf = (f: Finding) => `${f.code}|${f.tool ?? ''}|${f.caseId ?? ''}|${f.client ?? ''}`;

/**
 * Both sides audited, then compared: a candidate finding the baseline does not have is a
 * regression. Against a snapshot baseline nothing was called, so no live-result finding can be
 * shown to pre-exist: those count as regressions.
 */
export function audit(
  baseline: AuditSide,
  candidate: AuditSide,
  settings: AuditSettings,
  schemaNodesPerTool = DEFAULT_SCHEMA_LIMITS.perTool,
): Audit {
  const memo: ToolAuditMemo = new Map();
  const b = auditSide(baseline, settings, memo, schemaNodesPerTool);
  const c = auditSide(candidate, settings, memo, schemaNodesPerTool);
  const known = new Set(b.findings.map(keyOf));
  const candidateFindings = c.findings.map((f) => {
    const regression = !findingMeta(f.code)?.informational && !known.has(keyOf(f));
    return { ...f, regression, direction: regression ? ('new' as const) : ('still' as const) };
  });
  const growth: Finding[] = [
    ...sizeRegressions(baseline.observations, candidate.observations, settings),
    ...resultDrift(baseline.observations, candidate.observations),
  ]
    .filter((f) => !isFix(f, b.findings))
    .map((f) => ({ ...f, direction: 'new' as const }));
  growth.push(...thinnedUnderSameDescription(baseline.contract, candidate.contract, growth));
  growth.push(...costRegressions(b.cost, c.cost, settings));
  growth.push(...watchedClientFindings(baseline.contract, candidate.contract, settings.clients ?? []));
  const still = new Set(c.findings.map(keyOf));
  const probed = new Set(candidate.observations.map((o) => `${o.caseId}|${o.tool}`));
  const baselineFindings = b.findings.map((f) => ({
    ...f,
    regression: false,
    ...(candidate.contract && { direction: directionOf(f, still, probed) }),
  }));
  return {
    findings: [...baselineFindings, ...candidateFindings, ...growth],
    cost: { baseline: b.cost, candidate: c.cost },
  };
}

/** One side's findings (its contract, its features, its live results) and what its definitions cost. */
function auditSide(
  s: AuditSide,
  settings: AuditSettings,
  memo: ToolAuditMemo,
  schemaNodesPerTool: number,
): { findings: Finding[]; cost: DefinitionCost | null } {
  if (!s.contract) return { findings: [], cost: null };
  const byName = new Map(s.contract.tools.map((t) => [t.name, t]));
  const contract = auditContract(s.contract, s.side, memo);
  const clients = settings.clients ?? [];
  const results = s.observations.flatMap((o) => [
    ...auditResult(o, byName.get(o.tool), s.side, settings.resultBudgetBytes, schemaNodesPerTool),
    ...clientResultFindings(o, byName.get(o.tool), s.side, clients, schemaNodesPerTool),
  ]);
  const cost: DefinitionCost = { ...contract.cost, instructionsTokens: instructionsTokens(s.contract) };
  const lessons = [...unlistedToolMentions(s.contract, s.side), ...unannotatedServer(s.contract, s.side)];
  const refused = clientFindings(s.contract, s.side, clients);
  return { findings: [...contract.findings, ...lessons, ...refused, ...auditFeatures(s.contract, s.side), ...results], cost };
}

/** Tool definitions or instructions that grew past both limits: every session pays for them. */
function costRegressions(was: DefinitionCost | null, is: DefinitionCost | null, settings: AuditSettings): Finding[] {
  const found: Finding[] = [];
  const regression = { side: 'candidate', regression: true, direction: 'new' } as const;
  const percent = settings.definitionCostGrowthPercent;
  if (was && is && was.totalTokens > 0) {
    const grown = ((is.totalTokens - was.totalTokens) / was.totalTokens) * 100;
    if (grown > percent && is.totalTokens - was.totalTokens > settings.definitionCostGrowthMinTokens)
      found.push(finding('tool-definition-cost-regression', { was: was.totalTokens, now: is.totalTokens, limit: percent }, regression));
  }
  const [wasInstructions, isInstructions] = [was?.instructionsTokens ?? 0, is?.instructionsTokens ?? 0];
  const minTokens = settings.definitionCostGrowthMinTokens;
  if (is && isInstructions - wasInstructions > minTokens && isInstructions > wasInstructions * (1 + percent / 100))
    found.push(finding('instructions-cost-regression', { was: wasInstructions, now: isInstructions, percent, minTokens }, regression));
  return found;
}

/**
 * A baseline finding the candidate no longer has is fixed, when the candidate was looked at in the
 * same place: the contract for contract findings, the same probe for findings on a live result.
 * Otherwise it is still there, as far as the run can tell.
 */
function directionOf(f: Finding, still: Set<string>, probed: Set<string>): 'still' | 'fixed' {
  if (still.has(keyOf(f))) return 'still';
  if (f.caseId !== undefined && !probed.has(`${f.caseId}|${f.tool ?? ''}`)) return 'still';
  return 'fixed';
}

/** Findings on the baseline's result of a probe that a change of the candidate's result repairs. */
const REPAIRED_BY: Partial<Record<Finding['code'], Finding['code'][]>> = {
  // The error is flagged now: what the model reads as data was an error all along.
  'result-error-flipped': ['error-not-flagged'],
  // The items moved into the text the model reads: the text grew because it carries them now.
  'result-size-regression': [
    'pagination-hint-hidden',
    'structured-content-without-text',
    'structured-content-invalid',
    'error-not-flagged',
  ],
  'result-content-moved': ['structured-content-without-text', 'structured-content-invalid', 'error-not-flagged'],
  // The text was rewritten to carry what the model lacked: the items, the page hint, a flagged error.
  'result-text-changed': [
    'pagination-hint-hidden',
    'structured-content-without-text',
    'error-not-flagged',
    'result-pretty-json',
    'result-too-large',
  ],
};

/**
 * Whether a change of a probe's result repairs what the baseline's same probe got wrong (issue 27
 * §2): an error now flagged, items moved into the text, a result the server's own output schema
 * refused now returned. Such a change is the fix, listed as the baseline finding `fixed`, not drift.
 * Drift between a baseline answer that was an error or a refused result and a candidate answer is
 * never a regression either: there was no data to drift from.
 */
function isFix(f: Finding, baseline: Finding[]): boolean {
  const repaired = REPAIRED_BY[f.code];
  const same = baseline.filter((x) => x.caseId === f.caseId && x.tool === f.tool);
  if (repaired && same.some((x) => repaired.includes(x.code))) return true;
  return f.code.startsWith('result-') && f.code !== 'result-error-flipped' && same.some((x) => x.code === 'structured-content-invalid');
}

function* sizeRegressions(baseline: Observation[], candidate: Observation[], settings: AuditSettings): Generator<Finding> {
  const percent = settings.resultGrowthPercent;
  const before = new Map(baseline.map((o) => [`${o.caseId}|${o.tool}`, o]));
  for (const o of candidate) {
    const old = before.get(`${o.caseId}|${o.tool}`);
    const [was, now] = [old ? readBytes(old) : 0, readBytes(o)];
    if (!was || now <= was * (1 + percent / 100) || now - was <= settings.resultGrowthMinBytes) continue;
    const what =
      o.kind === 'resource' ? 'the resource the model reads' : o.modelBytes !== undefined ? 'the text the model reads' : 'the result';
    const whole = o.modelBytes !== undefined && o.resultBytes !== o.modelBytes ? { whole: o.resultBytes } : {};
    const at = { side: 'candidate', subject: subjectOf(o), caseId: o.caseId, regression: true } as const;
    yield finding('result-size-regression', { what, was, now, ...whole, limit: percent }, at);
  }
}

/**
 * Tools whose output schema the baseline's own results failed (`structured-content-invalid` on the
 * baseline, the SDK's "Output validation error" included), and tools that declare the very same
 * schema: a change to such a schema repairs it (issue 27 §2), whether or not a case probed that tool.
 */
export function failedOutputSchemas(baseline: Contract, findings: Finding[]): Set<string> {
  const failed = new Set(
    findings.filter((f) => f.side === 'baseline' && f.code === 'structured-content-invalid' && f.tool).map((f) => f.tool!),
  );
  const schemaOf = (name: string) => {
    const schema = baseline.tools.find((t) => t.name === name)?.outputSchema;
    return schema ? canonicalJson(schema) : null;
  };
  const broken = new Set([...failed].map(schemaOf).filter((s): s is string => s !== null));
  if (!broken.size) return failed;
  for (const tool of baseline.tools) if (tool.outputSchema && broken.has(canonicalJson(tool.outputSchema))) failed.add(tool.name);
  return failed;
}
