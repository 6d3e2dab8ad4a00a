import type { AuditSettings } from '../config/types.js';
import { canonicalJson } from '../contract/canonical.js';
import { DEFAULT_SCHEMA_LIMITS } from '../contract/schema-work.js';
import type { Contract } from '../contract/types.js';
import type { Finding, Side } from '../findings/types.js';
import { findingMeta, resolvesOf } from '../findings/codes.js';
import { finding } from '../findings/finding.js';
import { clientResultFindings } from './client-results.js';
import { clientFindings, watchedClientFindings } from './clients.js';
import { auditContract, type DefinitionCost, type ToolAuditMemo } from './contract-checks.js';
import { auditResult, errorsFlaggedSince, placesOf, readBytes, sourceOf, subjectOf } from './result-checks.js';
import { pointerMatcher } from '../base/json-pointer.js';
import type { Observation } from '../cases/types.js';
import { resultDrift } from './result-drift.js';
import { serverWithoutInstructions, unannotatedServer, unlistedToolMentions } from './references.js';
import { confusableDescriptions } from './confusable-descriptions.js';
import { auditFeatures, instructionsTokens } from './feature-checks.js';
import { thinnedUnderPromise } from './thinned.js';
import { excerptsMissingQuery } from './search-excerpts.js';
import { rawExcerpts } from './excerpt-shape.js';
import { upstreamEnvelope } from './upstream-envelope.js';
import { steeringResults } from './result-steering.js';
import { unsourcedIds } from './id-sources.js';

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
  b.findings.push(...errorsFlaggedSince(baseline.observations, candidate.observations, b.findings));
  const known = new Set(b.findings.map(keyOf));
  const candidateFindings = c.findings.map((f) => {
    const regression = !findingMeta(f.code)?.informational && !known.has(keyOf(f));
    return { ...f, regression, direction: regression ? ('new' as const) : ('still' as const) };
  });
  const growth: Finding[] = [
    ...sizeRegressions(baseline.observations, candidate.observations, settings),
    ...resultDrift(baseline.observations, candidate.observations),
  ]
    .filter((f) => !isFix(f, b.findings, probeOf(baseline.observations, f)))
    .map((f) => ({ ...f, direction: 'new' as const }));
  growth.push(...thinnedUnderPromise(baseline, candidate, growth));
  // Never a repair: whatever the baseline's result got wrong, orders in the text are new.
  growth.push(...[...steeringResults(baseline.observations, candidate.observations)].map((f) => ({ ...f, direction: 'new' as const })));
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

/** The observation of a side's probe that a finding is about (the first, as the drift compares). */
const probeOf = (observations: Observation[], f: Finding): Observation | undefined =>
  observations.find((o) => o.caseId === f.caseId && o.tool === f.tool);

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
    ...excerptsMissingQuery(o, s.side),
    ...rawExcerpts(o, s.side),
    ...upstreamEnvelope(o, s.side),
  ]);
  const cost: DefinitionCost = { ...contract.cost, instructionsTokens: instructionsTokens(s.contract) };
  const lessons = [
    ...unlistedToolMentions(s.contract, s.side),
    ...unannotatedServer(s.contract, s.side),
    ...serverWithoutInstructions(s.contract, s.side),
    ...unsourcedIds(s.contract, s.side),
    ...confusableDescriptions(s.contract, s.side),
  ];
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

/**
 * Whether a change of a probe's result is the fix of what the baseline's same probe got wrong, as
 * the codes declare it (findings/codes `resolves`): an error now flagged, items moved into the text,
 * the null keys removed. Such a change is the baseline finding `fixed`, not drift; one that resolves
 * a finding at its place resolves it only there. Drift between a baseline answer that was a refused
 * result and a candidate answer is never a regression either: there was no data to drift from.
 */
function isFix(f: Finding, baseline: Finding[], observed: Observation | undefined): boolean {
  const same = baseline.filter((x) => x.caseId === f.caseId && x.tool === f.tool);
  const resolves = resolvesOf(f.code);
  const atPlace = (b: Finding) => {
    const places = f.path !== undefined && observed ? placesOf(b.code, observed) : null;
    return places !== null && pointerMatcher(places)(f.path!);
  };
  if (same.some((b) => resolves[b.code] === 'probe' || (resolves[b.code] === 'place' && atPlace(b)))) return true;
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
    const at = { side: 'candidate', subject: subjectOf(o), caseId: o.caseId, regression: true, ...sourceOf(o) } as const;
    yield finding('result-size-regression', { what, was, now, ...whole, limit: percent }, at);
  }
}

/**
 * The probes (`caseId|tool`) whose baseline answer was an error written as data: what
 * `result-error-flipped` resolves (findings/codes). There the candidate's flagged error is that
 * error, now visible, so a case that fails on it is not broken by this release (cases/regression.ts).
 */
export function errorsAsData(findings: Finding[]): Set<string> {
  const hidden = resolvesOf('result-error-flipped');
  return new Set(findings.filter((f) => f.side === 'baseline' && hidden[f.code] && f.caseId).map((f) => `${f.caseId}|${f.tool ?? ''}`));
}

/**
 * Tools whose output schema the baseline's own results failed (`structured-content-invalid` on the
 * baseline, the SDK's "Output validation error" included), and tools that declare the very same
 * schema: a change to such a schema repairs it (docs/verdicts.md, "Repairs"), whether or not a case
 * probed that tool.
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
