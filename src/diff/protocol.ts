import type { ServerIdentity } from '../contract/types.js';
import type { Change } from '../findings/types.js';
import { change } from './change.js';
import { revisionKey } from './revision.js';

/**
 * The negotiated revision went up (safe: newer revisions keep what callers used) or down
 * (dangerous: what the baseline negotiated may be gone). A name the gate cannot order counts as down.
 */
export function diffProtocolVersion(before: ServerIdentity, after: ServerIdentity): Change[] {
  const [b, a] = [before.protocolVersion, after.protocolVersion];
  if (!b || !a || b === a) return [];
  const [kb, ka] = [revisionKey(b), revisionKey(a)];
  const up = kb !== null && ka !== null && ka > kb;
  return [change('protocol-version-changed', up ? 'safe' : 'dangerous', null, '/protocolVersion', b, a)];
}
