import type { SideUnavailableError } from '../connect/errors.js';
import type { Finding } from '../findings/types.js';
import type { Contract } from './types.js';

/**
 * Discovery problems as `protocol-violation` findings on each side. A candidate problem that the
 * baseline has too is pre-existing (`regression: false`): reported, not held against the candidate.
 */
export function discoveryFindings(baseline: Contract, candidate: Contract | null): Finding[] {
  const known = new Set(baseline.discovery.errors.map((e) => e.message));
  const findings: Finding[] = baseline.discovery.errors.map((e) => ({
    code: 'protocol-violation',
    severity: 'dangerous',
    side: 'baseline',
    tool: e.tool,
    message: e.message,
  }));
  for (const e of candidate?.discovery.errors ?? []) {
    findings.push({
      code: 'protocol-violation',
      severity: 'dangerous',
      side: 'candidate',
      tool: e.tool,
      message: e.message,
      regression: !known.has(e.message),
    });
  }
  return findings;
}

export function unavailableFinding(error: SideUnavailableError): Finding {
  return {
    code: 'candidate-unavailable',
    severity: 'breaking',
    side: 'candidate',
    tool: null,
    message: `candidate unavailable (${error.phase}): ${error.message}`,
  };
}
