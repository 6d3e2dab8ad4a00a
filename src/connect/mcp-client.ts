import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * The protocol versions the gate speaks, newest first: the SDK's own list (a unit test keeps them
 * equal). Written out because importing them from the SDK loads its zod schemas.
 */
export const LATEST_PROTOCOL_VERSION = '2025-11-25';
export const SUPPORTED_PROTOCOL_VERSIONS = [LATEST_PROTOCOL_VERSION, '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];

/** A JSON-RPC error, worded as the SDK words it ("MCP error -32603: ..."), so messages stay the same. */
export class McpError extends Error {
  constructor(readonly code: number, detail: string, readonly data?: unknown) {
    super(`MCP error ${code}: ${detail}`);
  }
}

const CONNECTION_CLOSED = -32000;
const REQUEST_TIMEOUT = -32001;
const METHOD_NOT_FOUND = -32601;

interface Pending {
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The client half of an MCP session, and only what the gate needs: the initialize handshake,
 * requests with a timeout, and polite answers to requests from the server (ping; anything else is
 * "method not found", as the SDK's Client answers without handlers). It replaces the SDK's Client,
 * whose import (zod schemas for the whole protocol) cost more than the rest of the gate.
 */
export class McpClient {
  serverInfo: { name: string; version: string } | null = null;
  instructions: string | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private closed = false;

  constructor(private readonly transport: Transport, private readonly clientInfo: { name: string; version: string }) {
    transport.onmessage = (message) => this.onMessage(message);
    transport.onclose = () => this.onClose();
  }

  /** initialize, check the version the server chose, then notifications/initialized. */
  async connect(timeoutMs: number): Promise<void> {
    await this.transport.start();
    const result = await this.request('initialize', { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: this.clientInfo }, timeoutMs);
    if (!isRecord(result) || typeof result.protocolVersion !== 'string' || !isRecord(result.capabilities) || !isRecord(result.serverInfo)
      || typeof result.serverInfo.name !== 'string' || typeof result.serverInfo.version !== 'string') {
      throw new Error('the initialize result lacks protocolVersion, capabilities or serverInfo {name, version}');
    }
    if (!SUPPORTED_PROTOCOL_VERSIONS.includes(result.protocolVersion)) {
      throw new Error(`Server's protocol version is not supported: ${result.protocolVersion}`);
    }
    this.serverInfo = { name: result.serverInfo.name, version: result.serverInfo.version };
    this.instructions = typeof result.instructions === 'string' ? result.instructions : null;
    this.transport.setProtocolVersion?.(result.protocolVersion);
    await this.transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  /** One request; rejects with McpError on an error response, a timeout or the end of the connection. */
  request(method: string, params: Record<string, unknown>, timeoutMs: number): Promise<unknown> {
    if (this.closed) return Promise.reject(new McpError(CONNECTION_CLOSED, 'Connection closed'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        // Tell the server to stop; it may already be gone, which is fine.
        this.transport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'Request timed out' } }).catch(() => undefined);
        reject(new McpError(REQUEST_TIMEOUT, 'Request timed out', { timeout: timeoutMs }));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.transport.send({ jsonrpc: '2.0', id, method, params }).catch((error: Error) => this.settle(id, () => reject(error)));
    });
  }

  private settle(id: number, finish: (pending: Pending) => void): void {
    const pending = this.pending.get(id);
    if (!pending) return; // a response to nothing we asked (or asked and gave up on)
    this.pending.delete(id);
    clearTimeout(pending.timer);
    finish(pending);
  }

  private onMessage(message: JSONRPCMessage): void {
    if ('method' in message) {
      if ('id' in message) {
        const reply = message.method === 'ping'
          ? { jsonrpc: '2.0' as const, id: message.id, result: {} }
          : { jsonrpc: '2.0' as const, id: message.id, error: { code: METHOD_NOT_FOUND, message: 'Method not found' } };
        this.transport.send(reply).catch(() => undefined);
      }
      return; // notifications (logging, progress) carry nothing the gate judges
    }
    if (typeof message.id !== 'number') return;
    if ('error' in message) this.settle(message.id, (p) => p.reject(new McpError(message.error.code, message.error.message, message.error.data)));
    else this.settle(message.id, (p) => p.resolve(message.result));
  }

  private onClose(): void {
    this.closed = true;
    for (const id of [...this.pending.keys()]) this.settle(id, (p) => p.reject(new McpError(CONNECTION_CLOSED, 'Connection closed')));
  }
}
