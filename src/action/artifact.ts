import { lstatSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportProblems } from '../report/read.js';
import { MAX_REPORT_BYTES } from '../report/trim.js';
import { REPORT_SCHEMA_VERSION, type Report } from '../report/types.js';
import type { Verdict } from '../decide/decide.js';

/**
 * The hand-off between the two workflows: the gate job writes it (and the workflow uploads it as
 * an artifact), the comment workflow reads it back. Whatever the gate job wrote, code from the
 * pull request ran beside it, so the comment workflow treats every byte as untrusted: it reads
 * only these names, only regular files, only up to the caps, and only a report that the schema
 * accepts. Nothing read here is posted as it stands; comment-workflow.ts renders it anew.
 */
export const ARTIFACT_FILES = { report: 'report.json', bundle: 'bundle.json', undecided: 'undecided.json' } as const;

/** Caps on what the comment workflow reads (README, docs/github-action.md). */
export const ARTIFACT_CAPS = {
  /**
   * A report past this is refused unread: the bound every report the gate writes keeps to
   * (report/trim.ts), so a large report the gate job wrote is read, and nothing larger is.
   */
  reportBytes: MAX_REPORT_BYTES,
  /** A bundle summary or an undecided note past this is refused unread. */
  smallBytes: 256 * 1024,
  /** The undecided reason is shown up to this many characters. */
  reasonChars: 2_000,
} as const;

export type Artifact =
  | { kind: 'report'; report: Report }
  | { kind: 'bundle'; verdict: Verdict | null }
  | { kind: 'undecided'; reason: string }
  | { kind: 'missing' }
  | { kind: 'invalid'; problems: string[] };

/** The gate side: a fresh folder for this run's hand-off (the `artifact-dir` output). */
export function newArtifactDir(env: NodeJS.ProcessEnv): string {
  return mkdtempSync(join(env.RUNNER_TEMP || tmpdir(), 'mcp-gate-artifact-'));
}

export function writeArtifact(dir: string, artifact: { report: Report } | { bundleVerdict: Verdict | null } | { undecided: string }): void {
  if ('report' in artifact) writeFileSync(join(dir, ARTIFACT_FILES.report), JSON.stringify(artifact.report));
  else if ('bundleVerdict' in artifact)
    writeFileSync(join(dir, ARTIFACT_FILES.bundle), JSON.stringify({ verdict: artifact.bundleVerdict }));
  else writeFileSync(join(dir, ARTIFACT_FILES.undecided), JSON.stringify({ reason: artifact.undecided }));
}

/** A file of the artifact: absent, refused (not a regular file, or past its cap), or its text. */
function readCapped(dir: string, name: string, cap: number): { text: string } | { problem: string } | null {
  const path = join(dir, name);
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return null;
  }
  if (!stat.isFile()) return { problem: `${name} is not a regular file` };
  if (stat.size > cap) return { problem: `${name} is ${stat.size} bytes, past the cap of ${cap}` };
  return { text: readFileSync(path, 'utf8') };
}

function parse(text: string, name: string): { value: unknown } | { problem: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return { problem: `${name} is not JSON` };
  }
}

/** The comment side: what the downloaded artifact holds, checked. More than one kind at once is refused. */
export function readArtifact(dir: string): Artifact {
  const report = readCapped(dir, ARTIFACT_FILES.report, ARTIFACT_CAPS.reportBytes);
  const bundle = readCapped(dir, ARTIFACT_FILES.bundle, ARTIFACT_CAPS.smallBytes);
  const undecided = readCapped(dir, ARTIFACT_FILES.undecided, ARTIFACT_CAPS.smallBytes);
  const present = [report, bundle, undecided].filter(Boolean);
  if (!present.length) return { kind: 'missing' };
  if (present.length > 1)
    return { kind: 'invalid', problems: ['the artifact holds more than one of report.json, bundle.json and undecided.json'] };
  const file = present[0]!;
  if ('problem' in file) return { kind: 'invalid', problems: [file.problem] };
  const name = report ? ARTIFACT_FILES.report : bundle ? ARTIFACT_FILES.bundle : ARTIFACT_FILES.undecided;
  const parsed = parse(file.text, name);
  if ('problem' in parsed) return { kind: 'invalid', problems: [parsed.problem] };
  const value = parsed.value;
  if (undecided) {
    const reason = (value as { reason?: unknown } | null)?.reason;
    if (typeof reason !== 'string') return { kind: 'invalid', problems: [`${name}: reason must be a string`] };
    return { kind: 'undecided', reason: reason.slice(0, ARTIFACT_CAPS.reasonChars) };
  }
  if (bundle) {
    const verdict = (value as { verdict?: unknown } | null)?.verdict;
    if (verdict !== null && verdict !== 'Promote' && verdict !== 'Hold' && verdict !== 'Rollback')
      return { kind: 'invalid', problems: [`${name}: verdict must be Promote, Hold, Rollback or null`] };
    return { kind: 'bundle', verdict };
  }
  const version = (value as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (version !== REPORT_SCHEMA_VERSION) return { kind: 'invalid', problems: [`${name}: schemaVersion must be ${REPORT_SCHEMA_VERSION}`] };
  const problems = reportProblems(value);
  if (problems.length) return { kind: 'invalid', problems: problems.map((p) => `${name} ${p}`) };
  return { kind: 'report', report: value as Report };
}
