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
}

export interface Discovery {
  pages: number;
  durationMs: number;
  errors: DiscoveryProblem[];
  /** Names listed more than once (only the first definition is kept). */
  duplicates?: string[];
}

/** A server's live tool surface: sorted by name, hashed, with how it was read. */
export interface Contract {
  server: ServerIdentity;
  tools: ContractTool[];
  hash: string;
  discovery: Discovery;
}
