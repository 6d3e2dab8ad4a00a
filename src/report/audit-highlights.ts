import { findingMeta } from '../findings/codes.js';
import { counted as countedWords } from '../findings/codes/meta.js';
import type { Finding } from '../findings/types.js';
import type { Report } from './types.js';

/** Findings reported for what they tell, never new, still there or fixed (the tool definitions' cost). */
const informational = (f: Finding) => findingMeta(f.code)?.informational === true;

/**
 * The worst audit findings for a short "what the model sees" section: candidate regressions first
 * (those that move the verdict before those that do not), then the count of pre-existing ones.
 */
export function auditHighlights(report: Report, limit = 5): { shown: Finding[]; regressions: number; preexisting: number } {
  const candidate = report.audit.findings.filter((f) => f.side === 'candidate' && !informational(f));
  const weight = (f: Finding) => (findingMeta(f.code)?.action === 'ignore' ? 1 : 0);
  const regressions = candidate.filter((f) => f.regression).sort((a, b) => weight(a) - weight(b));
  return {
    shown: regressions.slice(0, limit),
    regressions: regressions.length,
    preexisting: candidate.length - regressions.length,
  };
}

/** Findings counted by code, most first, each in words with its code's noun: "7 hidden next-page signals". */
function counted(findings: Finding[]): { code: Finding['code']; count: number; words: string }[] {
  const counts = new Map<Finding['code'], number>();
  for (const f of findings) counts.set(f.code, (counts.get(f.code) ?? 0) + 1);
  return [...counts]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([code, count]) => ({ code, count, words: countedWords(count, findingMeta(code)?.noun ?? [code, code]) }));
}

/**
 * The audit findings of the baseline that the candidate fixed (direction `fixed`), by code, most
 * first: "7 hidden next-page signals", "1 error not flagged". Empty for older reports.
 */
export const fixedCounts = (report: Report) =>
  counted(report.audit.findings.filter((f) => f.side === 'baseline' && f.direction === 'fixed'));

/** The candidate's findings that the baseline had too, by code: what a release has not fixed yet. */
export function stillSentence(report: Report): string | null {
  const still = counted(report.audit.findings.filter((f) => f.side === 'candidate' && f.direction === 'still' && !informational(f)));
  return still.length ? `Still there: ${still.map((s) => s.words).join(', ')}.` : null;
}

/** "Fixed in this release: 7 hidden next-page signals, 1 error not flagged." or null. */
export function fixedSentence(report: Report): string | null {
  const fixed = fixedCounts(report);
  return fixed.length ? `Fixed in this release: ${fixed.map((f) => f.words).join(', ')}.` : null;
}
