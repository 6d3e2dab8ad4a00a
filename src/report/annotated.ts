import { posix } from 'node:path';
import { redactAll } from '../base/secrets.js';
import type { JudgedCode } from '../findings/codes.js';
import type { Source } from '../findings/types.js';
import type { Report } from './types.js';

/** GitHub's levels, as workflow commands name them. */
export type Level = 'error' | 'warning' | 'notice';
const RANK: Record<Level, number> = { error: 0, warning: 1, notice: 2 };

/** A file and, when known, its line: where GitHub shows an annotation. */
export interface Place {
  file: string;
  line: number | null;
}

/** One thing a run would show beside the code: its level, a title and a message, and its place when the report records one. */
export interface Annotation {
  level: Level;
  title: string;
  message: string;
  place: Place | null;
}

/**
 * What a run annotates, for the formats that place it beside the code (workflow commands, a check
 * run): the changes, the candidate's broken cases, its audit regressions and the policy files
 * changed, each at the place the report recorded when the file was read (`source`), never by
 * reading a file again. The level follows the verdict, not a change's severity: error for what
 * rolls back, warning for what holds, notice for the rest (an approved run's reasons too). A reason
 * with nothing of its own to show (a run-level one) is one annotation, so a failing Hold never
 * shows only notices. Errors first, then in the order found. Secrets are masked before any format
 * escapes the text, so an escape cannot split one.
 */
export function annotated(report: Report, sourceRoot = ''): Annotation[] {
  const { decision } = report;
  const acting = new Map<JudgedCode, Level>();
  if (!decision.approval) for (const r of decision.reasons) acting.set(r.code, r.action === 'rollback' ? 'error' : 'warning');
  const found = foundInRun(report, sourceRoot);
  const shown = new Set(found.map((a) => a.code));
  const runLevel = decision.reasons
    .filter((r) => !shown.has(r.code))
    .map((r) => ({ code: r.code, title: `mcp-gate ${r.code}`, message: r.message, place: null }));
  const sorted = [...found, ...runLevel]
    .map(({ code, ...a }, i) => [{ ...a, level: acting.get(code) ?? 'notice' }, i] as const)
    .sort(([a, i], [b, j]) => RANK[a.level] - RANK[b.level] || i - j)
    .map(([a]): Annotation => a);
  return redactAll(sorted);
}

type Found = Omit<Annotation, 'level'> & { code: JudgedCode };

/** The changes, the candidate's broken cases, its audit regressions and the policy files changed, in that order. */
function foundInRun(report: Report, sourceRoot: string): Found[] {
  // Sources name files from the run's working directory; GitHub names them from the repository's root.
  const at = (source: Source | undefined): Place | null =>
    source ? { file: posix.normalize(posix.join(sourceRoot, source.file)), line: source.line } : null;
  const changes = report.diff.changes.map((x) => ({ code: x.code, title: `mcp-gate ${x.code}`, message: x.message, place: at(x.source) }));
  const cases = report.candidate.caseResults
    .filter((r) => r.status === 'failed')
    .map((r): Found => {
      const preexisting = r.regression === false;
      return {
        code: preexisting ? 'case-already-failing' : 'case-broken',
        title: preexisting ? `mcp-gate case ${r.id} fails on the baseline too (pre-existing)` : `mcp-gate case ${r.id} broken`,
        message: r.failures.map((f) => f.message).join('\n'),
        place: at(r.source),
      };
    });
  const audit = report.audit.findings
    .filter((f) => f.side === 'candidate' && f.regression)
    .map((f) => ({ code: f.code, title: `mcp-gate ${f.code}`, message: f.message, place: at(f.source) }));
  // The policy Hold names each file it saw changed, at the file (policy paths are the repository's already).
  const policy = (report.policy?.files ?? []).map((file): Found => ({
    code: 'gate-policy-changed',
    title: `mcp-gate gate-policy-changed: ${file.file} (${file.change})`,
    message: `This file is the gate's policy and the pull request ${file.change === 'added' ? 'adds' : 'changes'} it; its owners must approve the run (the approve label) or land the change on the base branch first.`,
    place: { file: file.file, line: null },
  }));
  return [...changes, ...cases, ...audit, ...policy];
}
