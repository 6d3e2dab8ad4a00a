import { CODES, type FindingCode, type FindingFacts } from './codes.js';
import type { FindingMeta } from './codes/meta.js';
import { SERVER, toolOf } from './subject.js';
import type { Finding } from './types.js';

/**
 * Where a finding was seen: its side and what it is about (the server when no subject is given),
 * and what the check adds beside the facts: the case whose probe showed it, the place in the result,
 * the client or the role it concerns, whether it is new, and where it comes from in the repository.
 */
export type Occurrence = Pick<Finding, 'side'> &
  Partial<Pick<Finding, 'subject' | 'caseId' | 'path' | 'keyword' | 'client' | 'role' | 'regression' | 'direction' | 'source'>>;

/**
 * Builds a Finding, the only way findings are made: the severity and the message come from the
 * code's entry (findings/codes) and the facts the check found, the tool from the subject. A finding
 * on a probe's result is told after the case and the tool it called: `TG-001 Incident.Get: …`.
 */
export function finding<C extends FindingCode>(code: C, facts: FindingFacts<C>, at: Occurrence): Finding {
  const meta = CODES[code] as FindingMeta;
  const { side, subject = SERVER, ...beside } = at;
  // A probe of a resource names its URI where a tool's probe names the tool, as `Probe.tool` does.
  const tool = subject.kind === 'resource' ? subject.uri : toolOf(subject);
  const said = meta.message(facts as never);
  return {
    code,
    severity: typeof meta.severity === 'function' ? meta.severity(facts as never) : meta.severity,
    side,
    subject,
    tool,
    ...beside,
    message: at.caseId === undefined ? said : `${at.caseId} ${tool ?? ''}: ${said}`,
  };
}
