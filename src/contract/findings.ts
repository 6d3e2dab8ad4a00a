import type { SideUnavailableError } from '../connect/errors.js';
import { finding } from '../findings/finding.js';
import { onTool, SERVER } from '../findings/subject.js';
import type { Finding } from '../findings/types.js';
import type { Contract } from './types.js';

/**
 * A problem's kind, for comparing the two sides: paths (each side has its own HOME and folders,
 * which the server's error text names), counts and the sample of stray output left out; a method
 * such as `resources/list` is no path, since no space or quote comes before it.
 */
const kindOf = (message: string): string =>
  message
    .replace(/, e\.g\. .*$/s, '')
    .replace(/(?<=^|[\s'"(=])(?:[A-Za-z]:)?(?:[\\/][^\s'"\\/]+)+/g, '<path>')
    .replace(/\d+/g, '#');

/**
 * Discovery problems as `protocol-violation` findings on each side. A candidate problem of a kind
 * the baseline has too is pre-existing (`regression: false`): reported, not held against the candidate.
 */
export function discoveryFindings(baseline: Contract, candidate: Contract | null): Finding[] {
  const known = new Set(baseline.discovery.errors.map((e) => kindOf(e.message)));
  const violation = (e: Contract['discovery']['errors'][number]) => ({ problem: e.message });
  const about = (e: Contract['discovery']['errors'][number]) => (e.tool === null ? SERVER : onTool(e.tool));
  const findings = baseline.discovery.errors.map((e) =>
    finding('protocol-violation', violation(e), { side: 'baseline', subject: about(e) }),
  );
  for (const e of candidate?.discovery.errors ?? [])
    findings.push(
      finding('protocol-violation', violation(e), { side: 'candidate', subject: about(e), regression: !known.has(kindOf(e.message)) }),
    );
  return findings;
}

export const unavailableFinding = (error: SideUnavailableError): Finding =>
  finding('candidate-unavailable', { phase: error.phase, message: error.message }, { side: 'candidate' });
