import type { Contract, ContractTool } from '../contract/types.js';
import { mapLimit } from '../base/concurrency.js';
import { consentGap } from './consent.js';
import { unprobed } from './probe.js';
import { nextPageArgs } from './next-page.js';
import { featureProbes, type FeatureReader } from './feature-probes.js';
import { describe } from '../base/error-text.js';
import { depthOf, MAX_DEFINITION_DEPTH } from '../contract/normalize.js';
import { resultData } from '../base/result-data.js';
import { checkExpectations, type ObservedResult } from './expect.js';
import { caseRoles } from './load.js';
import { contractFailures } from './contract-failures.js';
import type { Case, CaseFailure, CaseResult, CaseTotals, Dataset, Observation, Probe, RequiredTool } from './types.js';

interface ToolCall {
  result: unknown;
  durationMs: number;
  droppedBytes?: number;
  droppedReason?: string;
}

/** What replay needs from a live side: a way to call a tool. A snapshot side has none. */
interface ToolCaller {
  /** `droppedBytes` is set when the result was over the gate's byte cap and was never read. */
  callTool(name: string, args: Record<string, unknown>): Promise<ToolCall>;
}

export interface ReplaySide {
  contract: Contract;
  caller: ToolCaller | null;
  /** prompts/get and resources/read on the live server; null where there is none. */
  reader?: FeatureReader | null;
  /** Why there is no caller, e.g. "snapshot profile: no live server". */
  noCallerReason?: string;
  allowSideEffects: boolean;
  /** Tools declared safe to call on this side's profile (`safeTools`), though not read-only by their hints. */
  safeTools?: string[];
  concurrency: number;
  /** Told of each case as it ends, in the order they end: progress for the log. */
  onCase?: (result: CaseResult) => void;
}

export interface Replay {
  results: CaseResult[];
  /** Every live result, in dataset order, for the audit. */
  observations: Observation[];
}

/** Replays every case of every dataset on one side. Results keep dataset order, whatever the concurrency. */
export async function replayCases(datasets: Dataset[], side: ReplaySide): Promise<Replay> {
  const jobs = datasets.flatMap((d) => d.cases.map((c) => ({ dataset: d, case: c })));
  const tools = new Map(side.contract.tools.map((t) => [t.name, t]));
  const done = await mapLimit(jobs, side.concurrency, async (job) => {
    const outcome = await replayCase(job.dataset, job.case, tools, side);
    side.onCase?.(outcome.result);
    return outcome;
  });
  return { results: done.map((d) => d.result), observations: done.flatMap((d) => d.observations) };
}

async function replayCase(
  dataset: Dataset,
  spec: Case,
  tools: Map<string, ContractTool>,
  side: ReplaySide,
): Promise<{ result: CaseResult; observations: Observation[] }> {
  // Contract checks first, then forbidden tools, then live probes: the cheapest facts lead.
  const { failures, present } = contractFailures(spec, tools);
  const probed = await probeTools(present, spec, side);
  failures.push(...probed.failures);
  const featured = await featureProbes(
    spec,
    side.contract.features,
    side.reader ?? null,
    side.noCallerReason ?? 'no live server on this side',
  );
  const probes = [...probed.probes, ...featured.probes];
  failures.push(...featured.failures);
  const reads = featured.reads.map((read): Observation => ({
    caseId: spec.id,
    tool: read.uri,
    kind: 'resource',
    args: {},
    result: read.result,
    resultBytes: read.resultBytes,
    modelBytes: read.modelBytes,
    ...(spec.source && { source: spec.source }),
  }));
  const status = failures.length ? 'failed' : probes.some((p) => p.status === 'skipped') ? 'skipped' : 'passed';
  return {
    result: {
      id: spec.id,
      role: dataset.role,
      roles: caseRoles(dataset, spec),
      dataset: dataset.file,
      ...(spec.source && { source: spec.source }),
      status,
      passed: status === 'passed',
      failures,
      probes,
    },
    observations: [...probed.observations, ...reads],
  };
}

/** Each present tool with probe arguments, called in turn: its probe, its failures, and what the audit reads of its result. */
async function probeTools(present: [RequiredTool, ContractTool][], spec: Case, side: ReplaySide) {
  const probes: Probe[] = [];
  const failures: CaseFailure[] = [];
  const observations: Observation[] = [];
  for (const [required, tool] of present) {
    if (required.probeArguments === undefined) continue;
    const outcome = await probe(required, tool, spec, side);
    probes.push(outcome.probe);
    failures.push(...outcome.failures);
    if (outcome.result !== undefined || outcome.probe.resultBytes !== null) {
      observations.push({
        caseId: spec.id,
        tool: tool.name,
        args: required.probeArguments,
        result: outcome.result,
        resultBytes: outcome.probe.resultBytes ?? 0,
        ...(outcome.probe.textBytes !== null && { modelBytes: outcome.probe.textBytes }),
        resultBudgetBytes: required.expect?.resultBudgetBytes,
        volatile: required.volatile,
        ...(required.expect?.structured !== undefined && { structured: required.expect.structured }),
        ...(outcome.nextPage && { nextPage: outcome.nextPage }),
        ...(spec.source && { source: spec.source }),
      });
    }
  }
  return { probes, failures, observations };
}

async function probe(
  required: RequiredTool,
  tool: ContractTool,
  spec: Case,
  side: ReplaySide,
): Promise<{ probe: Probe; failures: CaseFailure[]; result?: unknown; nextPage?: Observation['nextPage'] }> {
  const base = unprobed(tool.name);
  if (!side.caller) return { probe: { ...base, reason: side.noCallerReason ?? 'no live server on this side' }, failures: [] };
  // Whatever the consent: a duplicate name or contradicting hints (contract/callable.ts); the audit says why too.
  const gap = consentGap(tool, side.contract, side, { granted: spec.sideEffects === 'allowed' });
  if (gap?.kind === 'never') return { probe: { ...base, reason: gap.reason }, failures: [] };
  if (gap) {
    const reason = `${tool.name} is not read-only; list it in the profile's safeTools, or set allowSideEffects: true on the profile or sideEffects: allowed on the case, to probe it`;
    return { probe: { ...base, reason }, failures: [] };
  }
  let response: ToolCall;
  try {
    response = await side.caller.callTool(tool.name, required.probeArguments ?? {});
  } catch (error) {
    const message = describe(error);
    return {
      probe: { ...base, status: 'failed', reason: message },
      failures: [{ code: 'probe-failed', tool: tool.name, message: `probe call failed: ${message}` }],
    };
  }
  if (response.droppedBytes !== undefined) {
    const reason = response.droppedReason ?? `the result (${response.droppedBytes} bytes) was over the byte cap and was dropped`;
    return {
      probe: { ...base, status: 'failed', reason, durationMs: response.durationMs, resultBytes: response.droppedBytes },
      failures: [{ code: 'result-too-large', tool: tool.name, message: `probe result too large: ${reason}` }],
    };
  }
  // Every later reading of a result recurses (size, expectations, the audit): one nested past the
  // bound fails its probe with that reason instead of overflowing the stack (an undecided run).
  if (depthOf(response.result, MAX_DEFINITION_DEPTH + 1) > MAX_DEFINITION_DEPTH) {
    const reason = `the result nests more than ${MAX_DEFINITION_DEPTH} levels deep; it was not read`;
    return {
      probe: { ...base, status: 'failed', reason, durationMs: response.durationMs },
      failures: [{ code: 'probe-failed', tool: tool.name, message: `probe result unreadable: ${reason}` }],
    };
  }
  const observed = observe(response.result);
  const probeRecord: Probe = {
    ...base,
    status: 'called',
    isError: observed.isError,
    durationMs: response.durationMs,
    resultBytes: observed.resultBytes,
    textBytes: Buffer.byteLength(observed.text, 'utf8'),
  };
  const nextPage = await followPage(tool, required.probeArguments ?? {}, response.result, side.caller);
  return {
    probe: probeRecord,
    failures: checkExpectations(required, observed),
    result: response.result,
    ...(nextPage && { nextPage }),
  };
}

/**
 * The next page a result claims, asked for once with the same consent as the probe: a list that
 * claims more when it is complete shows it here (the audit's pagination-next-page-empty). A call
 * that fails or is dropped is no evidence either way.
 */
async function followPage(
  tool: ContractTool,
  args: Record<string, unknown>,
  result: unknown,
  caller: ToolCaller,
): Promise<Observation['nextPage'] | undefined> {
  const next = nextPageArgs(tool, args, result);
  if (!next) return undefined;
  try {
    const response = await caller.callTool(tool.name, next);
    if (response.droppedBytes !== undefined || depthOf(response.result, MAX_DEFINITION_DEPTH + 1) > MAX_DEFINITION_DEPTH) return undefined;
    return { args: next, result: response.result };
  } catch {
    return undefined;
  }
}

function observe(result: unknown): ObservedResult {
  const record = (result ?? {}) as Record<string, unknown>;
  const content = Array.isArray(record.content) ? record.content : [];
  const text = content
    .filter(
      (block): block is { type: 'text'; text: string } =>
        (block as { type?: unknown })?.type === 'text' && typeof (block as { text?: unknown }).text === 'string',
    )
    .map((block) => block.text)
    .join('\n');
  return {
    isError: record.isError === true,
    text,
    // structuredContent, or the JSON text of a server that declares no outputSchema: what `expect.structured` is held to.
    structured: resultData(result),
    resultBytes: Buffer.byteLength(JSON.stringify(result) ?? '', 'utf8'),
  };
}

export function caseTotals(results: CaseResult[]): CaseTotals {
  const total = results.length;
  const passed = results.filter((r) => r.status === 'passed').length;
  const failed = results.filter((r) => r.status === 'failed').length;
  return { total, passed, failed, skipped: total - passed - failed, passRate: total ? passed / total : null };
}

/** Cases on a side that could not be reached: skipped (never passed), with the reason. */
export function unreachedCases(datasets: Dataset[]): Replay {
  const results = datasets.flatMap((d) =>
    d.cases.map((c): CaseResult => ({
      id: c.id,
      role: d.role,
      roles: caseRoles(d, c),
      dataset: d.file,
      ...(c.source && { source: c.source }),
      status: 'skipped',
      passed: false,
      failures: [],
      probes: [],
    })),
  );
  return { results, observations: [] };
}
