import { caseTotals } from '../cases/replay.js';
import type { CaseResult } from '../cases/types.js';
import type { SideUnavailableError } from '../connect/errors.js';
import type { OpenSide } from '../contract/open-side.js';
import type { BaselineFallback, SideReport } from './types.js';

/** One side of the report. A side that could not be reached says so; it is never "0 tools, fine". */
export function buildSideReport(side: OpenSide & { error?: SideUnavailableError | null }, caseResults: CaseResult[]): SideReport {
  const tail = side.error?.stderrTail ?? side.session?.stderrTail ?? '';
  const dropped = side.session?.stderrDroppedBytes ?? 0;
  const available = !side.error && (side.session !== null || side.profile.transport === 'snapshot');
  return {
    profile: side.profile.name,
    transport: side.profile.transport,
    available,
    error: side.error ? { phase: side.error.phase, message: side.error.message } : (side.fallback?.reason ?? null),
    ...(side.retried && { retried: side.retried }),
    ...(side.fallback && { fallback: side.fallback }),
    server: side.contract.server,
    contractHash: available ? side.contract.hash : null,
    toolCount: side.contract.tools.length,
    tools: side.contract.tools,
    discovery: side.contract.discovery,
    stderr: { tail, droppedBytes: dropped },
    ...(side.contract.features && { features: side.contract.features }),
    cases: caseTotals(caseResults),
    caseResults,
  };
}

/** What stood in for a baseline that could not start, in one sentence for every format. */
export function fallbackLine(fallback: BaselineFallback): string {
  const what = fallback.kind === 'empty' ? 'an empty server' : `its contract in the saved report ${fallback.report ?? '?'}`;
  return `Baseline fallback used (${fallback.kind}): the candidate was compared with ${what}, not with the release in production.`;
}
