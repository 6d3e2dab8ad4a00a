import type { ServerIdentity } from '../contract/types.js';
import type { Change } from '../findings/types.js';
import { change } from './change.js';

/**
 * The negotiated revision went up (safe: newer revisions keep what callers used) or down
 * (dangerous: what the baseline negotiated may be gone). A name the gate cannot order counts as down.
 */
export function diffProtocolVersion(before: ServerIdentity, after: ServerIdentity): Change[] {
  const [b, a] = [before.protocolVersion, after.protocolVersion];
  if (!b || !a || b === a) return [];
  return [change('protocol-version-changed', { kind: 'server', field: 'protocolVersion' }, b, a)];
}
