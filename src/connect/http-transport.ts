import {
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type JSONRPCMessage,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import type { Exit, LaunchedServer } from './http-launch.js';
import { StreamTail } from './stderr-tail.js';
import { boundedFetch, byteBudget } from './byte-budget.js';

/** How long a polite DELETE of the HTTP session may take at close before the gate moves on. */
const TERMINATE_TIMEOUT_MS = 1_000;

/**
 * The SDK's streamable HTTP or legacy SSE client transport, plus what the gate needs around it:
 * the negotiated protocol version, and the server process when the profile started one (ended
 * with its process group on close).
 */
export class RemoteTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** Never anything: over HTTP there is no stdout to pollute. Kept so sessions read alike. */
  readonly noise = { lines: 0, samples: [] as string[] };
  fault: string | null = null;
  /** The first refusal the server answered (HTTP 400 or more), with the first line of its body. */
  refusal: string | null = null;
  protocolVersion: string | null = null;

  private readonly inner: StreamableHTTPClientTransport | SSEClientTransport;
  private closed = false;
  private closing: Promise<void> | null = null;

  constructor(
    kind: 'http' | 'sse',
    url: URL,
    /** The url as people may see it: from the config, `${VAR}` unexpanded, credentials masked. */
    readonly endpoint: string,
    headers: Record<string, string>,
    readonly server: LaunchedServer | null,
    stderrTailBytes: number,
    limits: { maxMessageBytes: number; maxSideBytes: number; maxResultBytes: number },
  ) {
    const requestInit: RequestInit = { headers };
    // Every response body is counted (src/connect/byte-budget.ts); at a bound the session ends with the reason.
    const fetch = boundedFetch(
      byteBudget(limits),
      (reason) => {
        this.fault ??= reason;
        this.onerror?.(new Error(reason));
        void this.close();
      },
      limits.maxResultBytes,
      (status, text) => {
        const said = text
          .split('\n')
          .find((line) => line.trim())
          ?.trim()
          .slice(0, 300);
        this.refusal ??= `HTTP ${status}${said ? `: ${said}` : ''}`;
      },
    );
    this.inner =
      kind === 'http'
        ? new StreamableHTTPClientTransport(url, { requestInit, fetch })
        : new SSEClientTransport(url, { requestInit, fetch }); // the event stream is read through `fetch` too
    this.emptyTail = new StreamTail(stderrTailBytes);
    this.inner.onmessage = (message: JSONRPCMessage) => this.onmessage?.(message);
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => this.finish();
  }

  private readonly emptyTail: StreamTail;

  /** The started server's stderr; empty for a server the gate only reaches. */
  get stderr(): StreamTail {
    return this.server?.stderr ?? this.emptyTail;
  }

  get exit(): Exit | null {
    return this.server?.exit ?? null;
  }

  /** The SDK skips `initialize` when a transport already has a session id: it must be the inner one. */
  get sessionId(): string | undefined {
    return this.inner instanceof StreamableHTTPClientTransport ? this.inner.sessionId : undefined;
  }

  /** One POST per request on streamable HTTP: the SDK then cancels a 2026-era request by closing its stream. */
  get hasPerRequestStream(): boolean | undefined {
    return this.inner instanceof StreamableHTTPClientTransport ? this.inner.hasPerRequestStream : undefined;
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner instanceof StreamableHTTPClientTransport ? this.inner.send(message, options) : this.inner.send(message);
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    this.inner.setProtocolVersion(version);
  }

  /** Ends the HTTP session (a DELETE, bounded), the connection, then the started server's process group. */
  close(): Promise<void> {
    this.closing ??= this.end();
    return this.closing;
  }

  private async end(): Promise<void> {
    if (this.inner instanceof StreamableHTTPClientTransport && this.inner.sessionId && !this.server?.exit) {
      const terminated = this.inner.terminateSession().catch(() => undefined);
      await Promise.race([terminated, new Promise((resolve) => setTimeout(resolve, TERMINATE_TIMEOUT_MS).unref())]);
    }
    await this.inner.close().catch(() => undefined);
    await this.server?.stop();
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}
