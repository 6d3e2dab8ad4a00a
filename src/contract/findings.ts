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
  if (candidate?.features && !baseline.features) {
    findings.push({
      code: 'features-not-compared',
      severity: 'safe',
      side: 'baseline',
      tool: null,
      message:
        'the baseline snapshot holds tools only (written before mcp-gate read prompts, resources and capabilities): those were not compared, and nothing is taken as removed. Write it again with `mcp-gate snapshot` to compare them.',
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
