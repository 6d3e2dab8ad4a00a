import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { SideUnavailableError } from '../connect/errors.js';
import { finding } from '../findings/finding.js';
import type { Finding } from '../findings/types.js';
import type { Profile } from '../config/types.js';
import { readReport } from './read.js';
import type { BaselineFallback } from '../contract/types.js';
import { isBundleSummaryName } from './write.js';
import { emptyContract, type OpenSide } from '../contract/open-side.js';
import type { Contract } from '../contract/types.js';

/**
 * A baseline whose server cannot start (a broken release) would block the gating of its own fix:
 * exit 3 on every run. A profile may name what stands in then: `last-report`, the contract the
 * same baseline profile had in the newest saved report where it started; or `empty`, an empty
 * server. Either is a comparison with something other than the release in production, so it is
 * said in every format and holds the run (`baseline-fallback`) for a person to look.
 */
export function fallbackBaseline(
  profile: Profile,
  failure: SideUnavailableError,
  reportsDir: string,
  server: string | null,
  cwd: string,
): OpenSide | null {
  const kind = profile.transport === 'snapshot' ? undefined : profile.fallback;
  if (!kind) return null;
  const reason = { phase: failure.phase, message: failure.message };
  const saved = kind === 'last-report' ? lastContract(reportsDir, profile.name, server, cwd) : null;
  if (kind === 'last-report' && !saved) return null;
  const fallback: BaselineFallback = { kind, report: saved?.file ?? null, reason };
  return {
    side: 'baseline',
    profile,
    contract: saved?.contract ?? emptyContract(),
    session: null,
    timing: { connectMs: 0, discoverMs: 0 },
    fallback,
  };
}

/**
 * The baseline contract of the newest saved report of this profile (and server, in a bundle) whose
 * baseline started: report names begin with their UTC start, so the last name is the newest. A
 * report that itself ran on a fallback is passed over, and so is a file that is not a readable report.
 */
function lastContract(dir: string, profile: string, server: string | null, cwd: string): { contract: Contract; file: string } | null {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json') && !isBundleSummaryName(n));
  } catch {
    return null;
  }
  for (const name of names.sort().reverse()) {
    try {
      const report = readReport(join(dir, name), cwd);
      const side = report.baseline;
      if (side.profile !== profile || (report.server ?? null) !== server || !side.available || side.fallback) continue;
      const contract: Contract = {
        server: side.server,
        tools: side.tools,
        hash: side.contractHash ?? '',
        discovery: side.discovery,
        ...(side.features && { features: side.features }),
      };
      return { contract, file: relative(cwd, join(dir, name)) || name };
    } catch {
      // not a report this build reads: the next one
    }
  }
  return null;
}

/** Why no fallback stood in, for the exit-3 message: the setting that would, where the profile has none. */
export function noFallbackNote(profile: Profile, reportsDir: string): string {
  if (profile.transport === 'snapshot' || profile.fallback === 'empty') return '';
  // The default: say what a person can do, since a release that does not start blocks the gating of its own fix.
  if (profile.fallback === undefined)
    return `; the profile sets no fallback: \`fallback: last-report\` lets the contract the last saved report read of it stand in, held for a person (docs/baselines.md, "A baseline that cannot start")`;
  return `; its fallback, last-report, found no saved report in ${reportsDir} where baseline profile "${profile.name}" started`;
}

/** Judged as the run's own (signals read candidate-side findings), like gate-policy-changed. */
export const fallbackFinding = (profile: string, fallback: BaselineFallback): Finding =>
  finding('baseline-fallback', { profile, ...fallback }, { side: 'candidate' });
