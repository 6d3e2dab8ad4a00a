import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { LaunchedServer } from './launch.js';
import { endGroup, type SpawnedGroup } from './process-group.js';
import type { StreamTail } from './stderr-tail.js';

export interface StdioLimits {
  /** A single stdout line longer than this ends the session: the server is flooding. */
  maxMessageBytes: number;
  /** How long the group gets between SIGTERM and SIGKILL. */
  killGraceMs: number;
}

/**
 * The SDK's stdio framing (newline-delimited JSON-RPC), over a child that leads its own process
 * group. Unlike the SDK's StdioClientTransport it tolerates non-JSON lines on stdout (counted as
 * protocol noise), bounds line size, keeps a stderr tail, and ends the whole group on close.
 */
export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly stderr: StreamTail;
  /** Lines on stdout that were not JSON-RPC messages, with the first few kept as samples. */
  readonly noise = { lines: 0, samples: [] as string[] };
  /** Set when the transport ended the session itself, e.g. for an oversized message. */
  fault: string | null = null;
  protocolVersion: string | null = null;
  exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;

  private attached = false;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private discarding = false;
  private closed = false;

  private readonly group: SpawnedGroup;

  /** `server`: the process, already started and read from (launch.ts); stdout reaches the session once started. */
  constructor(private readonly limits: StdioLimits, private readonly server: LaunchedServer) {
    this.group = server.group;
    this.stderr = server.stderr;
  }

  /** Idempotent: the gate calls it first (to tell spawn errors apart), then the SDK calls it again. */
  async start(): Promise<void> {
    const group = this.group;
    if (!this.attached) {
      this.attached = true;
      this.server.readStdout((chunk) => this.onStdout(chunk));
      group.child.stdin!.on('error', () => undefined); // EPIPE after the server died: close() reports it
      void group.exited.then((exit) => {
        this.exit = exit;
        this.finish();
      });
    }
    await group.spawned;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.group.child.stdin;
    if (!stdin || this.closed || stdin.destroyed) throw new Error('the server process is not running');
    await new Promise<void>((resolve, reject) => {
      stdin.write(serializeMessage(message), (error) => (error ? reject(error) : resolve()));
    });
  }

  async close(): Promise<void> {
    const pid = this.group.child.pid;
    this.group.child.stdin?.end();
    if (pid) await endGroup(pid, this.limits.killGraceMs, this.group.exited);
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  private onStdout(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      this.take(chunk.subarray(start, newline));
      this.flushLine();
      start = newline + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
  }

  private take(part: Buffer): void {
    if (this.discarding) return;
    this.pendingBytes += part.length;
    if (this.pendingBytes > this.limits.maxMessageBytes) {
      this.discarding = true;
      this.pending = [];
      this.fault = `a message from the server exceeded limits.maxMessageBytes (${this.limits.maxMessageBytes} bytes)`;
      this.onerror?.(new Error(this.fault));
      void this.close();
      return;
    }
    this.pending.push(part);
  }

  private flushLine(): void {
    const line = Buffer.concat(this.pending).toString('utf8').replace(/\r$/, '');
    this.pending = [];
    this.pendingBytes = 0;
    if (this.discarding) {
      this.discarding = false;
      return;
    }
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch {
      this.noise.lines += 1;
      if (this.noise.samples.length < 3) this.noise.samples.push(line.slice(0, 200));
      return;
    }
    this.onmessage?.(message);
  }
}
