import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/client';
import { describe } from '../base/error-text.js';
import { FIRST_MODERN_REVISION } from '../findings/revision.js';

/**
 * The protocol revisions the gate's MCP client (the SDK v2 Client, in `auto` negotiation) speaks:
 * the 2026 revision through `server/discover`, and the 2025-era ones through `initialize`, the
 * fallback for a server that gives no sign of the 2026 revision.
 */
const GATE_PROTOCOL_VERSIONS: readonly string[] = [FIRST_MODERN_REVISION, ...SUPPORTED_PROTOCOL_VERSIONS];

const README_SECTION = 'docs/http.md, "Protocol versions"';

/**
 * A clearer message for two connect failures that mean "this server speaks a protocol revision the
 * gate cannot": an `initialize` answer with a revision the client does not know, and a server that
 * answered neither `server/discover` nor `initialize`. Null for any other failure.
 */
export function initializeHint(error: unknown): string | null {
  const message = describe(error);
  if (
    error instanceof SdkError &&
    error.code === SdkErrorCode.EraNegotiationFailed &&
    /connection closed during the server\/discover probe/.test(message)
  ) {
    return 'the server closed the connection during the server/discover probe; a 2025-era server may exit on any request before initialize, so a second start goes straight to initialize';
  }
  const unsupported = /protocol version is not supported: (.+)$/.exec(message);
  if (unsupported) {
    const version = unsupported[1]!.trim();
    return `the server answered initialize with protocol version "${version}", which the gate's MCP client does not speak (it speaks ${GATE_PROTOCOL_VERSIONS.join(', ')}). See ${README_SECTION}.`;
  }
  if (error instanceof ProtocolError && error.code === ProtocolErrorCode.MethodNotFound) {
    return `the server implements neither server/discover (the ${FIRST_MODERN_REVISION} revision) nor initialize (the 2025 revisions): ${message}. The gate's MCP client speaks ${GATE_PROTOCOL_VERSIONS.join(', ')}. See ${README_SECTION}.`;
  }
  return null;
}
