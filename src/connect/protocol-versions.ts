import { ErrorCode, McpError, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { describe } from '../error-text.js';

/**
 * The protocol revisions the gate's MCP client (the SDK's Client) can negotiate. All of them start
 * with `initialize`; the 2026 revision of the spec drops that handshake, and this SDK cannot speak it.
 */
const GATE_PROTOCOL_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;

const README_SECTION = 'docs/http.md, "Protocol versions"';

/**
 * A clearer message for two initialize failures that mean "this server speaks a protocol revision
 * the gate cannot": an unsupported version in the answer, and no `initialize` method at all.
 * Null for any other failure.
 */
export function initializeHint(error: unknown): string | null {
  const message = describe(error);
  const unsupported = /protocol version is not supported: (.+)$/.exec(message);
  if (unsupported) {
    const version = unsupported[1]!.trim();
    const newer = /^(DRAFT-)?20(2[6-9]|[3-9]\d)/.test(version)
      ? ' A server that speaks only the 2026 revision of the spec cannot be gated yet.'
      : '';
    return `the server answered initialize with protocol version "${version}", which the gate's MCP client does not speak (it speaks ${GATE_PROTOCOL_VERSIONS.join(', ')}).${newer} See ${README_SECTION}.`;
  }
  if (error instanceof McpError && error.code === ErrorCode.MethodNotFound) {
    return `the server does not implement initialize (${message}). It may speak only the 2026 revision of the spec, which drops the initialize handshake; the gate's MCP client needs it (it speaks ${GATE_PROTOCOL_VERSIONS.join(', ')}). See ${README_SECTION}.`;
  }
  return null;
}
