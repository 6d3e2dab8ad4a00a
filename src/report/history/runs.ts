import type { Verdict } from '../../decide/decide.js';
import type { Report } from '../types.js';

/** One saved run, as the history lists it. */
export interface HistoryRun {
  /** The report file, as given to the reader (relative to the working directory). */
  file: string;
  startedAt: string;
  baseline: string;
  candidate: string;
  verdict: Verdict;
  addedTools: number;
  removedTools: number;
  /** Breaking changes (not tools). */
  breaking: number;
  /** Cases that failed on the candidate. */
  brokenCases: number;
  /** The candidate's tool count. */
  toolCount: number;
  /** The candidate's contract hash; null when the candidate was unavailable. */
  contractHash: string | null;
  /**
   * The candidate's contract differs from the previous run's of the same baseline -> candidate pair
   * (its tools, or, when both runs read them, its prompts, resources and capabilities); null when
   * there is nothing to compare.
   */
  drift: boolean | null;
  /** Link to the run's HTML page when `<report>.html` sits beside the JSON, else null. */
  page: string | null;
}

export interface UnreadableReport {
  file: string;
  problems: string[];
}

export interface History {
  dir: string;
  runs: HistoryRun[];
  unreadable: UnreadableReport[];
}

export interface SavedReport {
  file: string;
  report: Report;
  page: string | null;
}

/**
 * Saved reports -> runs, oldest first (ties by file name), each with drift against the previous run
 * of the same pair: the same server of a bundle, baseline profile and candidate profile. A history
 * folder often mixes pairs (the candidate and candidate-safe of one config, say), and a run of
 * another pair says nothing about this one's drift. Pure.
 */
export function historyRuns(saved: SavedReport[]): HistoryRun[] {
  const ordered = [...saved].sort((a, b) => a.report.startedAt.localeCompare(b.report.startedAt) || a.file.localeCompare(b.file));
  const previous = new Map<string, { hash: string | null; features: string | undefined }>();
  return ordered.map(({ file, report, page }) => {
    const { baseline, candidate, diff, decision } = report;
    const hash = candidate.contractHash;
    const features = candidate.features?.hash;
    const pair = JSON.stringify([report.server ?? null, baseline.profile, candidate.profile]);
    const before = previous.get(pair);
    // A report written before the features were read has none: only the tools are compared then.
    const featureDrift = before?.features !== undefined && features !== undefined && before.features !== features;
    const drift = !before || before.hash === null || hash === null ? null : before.hash !== hash || featureDrift;
    previous.set(pair, { hash, features });
    return {
      file,
      startedAt: report.startedAt,
      baseline: baseline.profile,
      candidate: candidate.profile,
      verdict: decision.verdict,
      addedTools: diff.summary.addedTools,
      removedTools: diff.summary.removedTools,
      breaking: diff.summary.breaking ?? diff.changes.filter((c) => c.severity === 'breaking').length,
      brokenCases: candidate.cases.failed,
      toolCount: candidate.toolCount,
      contractHash: hash,
      drift,
      page,
    };
  });
}

/** `sha256:0123…` -> the first 12 hex digits, enough to tell contracts apart in a table. */
export const shortHash = (hash: string | null): string => (hash ? hash.replace(/^sha256:/, '').slice(0, 12) : '-');

/** `2026-11-22T02:56:50.123Z` -> `2026-11-22 02:56:50Z`. */
export const shortTime = (iso: string): string => iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
