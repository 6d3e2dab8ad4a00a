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

/** The most tools a standing names; the rest are counted. */
const TOOLS_NAMED = 8;

/**
 * Where the release leaves what the model sees, in the order a reviewer of a fix wants it: what it
 * fixed, what it newly gets wrong, and what it has not fixed yet. Each is one sentence, its findings
 * counted by code with their nouns, then how many findings on how many tools, the first few named.
 * Empty standings are left out; an older report without directions has none.
 */
export function standings(report: Report): { kind: 'fixed' | 'new' | 'still'; sentence: string }[] {
  const findings = report.audit.findings;
  const groups = [
    { kind: 'fixed', label: 'Fixed in this release', of: findings.filter((f) => f.side === 'baseline' && f.direction === 'fixed') },
    {
      kind: 'new',
      label: 'New in this release',
      of: findings.filter((f) => f.side === 'candidate' && f.direction === 'new' && !informational(f)),
    },
    {
      kind: 'still',
      label: 'Still there',
      of: findings.filter((f) => f.side === 'candidate' && f.direction === 'still' && !informational(f)),
    },
  ] as const;
  return groups
    .filter((g) => g.of.length)
    .map(({ kind, label, of }) => {
      const tools = [...new Set(of.map((f) => f.tool).filter((t): t is string => !!t))].sort();
      const named = tools.slice(0, TOOLS_NAMED).join(', ') + (tools.length > TOOLS_NAMED ? `, and ${tools.length - TOOLS_NAMED} more` : '');
      const on = tools.length ? ` on ${countedWords(tools.length, ['tool', 'tools'])} (${named})` : '';
      const byCode = counted(of)
        .map((c) => c.words)
        .join(', ');
      return { kind, sentence: `${label}: ${byCode}. ${countedWords(of.length, ['finding', 'findings'])}${on}.` };
    });
}
