import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import * as z from 'zod';
import type { Limits, StdioProfile, Timeouts } from '../config/types.js';
import type { Side } from '../findings/types.js';
import type { ServerIdentity } from '../contract/types.js';
import { launchServer, type LaunchedServer } from './launch.js';
import { SideUnavailableError, type Phase } from './errors.js';
import { GroupStdioTransport } from './stdio-transport.js';
import { GATE_NAME, GATE_VERSION } from '../version.js';
import { describe } from '../error-text.js';

/** Results are parsed leniently: the gate judges them itself, and must see unknown fields. */
const AnyResult = z.unknown();

export interface RawCallResult {
  result: unknown;
  durationMs: number;
}

/** A live MCP session with one server profile. The only stateful piece of the pipeline. */
export class Session {
  private constructor(
    readonly side: Side,
    private readonly client: Client,
    private readonly transport: GroupStdioTransport,
    private readonly timeouts: Timeouts,
  ) {}

  /** `launched`: the server process, when the caller started it already (see launch.ts). */
  static async open(side: Side, profile: StdioProfile, timeouts: Timeouts, limits: Limits, track: (session: Session) => void = () => undefined, launched?: LaunchedServer): Promise<Session> {
    const transport = new GroupStdioTransport({
      maxMessageBytes: limits.maxMessageBytes,
      killGraceMs: timeouts.killGraceMs,
    }, launched ?? launchServer(side, profile, limits.stderrTailBytes));
    const client = new Client({ name: GATE_NAME, version: GATE_VERSION }, { capabilities: {} });
    const session = new Session(side, client, transport, timeouts);
    track(session); // before start: whoever holds the run deadline can end a server still starting
    try {
      await transport.start();
    } catch (error) {
      await transport.close();
      throw new SideUnavailableError(side, 'spawn', `could not start \`${profile.command}\`: ${describe(error)}`);
    }
    try {
      await client.connect(transport, { timeout: timeouts.startupMs });
    } catch (error) {
      throw await session.failure('initialize', error);
    }
    return session;
  }

  identity(): ServerIdentity {
    const info = this.client.getServerVersion();
    return {
      name: info?.name ?? null,
      version: info?.version ?? null,
      protocolVersion: this.transport.protocolVersion,
      instructions: this.client.getInstructions() ?? null,
    };
  }

  get stderrTail(): string {
    return this.transport.stderr.text();
  }

  get stderrDroppedBytes(): number {
    return this.transport.stderr.dropped;
  }

  get stdoutNoise(): { lines: number; samples: string[] } {
    return this.transport.noise;
  }

  /** One raw request. Failures become SideUnavailableError carrying the phase and stderr tail. */
  async request(phase: Phase, method: string, params: Record<string, unknown>): Promise<RawCallResult> {
    const started = performance.now();
    try {
      const result = await this.client.request({ method, params } as never, AnyResult, { timeout: this.timeouts.requestMs });
      return { result, durationMs: Math.round(performance.now() - started) };
    } catch (error) {
      throw await this.failure(phase, error);
    }
  }

  async close(): Promise<void> {
    await this.transport.close();
  }

  private async failure(phase: Phase, error: unknown): Promise<SideUnavailableError> {
    let message = describe(error);
    if (/timed out|timeout/i.test(message)) {
      const limit = phase === 'initialize' ? `timeouts.startupMs` : `timeouts.requestMs`;
      message = `${phase} timed out (${limit})`;
    }
    if (this.transport.fault) message = `${message}: ${this.transport.fault}`;
    else if (this.transport.exit) {
      const { code, signal } = this.transport.exit;
      message = `${message} (server exited ${signal ? `on ${signal}` : `with code ${code}`})`;
    }
    if (phase === 'initialize') await this.transport.close();
    return new SideUnavailableError(this.side, phase, message, this.transport.stderr.text());
  }
}

