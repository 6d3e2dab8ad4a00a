import { Client, SdkError, SdkErrorCode, SUPPORTED_PROTOCOL_VERSIONS, type jsonSchemaValidator } from '@modelcontextprotocol/client';
import type { Timeouts } from '../config/types.js';
import { GATE_NAME, GATE_VERSION } from '../base/version.js';

/**
 * The SDK checks tool output only inside its own listTools and callTool, which the gate does not
 * use: it sends raw requests and checks structuredContent itself (audit/schema-check.ts). Its
 * default checker builds an ajv instance per client at startup; this one fails loudly if used.
 */
const SDK_OUTPUT_CHECKS_UNUSED: jsonSchemaValidator = {
  getValidator() {
    throw new Error('mcp-gate checks tool output itself; the SDK output validator is not used');
  },
};

/**
 * The SDK's client in `auto` negotiation: it probes with `server/discover` (2026-07-28) and falls
 * back to `initialize` when the server gives no modern evidence (a "method not found" answer, or,
 * on stdio, silence until the probe times out). The probe gets the startup timeout, like the
 * handshake it may replace. `legacyAt` opens a 2025-era session whose `initialize` offers that
 * revision first (contract/era-check.ts: what a client of the baseline's revision would get); any
 * 2025 revision is accepted back, so the caller reads what the server answered.
 */
export const newClient = (timeouts: Timeouts, era: 'auto' | 'legacy' = 'auto', legacyAt: string | null = null) =>
  new Client(
    { name: GATE_NAME, version: GATE_VERSION },
    {
      capabilities: {},
      jsonSchemaValidator: SDK_OUTPUT_CHECKS_UNUSED,
      versionNegotiation: { mode: legacyAt ? 'legacy' : era, probe: { timeoutMs: timeouts.startupMs } },
      ...(legacyAt && { supportedProtocolVersions: [legacyAt, ...SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v !== legacyAt)] }),
    },
  );

/** The SDK gave up because the server closed the connection on the `server/discover` probe (see session.ts). */
export const endedByProbe = (error: unknown) =>
  error instanceof SdkError &&
  error.code === SdkErrorCode.EraNegotiationFailed &&
  /connection closed during the server\/discover probe/.test(error.message);
