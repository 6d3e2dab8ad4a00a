import type { ContractSource } from './places.js';
import type { ServerIdentity } from '../connect/session.js';
import type { EffectiveAnnotations, Hint } from './annotations.js';

export type JsonSchema = Record<string, unknown>;

/** One tool as the gate reasons about it. `extra` keeps every field the gate does not model. */
export interface ContractTool {
  name: string;
  title: string | null;
  description: string | null;
  inputSchema: JsonSchema | null;
  outputSchema: JsonSchema | null;
  /** The annotations object exactly as the server sent it, or null. */
  annotations: Record<string, unknown> | null;
  effectiveAnnotations: EffectiveAnnotations;
  /** Hints that took the spec default because the server left them out. */
  defaultedHints: Hint[];
  requiredArguments: string[];
  extra: Record<string, unknown>;
  /** Canonical SHA-256 of the whole raw tool object. */
  hash: string;
}

export type { ServerIdentity };

export interface DiscoveryProblem {
  tool: string | null;
  message: string;
  /** The list method that failed, and the JSON-RPC error code it answered with, where it answered one. Absent otherwise, and in older reports. */
  method?: string;
  code?: number;
}

export interface Discovery {
  pages: number;
  durationMs: number;
  errors: DiscoveryProblem[];
  /** Names listed more than once (only the first definition is kept). */
  duplicates?: string[];
  /** Distinct names that differ only in case, width, spacing or invisible characters (contract/lookalike.ts). Absent when none, and in older reports. */
  lookalikes?: string[][];
}

/** A server's live tool surface: sorted by name, hashed, with how it was read. */
export interface Contract {
  server: ServerIdentity;
  tools: ContractTool[];
  /** Canonical hash of the tools (the prompts and resources have their own in `features`). */
  hash: string;
  discovery: Discovery;
  /**
   * Everything beside the tools. Absent when it was not read: a snapshot written before mcp-gate
   * read more than tools, which is never taken as "everything removed".
   */
  features?: Features;
  /** Where a snapshot file writes this contract (contract/places.ts); absent for a live server. In memory only. */
  source?: ContractSource;
}

/**
 * What a server offers beside its tools, as it declared it in `initialize` and listed it. A list
 * is [] when its capability is not declared (nothing to list), and null when it is declared but
 * could not be read (a discovery problem says why): never read as empty.
 */
export interface Features {
  capabilities: Record<string, unknown>;
  prompts: ContractPrompt[] | null;
  resources: ContractResource[] | null;
  resourceTemplates: ContractResourceTemplate[] | null;
  /** Canonical hash of the capabilities and the three lists. */
  hash: string;
}

export interface PromptArgument {
  name: string;
  description: string | null;
  required: boolean;
}

export interface ContractPrompt {
  name: string;
  title: string | null;
  description: string | null;
  arguments: PromptArgument[];
  /** Set when the prompt's `_meta` marks it deprecated (contract/deprecation.ts); absent otherwise, and in older reports. */
  deprecated?: true;
  /** Canonical SHA-256 of the raw prompt object. */
  hash: string;
}

export interface ContractResource {
  uri: string;
  name: string | null;
  title: string | null;
  description: string | null;
  mimeType: string | null;
  hash: string;
}

export interface ContractResourceTemplate {
  uriTemplate: string;
  name: string | null;
  title: string | null;
  description: string | null;
  mimeType: string | null;
  /** The RFC 6570 variable names in `uriTemplate`, sorted. */
  variables: string[];
  hash: string;
}

/** A baseline that could not start, and what stood in: a saved report's contract, or an empty server. */
export interface BaselineFallback {
  kind: 'last-report' | 'empty';
  /** The saved report its contract came from, relative to the working directory of the run; null for empty. */
  report: string | null;
  /** Why the baseline could not start. */
  reason: { phase: string; message: string };
}
