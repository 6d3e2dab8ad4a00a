import { CODES } from '../findings/codes.js';
import type { Finding } from '../findings/types.js';
import type { Report } from './types.js';

/**
 * The worst audit findings for a short "what the model sees" section: candidate regressions first
 * (those that move the verdict before those that do not), then the count of pre-existing ones.
 */
export function modelSeatHighlights(report: Report, limit = 5): { shown: Finding[]; regressions: number; preexisting: number } {
  const candidate = report.audit.findings.filter((f) => f.side === 'candidate' && f.code !== 'tool-definition-cost');
  const weight = (f: Finding) => (CODES[f.code].action === 'ignore' ? 1 : 0);
  const regressions = candidate.filter((f) => f.regression).sort((a, b) => weight(a) - weight(b));
  return {
    shown: regressions.slice(0, limit),
    regressions: regressions.length,
    preexisting: candidate.length - regressions.length,
  };
}
