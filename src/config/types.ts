import type * as z from 'zod';
import type { Action } from '../findings/codes.js';
import type { auditSchema, limitsSchema, timeoutsSchema } from './definition-settings.js';
import type { Problem } from '../base/problems.js';

export { DEFAULTS } from './defaults.js';

/**
 * The folders a started server gets of its own (connect/side-dirs.ts): a fresh TMPDIR unless
 * `tmpdir: shared`, and a fresh HOME only when the profile asks, with what it links or copies in.
 */
export interface Isolation {
  tmpdir: 'own' | 'shared';
  home: { isolated: false } | { isolated: true; link: string[]; copy: string[] };
}

/** The config after loading, env overrides, flags, defaults and path resolution. */
export interface StdioProfile {
  name: string;
  transport: 'stdio';
  /** As written, `${VAR}` unexpanded, like `args`: expanded when the server starts. */
  command: string;
  args: string[];
  /** Absolute, its `${VAR}` expanded when the config was read (a folder is not a secret). */
  cwd: string;
  /** As written, `${VAR}` unexpanded. */
  env: Record<string, string>;
  isolation: Isolation;
  /** Variable and env names the profile declares secret (`secrets:`). */
  secrets: string[];
  /** `${VAR}` references in command, args, cwd and env that were unset when the config was loaded, with their lines. */
  unresolved: Problem[];
  allowSideEffects: boolean;
  /** Tools a person declared safe to call, though their hints do not say read-only (`safeTools:`). */
  safeTools: string[];
  /** Absolute path of the MCP client config its `from` named, when it has one. */
  from?: string;
  /** Started from the tree of a git ref (`git:`), rather than the working tree. */
  git?: GitSource;
  /** As the baseline, what stands in when its server cannot start (`fallback:`); absent: nothing, exit 3. */
  fallback?: 'last-report' | 'empty';
}

/** A profile started from a git ref: which ref (null: the change's base), and how its tree is built. */
export interface GitSource {
  ref: string | null;
  build: string | null;
  /** Set once the tree is made (connect/git-baseline.ts): the commit, and the built tree's folder. */
  commit?: string;
  tree?: string;
}

export interface SnapshotProfile {
  name: string;
  transport: 'snapshot';
  /** Absolute; or `git:REF:FILE` as written, when `git` is set. */
  path: string;
  /** A snapshot read from a git ref (`path: git:REF:FILE`). */
  git?: { ref: string; file: string };
  /** The snapshot's text, once read from the ref. */
  text?: string;
  allowSideEffects: false;
}

/** How the gate starts a server that it then reaches over HTTP. */
export interface ServerLaunch {
  command: string;
  args: string[];
  /** Absolute. */
  cwd: string;
  env: Record<string, string>;
  isolation: Isolation;
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
  /** `${VAR}` references in url, headers and the launch that were unset when the config was loaded, as problems with their lines. */
  unresolved: Problem[];
  /** Variable and env names the profile declares secret (`secrets:`). */
  secrets: string[];
  allowSideEffects: boolean;
  /** Tools a person declared safe to call, though their hints do not say read-only (`safeTools:`). */
  safeTools: string[];
  /** Absolute path of the MCP client config its `from` named, when it has one. */
  from?: string;
  /** The started server comes from the tree of a git ref (`git:`). */
  git?: GitSource;
  /** As the baseline, what stands in when its server cannot start (`fallback:`). */
  fallback?: 'last-report' | 'empty';
}

export type Profile = StdioProfile | SnapshotProfile | RemoteProfile;

export interface Exception {
  code: string;
  tool?: string;
  fingerprint?: string;
  reason: string;
  expires: string;
}

/** Settings once defaulted: their keys, bounds, defaults and descriptions are in config/definition.ts. */
export type Timeouts = z.output<typeof timeoutsSchema>;
export type Limits = z.output<typeof limitsSchema>;
export type AuditSettings = Omit<z.output<typeof auditSchema>, 'maxResultBytes'>;

/** One server of a bundle: its name, and the config that gates its baseline/candidate pair. */
export interface ServerGate {
  name: string;
  config: GateConfig;
}

export interface GateConfig {
  /** Absolute path of the config file, or null when none was read. */
  file: string | null;
  /** What is worth saying about the file but does not stop a run, such as a deprecated key. */
  notes: Problem[];
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
    /** tool-added-destructive for a tool outside every role's surface: held (the default), or rolled back as before. */
    destructiveToolsOutsideRoles?: 'hold' | 'rollback';
    /** tool-added-destructive-by-default for a bare new tool on a server that declares no hints: held (the default), or judged like its siblings. */
    unannotatedServers?: 'hold' | 'like-siblings';
    exceptions: Exception[];
    /** The candidate is a release, not a PR head: version-unchanged holds (docs/releases.md). */
    release?: boolean;
    /** Days a tool must have been marked deprecated, by the saved reports, before its removal is calm. */
    deprecationWindowDays?: number;
  };
}
