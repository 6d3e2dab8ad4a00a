import type { Report } from './types.js';

/**
 * What a Promote or a Hold rests on when no case ran on the candidate: the listed contracts alone.
 * A release that keeps every schema and changes what a tool returns (a field renamed, numbers sent
 * as strings, an answer wrapped in an object) is seen only by a case that calls the tool
 * (docs/judgements.md: FH15, FJ9, FJ10, FJ35). Null when a case ran, when the verdict is a Rollback
 * (it rests on what was found), or when a side could not be read (the run says so itself). From the
 * report alone, so an older report renders it too.
 */
export function restsOn(report: Report): string | null {
  const { baseline: b, candidate: c, decision } = report;
  if (decision.verdict === 'Rollback' || !b.available || !c.available) return null;
  if (c.cases.passed + c.cases.failed > 0) return null;
  return 'This rests on the listed contracts alone: no case called a tool, so a release that changes what a tool returns under the same schema (a field renamed, a number sent as a string) is not seen. `mcp-gate record` freezes a case for each tool it may call (docs/record.md).';
}
