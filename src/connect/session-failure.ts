import { ProtocolError } from '@modelcontextprotocol/client';
import { describe, likelyCause } from '../base/error-text.js';
import { networkFailure, type Phase } from './errors.js';
import { RemoteTransport } from './http-transport.js';
import { initializeHint } from './protocol-versions.js';
import { RESULT_TOO_LARGE, type GroupStdioTransport } from './stdio-transport.js';

/** A failed request of a session in the gate's words, before the session scrubs it (session.ts). */
interface FailureText {
  message: string;
  timedOut: boolean;
  /** The JSON-RPC code the server answered with, if it answered. */
  rpcCode?: number;
}

/**
 * What a failed request says: the reason a server that exited gave (`likelyCause`), a hint for a
 * known `initialize` failure, the endpoint a remote side could not reach, or the config key of a
 * timeout; then what the server answered when it refused, and its fault or exit. It reads the
 * transport, so call it before the transport is closed.
 */
export function failureText(phase: Phase, error: unknown, transport: GroupStdioTransport | RemoteTransport): FailureText {
  // The v2 SDK's ProtocolError message leaves out the JSON-RPC code the server sent; reports keep it.
  let message = error instanceof ProtocolError ? `MCP error ${error.code}: ${error.message}` : describe(error);
  const timedOut = /timed out|timeout/i.test(message);
  const hint = phase === 'initialize' ? initializeHint(error) : null;
  const unreachable = transport instanceof RemoteTransport ? networkFailure(error) : null;
  // A server that exited saying why (an npm 404, a missing file, an unset variable) failed for that
  // reason, whatever the protocol step it broke: its words win over any guess about the protocol.
  const cause = transport.exit ? likelyCause(transport.stderr.text()) : null;
  if (cause) message = cause;
  else if (hint) message = hint;
  else if (unreachable && transport instanceof RemoteTransport) message = `could not reach ${transport.endpoint}: ${unreachable}`;
  else if (timedOut) {
    const limit = phase === 'initialize' ? `timeouts.startupMs` : `timeouts.requestMs`;
    message = `${phase} timed out (${limit})`;
  }
  // What the server said when it refused, which the SDK's sentence leaves out (a 401's body).
  const refusal = transport instanceof RemoteTransport ? transport.refusal : null;
  if (refusal && !message.includes(refusal)) message = `${message}; the server answered ${refusal}`;
  if (transport.fault) message = `${message}: ${transport.fault}`;
  else if (transport.exit) {
    const { code, signal } = transport.exit;
    message = `${message} (server exited ${signal ? `on ${signal}` : `with code ${code}`})`;
  }
  return { message, timedOut, ...(error instanceof ProtocolError && { rpcCode: error.code }) };
}

/** A tools/call result the transport dropped unread for its size: not a failure of the session. */
export function droppedResult(error: unknown): { droppedBytes: number; droppedReason: string } | null {
  if (!(error instanceof ProtocolError) || error.code !== RESULT_TOO_LARGE) return null;
  const data = error.data as { resultBytes?: unknown } | undefined;
  return typeof data?.resultBytes === 'number'
    ? { droppedBytes: data.resultBytes, droppedReason: error.message.replace(/^MCP error -?\d+: /, '') }
    : null;
}
