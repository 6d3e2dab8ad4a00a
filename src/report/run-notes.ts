import { finding } from '../findings/finding.js';
import type { Finding } from '../findings/types.js';
import type { Report } from './types.js';

/**
 * What every format says about how the run went, beside its findings: sentences from the report
 * alone, so a saved report renders them again. A failure's message may hold server text: each
 * format makes the sentence inert as it does any other.
 */
export function runNotes(report: Report): string[] {
  const notes: string[] = [];
  const trees = report.environment?.unprotectedTrees ?? [];
  if (trees.length) notes.push(unprotectedTreeFinding(trees).message);
  const turn = report.sidesInTurn;
  if (turn) {
    const other = turn.side === 'baseline' ? 'candidate' : 'baseline';
    notes.push(
      `The sides ran one after the other: the ${turn.side} could not start while the ${other} ran, and started alone, so each was started, read, replayed and sent its witnesses in turn. If the two share a lock or a cache in HOME, \`home: isolated\` on their profiles lets them run at once. Its second start beside the ${other} failed in ${turn.failed.phase}: ${turn.failed.message}`,
    );
  }
  return notes;
}

/** The fact as a finding, for a rule to hold on (`promotion.rules: { baseline-tree-unprotected: hold }`); judged as the run's own, like baseline-fallback. */
export const unprotectedTreeFinding = (profiles: string[]): Finding =>
  finding('baseline-tree-unprotected', { profiles }, { side: 'candidate' });
