import type { SideUnavailableError } from '../connect/errors.js';
import { finding } from '../findings/finding.js';
import { onTool, SERVER } from '../findings/subject.js';
import type { Finding } from '../findings/types.js';
import type { Contract } from './types.js';

/**
 * Discovery problems as `protocol-violation` findings on each side. A candidate problem that the
 * baseline has too is pre-existing (`regression: false`): reported, not held against the candidate.
 */
export function discoveryFindings(baseline: Contract, candidate: Contract | null): Finding[] {
  const known = new Set(baseline.discovery.errors.map((e) => e.message));
  const violation = (e: Contract['discovery']['errors'][number]) => ({ problem: e.message });
  const about = (e: Contract['discovery']['errors'][number]) => (e.tool === null ? SERVER : onTool(e.tool));
  const findings = baseline.discovery.errors.map((e) =>
    finding('protocol-violation', violation(e), { side: 'baseline', subject: about(e) }),
  );
  for (const e of candidate?.discovery.errors ?? [])
    findings.push(finding('protocol-violation', violation(e), { side: 'candidate', subject: about(e), regression: !known.has(e.message) }));
  return findings;
}

export const unavailableFinding = (error: SideUnavailableError): Finding =>
  finding('candidate-unavailable', { phase: error.phase, message: error.message }, { side: 'candidate' });
