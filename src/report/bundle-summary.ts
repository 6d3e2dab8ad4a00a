import type { Decision, Reason, Verdict } from '../decide/decide.js';

/**
 * The bundle summary, a kind of document the format table renders (formats.ts), beside a server's
 * report and the history: bundle/ makes it (`summarizeBundle`), report/ renders it, and report/
 * imports nothing from bundle/.
 */
export const BUNDLE_SCHEMA_VERSION = 1;

/** One server of a bundle: what its own gate decided, or why it could not decide. */
export interface ServerSummary {
  name: string;
  status: 'decided' | 'undecided';
  verdict: Verdict | null;
  baseline: string | null;
  candidate: string | null;
  reasons: Reason[];
  /** Why the server is undecided (its baseline unreachable, a bad dataset, no report to merge). */
  error: string | null;
  /** The server's report, relative to the working directory; null when none was written. */
  report: string | null;
  /** Set when an approve label turned this server's Hold or Rollback into Promote. */
  approval?: Decision['approval'];
  /** Set when the label is on the PR but does not cover this server's findings. */
  staleApproval?: Decision['staleApproval'];
}

/** A tool name that more than one server of a bundle exposes on its candidate. */
export interface Collision {
  tool: string;
  /** The servers whose candidates expose it, sorted. */
  servers: string[];
  /** False when two of those servers' baselines exposed it already: reported, not judged. */
  regression: boolean;
}

/** The bundle summary file (`<stamp>-bundle.json`, schemas/bundle.schema.json). */
export interface BundleSummary {
  schemaVersion: typeof BUNDLE_SCHEMA_VERSION;
  kind: 'bundle';
  generatedBy: { name: string; version: string };
  startedAt: string;
  finishedAt: string;
  config: string | null;
  /** The worst verdict of the servers and of the bundle's own findings; null when undecided. */
  verdict: Verdict | null;
  decided: boolean;
  /** Sorted by name, so `run` and `merge` of the same reports give the same summary. */
  servers: ServerSummary[];
  collisions: Collision[];
  /** What the bundle itself decided: cross-server findings only (each server's reasons are under servers). */
  decision: Pick<Decision, 'verdict' | 'reasons' | 'exceptionsApplied'>;
}
