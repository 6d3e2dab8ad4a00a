import type { ServerIdentity } from '../contract/types.js';

/**
 * A side's negotiated revision with its era, as the text, markdown and HTML reports show it:
 * `2025-11-25 (legacy era)`. A report written before the gate spoke both eras has no era: the
 * revision alone. Empty when the side negotiated nothing.
 */
export function protocolLabel(server: Pick<ServerIdentity, 'protocolVersion' | 'era'>): string {
  if (!server.protocolVersion) return '';
  return server.era ? `${server.protocolVersion} (${server.era} era)` : server.protocolVersion;
}
