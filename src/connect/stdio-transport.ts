import { redact } from '../base/secrets.js';
import { serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { endGroup, spawnGroup, type SpawnedGroup } from './process-group.js';
import { adopt } from './prelaunch.js';
import { StreamTail } from './stderr-tail.js';
import type { LaunchSpec } from './environment.js';

/** The JSON-RPC error code the gate answers a tools/call with when it dropped the result for its size. */
import { RESULT_TOO_LARGE } from './byte-budget.js';
import { isObject } from '../base/json-object.js';

export { RESULT_TOO_LARGE };

/** How long a failed write waits for the server's exit status, to report that instead of EPIPE. */
const EXIT_WAIT_MS = 1000;

/** How much of a dropped line's start and end is kept, to find its JSON-RPC id. */
const EDGE_BYTES = 256;
const ID = String.raw`"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")`;
const ID_AT_START = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?` + ID);
const ID_AT_END = new RegExp(ID + String.raw`\s*\}\s*$`);

/** The id of a JSON-RPC message from the edges of its line, when the id sits at either end. */
export function idFromEdges(head: string, tail: string): string | number | undefined {
  const match = ID_AT_START.exec(head) ?? ID_AT_END.exec(tail);
  if (!match) return undefined;
  const raw = match[1]!;
  return raw.startsWith('"') ? (JSON.parse(raw) as string) : Number(raw);
}

const isId = (value: unknown) => typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));

/** `_meta`, when present, is an object (its own fields are the SDK's business). */
const metaOk = (holder: unknown) => !isObject(holder) || holder._meta === undefined || isObject(holder._meta);
const onlyKeys = (value: Record<string, unknown>, allowed: readonly string[]) => Object.keys(value).every((key) => allowed.includes(key));

/**
 * A line as a JSON-RPC 2.0 message, or null when it is not one (protocol noise). The rules of the
 * SDK's JSONRPCMessageSchema, strict top-level keys included, checked by hand: this runs for every
 * line a server writes, and the zod parse cost more than the rest of the transport together.
 */
export function parseMessage(line: string): JSONRPCMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isObject(value) || value.jsonrpc !== '2.0') return null;
  let valid: boolean;
  if ('method' in value) {
    valid =
      typeof value.method === 'string' &&
      (value.params === undefined || isObject(value.params)) &&
      metaOk(value.params) &&
      ('id' in value
        ? isId(value.id) && onlyKeys(value, ['jsonrpc', 'id', 'method', 'params'])
        : onlyKeys(value, ['jsonrpc', 'method', 'params']));
  } else if ('result' in value) {
    valid = isId(value.id) && isObject(value.result) && metaOk(value.result) && onlyKeys(value, ['jsonrpc', 'id', 'result']);
  } else {
    const error = value.error;
    valid =
      (value.id === undefined || isId(value.id)) &&
      isObject(error) &&
      Number.isSafeInteger(error.code) &&
      typeof error.message === 'string' &&
      onlyKeys(value, ['jsonrpc', 'id', 'error']);
  }
  return valid ? (value as JSONRPCMessage) : null;
}

/** A server's launch (environment.ts), with the bounds its session keeps. */
export interface StdioLaunch extends LaunchSpec {
  /**
   * A stdout line longer than this is never held in memory. If it is the answer to a tools/call it
   * becomes a "result too large" error for that call; otherwise it ends the session.
   */
  maxMessageBytes: number;
  /** All the bytes the server may write to stdout over the run; past it the session ends. */
  maxSideBytes: number;
  /** A tools/call result longer than this is dropped, and its call fails with RESULT_TOO_LARGE. */
  maxResultBytes: number;
  stderrTailBytes: number;
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

  private group: SpawnedGroup | null = null;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** While a line over maxMessageBytes streams past: its first and last bytes, for the id. */
  private dropped: { head: Buffer; tail: Buffer } | null = null;
  /** Ids of tools/call requests in flight: their answers are held to maxResultBytes. */
  private readonly calls = new Set<string | number>();
  private closed = false;

  constructor(private readonly launch: StdioLaunch) {
    this.stderr = new StreamTail(launch.stderrTailBytes);
  }

  /** Idempotent: the gate starts the process itself (to tell spawn errors apart), then the SDK calls start() again. */
  async start(): Promise<void> {
    if (this.group) return this.group.spawned;
    const { command, args, cwd, env, gateEnv } = this.launch;
    // A server started ahead (prelaunch.ts) is taken over with its output so far; otherwise spawn now.
    let group = adopt(this.launch, { stdout: (chunk) => this.onStdout(chunk), stderr: this.stderr });
    if (!group) {
      group = spawnGroup(command, args, { cwd, env, gateEnv });
      group.child.stdout!.on('data', (chunk: Buffer) => this.onStdout(chunk));
      group.child.stderr!.on('data', (chunk: Buffer) => this.stderr.push(chunk));
    }
    this.group = group;
    group.child.stdin!.on('error', () => undefined); // EPIPE after the server died: close() reports it
    void group.exited.then((exit) => {
      this.exit = exit;
      this.finish();
    });
    await group.spawned;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  /**
   * The server's process id. Its presence beside `stderr` is how the SDK's client tells a stdio
   * transport from an HTTP one: on stdio, a `server/discover` probe that times out means a legacy
   * server (fall back to `initialize`); over HTTP it means an outage.
   */
  get pid(): number | undefined {
    return this.group?.child.pid;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.group?.child.stdin;
    if (!stdin || this.closed || stdin.destroyed) throw new Error('the server process is not running');
    if ('method' in message && message.method === 'tools/call' && 'id' in message) this.calls.add(message.id);
    // Messages sent in the same tick (cases in flight) go out in one write: fewer wake-ups for both sides.
    if (!stdin.writableCorked) {
      stdin.cork();
      process.nextTick(() => stdin.uncork());
    }
    await new Promise<void>((resolve, reject) => {
      stdin.write(serializeMessage(message), (error) => {
        if (!error) return resolve();
        // EPIPE: the server is gone. Its exit (code, signal) usually follows within a tick, and it
        // is what the report should say, so wait for it briefly before failing the request.
        const exited = this.group?.exited ?? Promise.resolve();
        void Promise.race([exited, new Promise((settle) => setTimeout(settle, EXIT_WAIT_MS).unref())]).then(() => reject(error));
      });
    });
  }

  async close(): Promise<void> {
    const pid = this.group?.child.pid;
    this.group?.child.stdin?.end();
    if (pid) await endGroup(pid, this.launch.killGraceMs, this.group?.exited);
    this.finish();
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  private received = 0;

  private onStdout(chunk: Buffer): void {
    if (this.fault) return;
    this.received += chunk.length;
    if (this.received > this.launch.maxSideBytes) {
      this.fault = `the server sent more than limits.maxSideBytes (${this.launch.maxSideBytes} bytes) over the run`;
      this.pending = [];
      this.onerror?.(new Error(this.fault));
      void this.close();
      return;
    }
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      this.take(chunk.subarray(start, newline));
      this.flushLine();
      start = newline + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
  }

  private take(part: Buffer): void {
    this.pendingBytes += part.length;
    if (this.dropped) {
      this.dropped.tail = lastBytes(Buffer.concat([this.dropped.tail, lastBytes(part)]));
      return;
    }
    this.pending.push(part);
    if (this.pendingBytes > this.launch.maxMessageBytes) {
      const whole = Buffer.concat(this.pending);
      this.dropped = { head: whole.subarray(0, EDGE_BYTES), tail: lastBytes(whole) };
      this.pending = [];
    }
  }

  private flushLine(): void {
    const bytes = this.pendingBytes;
    const dropped = this.dropped;
    const line = dropped ? '' : Buffer.concat(this.pending).toString('utf8').replace(/\r$/, '');
    this.pending = [];
    this.pendingBytes = 0;
    this.dropped = null;
    if (dropped) {
      const id = idFromEdges(dropped.head.toString('utf8'), dropped.tail.toString('utf8'));
      if (id !== undefined && this.calls.has(id)) this.tooLarge(id, bytes);
      else this.endForSize();
      return;
    }
    if (line.trim() === '') return;
    const message = parseMessage(line);
    if (!message) {
      this.noise.lines += 1;
      if (this.noise.samples.length < 3) this.noise.samples.push(redact(line).slice(0, 200)); // redacted before it is cut
      return;
    }
    const id = 'id' in message && !('method' in message) ? message.id : undefined;
    if (id !== undefined && this.calls.has(id) && bytes > this.launch.maxResultBytes) return this.tooLarge(id, bytes);
    if (id !== undefined) this.calls.delete(id);
    this.onmessage?.(message);
  }

  /** Answers the call in place of the server: the result was dropped unread, the session goes on. */
  private tooLarge(id: string | number, bytes: number): void {
    this.calls.delete(id);
    const { maxResultBytes, maxMessageBytes } = this.launch;
    const [key, limit] = maxResultBytes <= maxMessageBytes ? ['maxResultBytes', maxResultBytes] : ['maxMessageBytes', maxMessageBytes];
    const message = `the result (${bytes} bytes) exceeded limits.${key} (${limit} bytes) and was dropped unread`;
    this.onmessage?.({ jsonrpc: '2.0', id, error: { code: RESULT_TOO_LARGE, message, data: { resultBytes: bytes, limitBytes: limit } } });
  }

  private endForSize(): void {
    this.fault = `a message from the server exceeded limits.maxMessageBytes (${this.launch.maxMessageBytes} bytes)`;
    this.onerror?.(new Error(this.fault));
    void this.close();
  }
}

const lastBytes = (buffer: Buffer): Buffer => (buffer.length > EDGE_BYTES ? buffer.subarray(buffer.length - EDGE_BYTES) : buffer);
