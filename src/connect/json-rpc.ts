import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * JSON-RPC 2.0 framing for MCP over stdio: one message per line. This mirrors the SDK's strict
 * message schemas (a request, a notification, a result or an error, with no stray keys) without
 * loading the SDK's zod schemas, which cost more to import than the rest of the gate.
 */
const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const isId = (value: unknown) => typeof value === 'string' || Number.isInteger(value);
const onlyKeys = (value: Record<string, unknown>, allowed: readonly string[]) => Object.keys(value).every((k) => allowed.includes(k));

/** The message on a line, or null when the line is not a JSON-RPC 2.0 message (protocol noise). */
export function parseMessage(line: string): JSONRPCMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isRecord(value) || value.jsonrpc !== '2.0') return null;
  if (typeof value.method === 'string') {
    if (value.params !== undefined && !isRecord(value.params)) return null;
    if (value.id === undefined) return onlyKeys(value, ['jsonrpc', 'method', 'params']) ? (value as JSONRPCMessage) : null;
    return isId(value.id) && onlyKeys(value, ['jsonrpc', 'id', 'method', 'params']) ? (value as JSONRPCMessage) : null;
  }
  if ('result' in value) return isId(value.id) && isRecord(value.result) && onlyKeys(value, ['jsonrpc', 'id', 'result']) ? (value as JSONRPCMessage) : null;
  if ('error' in value) {
    const error = value.error;
    const valid = isRecord(error) && Number.isInteger(error.code) && typeof error.message === 'string';
    return valid && (value.id === undefined || isId(value.id)) && onlyKeys(value, ['jsonrpc', 'id', 'error']) ? (value as JSONRPCMessage) : null;
  }
  return null;
}

export const serializeMessage = (message: JSONRPCMessage): string => `${JSON.stringify(message)}\n`;
