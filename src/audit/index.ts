import type { AuditSettings } from '../config/types.js';
import type { Contract } from '../contract/types.js';
import type { Finding, Side } from '../findings/types.js';
import { auditContract, type DefinitionCost, type ToolAuditMemo } from './contract-checks.js';
import { auditResult, type Observation } from './result-checks.js';
import { resultDrift } from './result-drift.js';
import { auditFeatures, instructionsTokens } from './feature-checks.js';

export interface AuditSide {
  side: Side;
  contract: Contract | null;
  observations: Observation[];
}

export interface Audit {
  findings: Finding[];
  cost: { baseline: DefinitionCost | null; candidate: DefinitionCost | null };
}

const keyOf = (f: Finding) => `${f.code}|${f.tool ?? ''}|${f.caseId ?? ''}`;

/**
 * Both sides audited, then compared: a candidate finding the baseline does not have is a
 * regression. Against a snapshot baseline nothing was called, so no live-result finding can be
 * shown to pre-exist: those count as regressions.
 */
export function audit(baseline: AuditSide, candidate: AuditSide, settings: AuditSettings): Audit {
  const memo: ToolAuditMemo = new Map();
  const run = (s: AuditSide) => {
    if (!s.contract) return { findings: [] as Finding[], cost: null };
    const byName = new Map(s.contract.tools.map((t) => [t.name, t]));
    const contract = auditContract(s.contract, s.side, memo);
    const results = s.observations.flatMap((o) => auditResult(o, byName.get(o.tool), s.side, settings.resultBudgetBytes));
    const cost: DefinitionCost = { ...contract.cost, instructionsTokens: instructionsTokens(s.contract) };
    return { findings: [...contract.findings, ...auditFeatures(s.contract, s.side), ...results], cost };
  };
  const b = run(baseline);
  const c = run(candidate);
  const known = new Set(b.findings.map(keyOf));
  const candidateFindings = c.findings.map((f) => ({
    ...f,
    regression: f.code !== 'tool-definition-cost' && !known.has(keyOf(f)),
  }));
  const growth = [
    ...sizeRegressions(baseline.observations, candidate.observations, settings),
    ...resultDrift(baseline.observations, candidate.observations),
  ];
  if (b.cost && c.cost && b.cost.totalTokens > 0) {
    const grown = ((c.cost.totalTokens - b.cost.totalTokens) / b.cost.totalTokens) * 100;
    if (grown > settings.definitionCostGrowthPercent && c.cost.totalTokens - b.cost.totalTokens > settings.definitionCostGrowthMinTokens) {
      growth.push({
        code: 'tool-definition-cost-regression',
        severity: 'dangerous',
        side: 'candidate',
        tool: null,
        regression: true,
        message: `Tool definitions grew ${Math.round(grown)}%, from about ${b.cost.totalTokens} to ${c.cost.totalTokens} tokens (limit ${settings.definitionCostGrowthPercent}%).`,
      });
    }
  }
  const [wasInstructions, isInstructions] = [b.cost?.instructionsTokens ?? 0, c.cost?.instructionsTokens ?? 0];
  if (
    c.cost &&
    isInstructions - wasInstructions > settings.definitionCostGrowthMinTokens &&
    isInstructions > wasInstructions * (1 + settings.definitionCostGrowthPercent / 100)
  ) {
    growth.push({
      code: 'instructions-cost-regression',
      severity: 'dangerous',
      side: 'candidate',
      tool: null,
      regression: true,
      message: `The server's instructions grew from about ${wasInstructions} to ${isInstructions} tokens (limit ${settings.definitionCostGrowthPercent}% and ${settings.definitionCostGrowthMinTokens} tokens); every session pays for them.`,
    });
  }
  return {
    findings: [...b.findings.map((f) => ({ ...f, regression: false })), ...candidateFindings, ...growth],
    cost: { baseline: b.cost, candidate: c.cost },
  };
}

function* sizeRegressions(baseline: Observation[], candidate: Observation[], settings: AuditSettings): Generator<Finding> {
  const percent = settings.resultGrowthPercent;
  const before = new Map(baseline.map((o) => [`${o.caseId}|${o.tool}`, o.resultBytes]));
  for (const o of candidate) {
    const was = before.get(`${o.caseId}|${o.tool}`);
    if (!was || o.resultBytes <= was * (1 + percent / 100) || o.resultBytes - was <= settings.resultGrowthMinBytes) continue;
    yield {
      code: 'result-size-regression',
      severity: 'dangerous',
      side: 'candidate',
      tool: o.tool,
      caseId: o.caseId,
      regression: true,
      message: `${o.caseId} ${o.tool}: result grew from ${was} to ${o.resultBytes} bytes (+${Math.round((o.resultBytes / was - 1) * 100)}%, limit ${percent}%).`,
    };
  }
}
