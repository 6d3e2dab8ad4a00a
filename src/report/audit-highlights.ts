import { CODES } from '../findings/codes.js';
import type { Finding } from '../findings/types.js';
import type { Report } from './types.js';

/**
 * The worst audit findings for a short "what the model sees" section: candidate regressions first
 * (those that move the verdict before those that do not), then the count of pre-existing ones.
 */
export function auditHighlights(report: Report, limit = 5): { shown: Finding[]; regressions: number; preexisting: number } {
  const candidate = report.audit.findings.filter((f) => f.side === 'candidate' && f.code !== 'tool-definition-cost');
  const weight = (f: Finding) => (CODES[f.code].action === 'ignore' ? 1 : 0);
  const regressions = candidate.filter((f) => f.regression).sort((a, b) => weight(a) - weight(b));
  return {
    shown: regressions.slice(0, limit),
    regressions: regressions.length,
    preexisting: candidate.length - regressions.length,
  };
}

/** What a fixed finding was, counted, as the sentence "Fixed in this release" lists it. */
const FIXED: Partial<Record<Finding['code'], [string, string]>> = {
  'pagination-hint-hidden': ['hidden next-page signal', 'hidden next-page signals'],
  'error-not-flagged': ['error not flagged', 'errors not flagged'],
  'result-too-large': ['oversized result', 'oversized results'],
  'result-pretty-json': ['pretty-printed result', 'pretty-printed results'],
  'structured-content-without-text': ['structured result without a text copy', 'structured results without a text copy'],
  'structured-content-invalid': ['result its own output schema refused', 'results their own output schema refused'],
  'annotations-missing': ['tool without annotations', 'tools without annotations'],
  'open-world-hint-missing': ['tool without openWorldHint', 'tools without openWorldHint'],
  'parameter-description-missing': ['argument without a description', 'arguments without a description'],
  'description-weak': ['weak description', 'weak descriptions'],
  'tool-reference-missing': ['mention of a tool the server does not list', 'mentions of tools the server does not list'],
  'pagination-hint-unusable': ['next-page hint the tool cannot follow', 'next-page hints the tool cannot follow'],
  'pagination-next-page-empty': ['claimed next page that came back empty', 'claimed next pages that came back empty'],
  'result-null-fields': ['result with fields null in every item', 'results with fields null in every item'],
};

/** Findings counted by code, most first, each in words: "7 hidden next-page signals". */
function counted(findings: Finding[]): { code: Finding['code']; count: number; words: string }[] {
  const counts = new Map<Finding['code'], number>();
  for (const f of findings) counts.set(f.code, (counts.get(f.code) ?? 0) + 1);
  return [...counts]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([code, count]) => {
      const [one, many] = FIXED[code] ?? [CODES[code].title.toLowerCase(), CODES[code].title.toLowerCase()];
      return { code, count, words: `${count} ${count === 1 ? one : many}` };
    });
}

/**
 * The audit findings of the baseline that the candidate fixed (direction `fixed`), by code, most
 * first: "7 hidden next-page signals", "1 error not flagged". Empty for older reports.
 */
export const fixedCounts = (report: Report) =>
  counted(report.audit.findings.filter((f) => f.side === 'baseline' && f.direction === 'fixed'));

/** The candidate's findings that the baseline had too, by code: what a release has not fixed yet. */
export function stillSentence(report: Report): string | null {
  const still = counted(
    report.audit.findings.filter((f) => f.side === 'candidate' && f.direction === 'still' && f.code !== 'tool-definition-cost'),
  );
  return still.length ? `Still there: ${still.map((s) => s.words).join(', ')}.` : null;
}

/** "Fixed in this release: 7 hidden next-page signals, 1 error not flagged." or null. */
export function fixedSentence(report: Report): string | null {
  const fixed = fixedCounts(report);
  return fixed.length ? `Fixed in this release: ${fixed.map((f) => f.words).join(', ')}.` : null;
}
