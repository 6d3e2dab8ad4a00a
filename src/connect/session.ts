import type { Client } from '@modelcontextprotocol/client';
import * as z from 'zod';
import type { Limits, RemoteProfile, StdioProfile, Timeouts } from '../config/types.js';
import type { Side } from '../findings/types.js';
import { InputError } from '../base/problems.js';
import { launchSpecOf } from './environment.js';
import type { SideDirs } from './side-dirs.js';
import { SideUnavailableError, type Phase } from './errors.js';
import { LaunchedServer } from './http-launch.js';
import { RemoteTransport } from './http-transport.js';
import { Redactor, describeUrl } from './redact.js';
import { notReadyMessage, resolveRemote } from './remote-profile.js';
import { GroupStdioTransport } from './stdio-transport.js';
import { endedByProbe, newClient } from './sdk-client.js';
import { droppedResult, failureText } from './session-failure.js';
import { describe, likelyCause } from '../base/error-text.js';
import type { ProtocolEra } from '../findings/revision.js';

/** What a server says about itself in its `initialize` or `server/discover` result. */
export interface ServerIdentity {
  name: string | null;
  version: string | null;
  protocolVersion: string | null;
  instructions: string | null;
  /**
   * How the session was opened: `modern` through `server/discover` (2026-07-28 and later), `legacy`
   * through `initialize`. Absent in reports and snapshots written before the gate spoke both eras.
   */
  era?: ProtocolEra | null;
}

/** Results are parsed leniently: the gate judges them itself, and must see unknown fields. */
const AnyResult = z.unknown();

export interface RawCallResult {
  result: unknown;
  durationMs: number;
}

/** A tools/call answer; `droppedBytes` is set when the result was over the byte cap and dropped unread. */
export interface ToolCallResult extends RawCallResult {
  droppedBytes?: number;
  droppedReason?: string;
}

/**
 * Some 2025-era stdio servers exit on any request before `initialize`, so the `server/discover`
 * probe ends them. The SDK starts such a server again only for its own stdio transport; the gate's
 * is its own, so the SDK gives up. The side then failed while starting, and the pipeline starts it
 * once more (pipeline.ts, reported as `side.retried`): that start goes straight to `initialize`.
 */
const probeEndedServer = new WeakSet<StdioProfile>();

/** A live MCP session with one server profile. The only stateful piece of the pipeline. */
export class Session {
  private constructor(
    readonly side: Side,
    private readonly client: Client,
    private readonly transport: GroupStdioTransport | RemoteTransport,
    private readonly timeouts: Timeouts,
    /** Scrubs the credentials a remote profile sends out of everything the server says back. */
    private readonly redactor: Redactor,
    /** The stdio profile this session started, to remember a server the discover probe ended. */
    private readonly stdioProfile: StdioProfile | null = null,
  ) {}

  static async open(
    side: Side,
    profile: StdioProfile | RemoteProfile,
    timeouts: Timeouts,
    limits: Limits,
    /** The gate's own environment, as the entry point read it: `${VAR}` references expand from it, and a server's safe set comes from it. */
    env: NodeJS.ProcessEnv,
    track: (session: Session) => void = () => undefined,
    /** The side's own TMPDIR and HOME (connect/side-dirs.ts); null: the gate's. */
    dirs: SideDirs | null = null,
    /** A 2025-era session whose `initialize` offers this revision (sdk-client.ts); null: the gate's own negotiation. */
    legacyAt: string | null = null,
  ): Promise<Session> {
    // An unset variable is a config problem (exit 3), whichever side it is on: it says nothing about the server.
    if (profile.unresolved.length) throw new InputError(profile.unresolved);
    return profile.transport === 'stdio'
      ? Session.openStdio(side, profile, timeouts, limits, env, track, dirs, legacyAt)
      : Session.openRemote(side, profile, timeouts, limits, env, track, dirs, legacyAt);
  }

  private static async openStdio(
    side: Side,
    profile: StdioProfile,
    timeouts: Timeouts,
    limits: Limits,
    env: NodeJS.ProcessEnv,
    track: (session: Session) => void,
    dirs: SideDirs | null,
    legacyAt: string | null,
  ): Promise<Session> {
    const era = probeEndedServer.has(profile) ? 'legacy' : 'auto';
    const { spec } = launchSpecOf(profile, env, dirs);
    const transport = new GroupStdioTransport({
      ...spec,
      maxMessageBytes: limits.maxMessageBytes,
      maxSideBytes: limits.maxSideBytes,
      maxResultBytes: limits.maxResultBytes,
      stderrTailBytes: limits.stderrTailBytes,
      killGraceMs: timeouts.killGraceMs,
    });
    const session = new Session(side, newClient(timeouts, era, legacyAt), transport, timeouts, new Redactor([]), profile);
    track(session); // before start: whoever holds the run deadline can end a server still starting
    try {
      await transport.start();
    } catch (error) {
      await transport.close();
      const notFound =
        (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? `; check the profile's command: it is neither on the PATH the server gets nor a file from its cwd`
          : '';
      throw new SideUnavailableError(side, 'spawn', `could not start \`${spec.command}\`: ${describe(error)}${notFound}`);
    }
    await session.initialize();
    return session;
  }

  /**
   * Streamable HTTP or legacy SSE. When the profile starts its server, the server is spawned in its
   * own process group and the url polled until it answers, before `initialize`.
   */
  private static async openRemote(
    side: Side,
    profile: RemoteProfile,
    timeouts: Timeouts,
    limits: Limits,
    env: NodeJS.ProcessEnv,
    track: (session: Session) => void,
    dirs: SideDirs | null,
    legacyAt: string | null,
  ): Promise<Session> {
    const { url, headers, redactor } = resolveRemote(profile, env);
    let server: LaunchedServer | null = null;
    if (profile.launch) {
      // The port usually sits in both the url and the args, so args expand `${VAR}` too.
      const { spec } = launchSpecOf(profile.launch, env, dirs);
      server = new LaunchedServer(spec, {
        stderrTailBytes: limits.stderrTailBytes,
        killGraceMs: timeouts.killGraceMs,
      });
    }
    const transport = new RemoteTransport(
      profile.transport,
      url,
      describeUrl(profile.url),
      headers,
      server,
      limits.stderrTailBytes,
      limits,
    );
    const session = new Session(side, newClient(timeouts, 'auto', legacyAt), transport, timeouts, redactor);
    track(session);
    if (server && profile.launch) {
      const command = `\`${[profile.launch.command, ...profile.launch.args].join(' ')}\``;
      try {
        await server.start();
      } catch (error) {
        await transport.close();
        throw new SideUnavailableError(
          side,
          'spawn',
          redactor.scrub(`profile "${profile.name}": could not start ${command}: ${describe(error)}`),
        );
      }
      const notReady = await server.waitUntilAnswering(url, profile.readyTimeoutMs);
      if (notReady) {
        await transport.close();
        const cause = notReady.kind === 'exited' ? likelyCause(server.stderr.text()) : null;
        throw new SideUnavailableError(
          side,
          'ready',
          redactor.scrub(`${notReadyMessage(profile, command, notReady)}${cause ? `: ${cause}` : ''}`),
          redactor.scrub(server.stderr.text()),
          notReady.kind === 'timeout',
        );
      }
    }
    await session.initialize();
    return session;
  }

  private async initialize(): Promise<void> {
    try {
      await this.client.connect(this.transport, { timeout: this.timeouts.startupMs });
    } catch (error) {
      if (endedByProbe(error) && this.stdioProfile) probeEndedServer.add(this.stdioProfile);
      throw await this.failure('initialize', error);
    }
  }

  identity(): ServerIdentity {
    const info = this.client.getServerVersion();
    return this.redactor.scrubDeep({
      name: info?.name ?? null,
      version: info?.version ?? null,
      protocolVersion: this.client.getNegotiatedProtocolVersion() ?? this.transport.protocolVersion,
      instructions: this.client.getInstructions() ?? null,
      era: this.client.getProtocolEra() ?? null,
    });
  }

  /** The capabilities the server declared in `initialize` or `server/discover` (scrubbed like everything it sends). */
  capabilities(): Record<string, unknown> {
    return this.redactor.scrubDeep({ ...(this.client.getServerCapabilities() ?? {}) });
  }

  /** False once the server exited or its transport failed: a failed request then says nothing of one list alone. */
  get alive(): boolean {
    return !this.transport.exit && !this.transport.fault;
  }

  get stderrTail(): string {
    return this.redactor.scrub(this.transport.stderr.text());
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
      return { result: this.redactor.scrubDeep(result), durationMs: Math.round(performance.now() - started) };
    } catch (error) {
      throw await this.failure(phase, error);
    }
  }

  /** One tools/call. A result over the byte cap is not an error of the session: it comes back as droppedBytes. */
  async callTool(name: string, args: Record<string, unknown>): Promise<ToolCallResult> {
    const started = performance.now();
    try {
      const result = await this.client.request({ method: 'tools/call', params: { name, arguments: args } } as never, AnyResult, {
        timeout: this.timeouts.requestMs,
      });
      return { result: this.redactor.scrubDeep(result), durationMs: Math.round(performance.now() - started) };
    } catch (error) {
      const dropped = droppedResult(error);
      if (dropped) return { result: undefined, durationMs: Math.round(performance.now() - started), ...dropped };
      throw await this.failure('tools/call', error);
    }
  }

  async close(): Promise<void> {
    await this.transport.close();
  }

  private async failure(phase: Phase, error: unknown): Promise<SideUnavailableError> {
    const { message, timedOut, rpcCode } = failureText(phase, error, this.transport);
    if (phase === 'initialize') await this.transport.close();
    return new SideUnavailableError(this.side, phase, this.redactor.scrub(message), this.stderrTail, timedOut, rpcCode);
  }
}
