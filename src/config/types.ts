import type { Action } from '../findings/codes.js';
import type { Problem } from './problems.js';

/** The config after loading, env overrides, flags, defaults and path resolution. */
export interface StdioProfile {
  name: string;
  transport: 'stdio';
  command: string;
  args: string[];
  /** Absolute. */
  cwd: string;
  env: Record<string, string>;
  allowSideEffects: boolean;
}

export interface SnapshotProfile {
  name: string;
  transport: 'snapshot';
  /** Absolute. */
  path: string;
  allowSideEffects: false;
}

/** How the gate starts a server that it then reaches over HTTP. */
export interface ServerLaunch {
  command: string;
  args: string[];
  /** Absolute. */
  cwd: string;
  env: Record<string, string>;
}

/** A server reached over the network: streamable HTTP (`http`) or the legacy HTTP+SSE transport (`sse`). */
export interface RemoteProfile {
  name: string;
  transport: 'http' | 'sse';
  /** As written, `${VAR}` unexpanded: expanded only when the session opens, so no secret sits in the config. */
  url: string;
  /** As written, `${VAR}` unexpanded. Values are never printed: see connect/redact.ts. */
  headers: Record<string, string>;
  /** Set when the profile starts its own server; null to reach one that is already running. */
  launch: ServerLaunch | null;
  /** How long a started server gets until its URL answers. */
  readyTimeoutMs: number;
  /** `${VAR}` references in url and headers that were unset when the config was loaded, as problems with their lines. */
  unresolved: Problem[];
  allowSideEffects: boolean;
}

export type Profile = StdioProfile | SnapshotProfile | RemoteProfile;

export interface Exception {
  code: string;
  tool?: string;
  fingerprint?: string;
  reason: string;
  expires: string;
}

export interface Timeouts {
  startupMs: number;
  requestMs: number;
  runMs: number;
  killGraceMs: number;
}

export interface Limits {
  maxPages: number;
  maxTools: number;
  maxMessageBytes: number;
  /** All the bytes one side may send over the run (discovery and cases), over any transport. */
  maxSideBytes: number;
  /** A tools/call result over this is dropped unread: the probe fails with result-too-large, the session goes on. */
  maxResultBytes: number;
  stderrTailBytes: number;
}

export interface AuditSettings {
  /** Byte budget for one tool result (UTF-8 bytes of the whole result). */
  maxResultBytes: number;
  /** result-size-regression fires when a probe's result grows by more than this percentage... */
  resultGrowthPercent: number;
  /** ...and by more than this many bytes, so tiny results do not trip it. */
  resultGrowthMinBytes: number;
  /** tool-definition-cost-regression fires when the total definition cost grows by more than this percentage... */
  definitionCostGrowthPercent: number;
  /** ...and by more than this many estimated tokens. */
  definitionCostGrowthMinTokens: number;
}

/** One server of a bundle: its name, and the config that gates its baseline/candidate pair. */
export interface ServerGate {
  name: string;
  config: GateConfig;
}

export interface GateConfig {
  /** Absolute path of the config file, or null when none was read. */
  file: string | null;
  /**
   * Set when the file declares `servers`: every server's own pair. The top-level baseline and
   * candidate are then empty, and the pair fields of this config are not used for a run.
   */
  bundle: { concurrency: number; servers: ServerGate[] } | null;
  profiles: Record<string, Profile>;
  baseline: string;
  candidate: string;
  /** Absolute paths. */
  datasets: string[];
  reports: { dir: string };
  timeouts: Timeouts;
  limits: Limits;
  cases: { concurrency: number };
  audit: AuditSettings;
  promotion: {
    rules: Record<string, Action>;
    maxNewDestructiveTools: number;
    maxBrokenCases: number;
    exceptions: Exception[];
  };
}

export const DEFAULTS = {
  reports: { dir: 'reports' },
  timeouts: { startupMs: 15_000, requestMs: 30_000, runMs: 600_000, killGraceMs: 2_000 },
  limits: { maxPages: 100, maxTools: 10_000, maxMessageBytes: 16 * 1024 * 1024, maxSideBytes: 64 * 1024 * 1024, maxResultBytes: 4 * 1024 * 1024, stderrTailBytes: 8 * 1024 },
  cases: { concurrency: 4 },
  bundle: { concurrency: 2 },
  audit: { maxResultBytes: 32 * 1024, resultGrowthPercent: 50, resultGrowthMinBytes: 1024, definitionCostGrowthPercent: 25, definitionCostGrowthMinTokens: 500 },
  promotion: { maxNewDestructiveTools: 0, maxBrokenCases: 0 },
  readyTimeoutMs: 15_000,
} as const;
