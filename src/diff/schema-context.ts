import type { Code, Severity } from '../findings/codes.js';
import type { Change } from '../findings/types.js';
import type { JsonSchema } from '../contract/types.js';
import { change, pointer } from './change.js';

export type SchemaSide = 'input' | 'output';

/** Where the walk is, and what it needs to resolve local `$ref`s on both trees. */
export interface WalkContext {
  side: SchemaSide;
  tool: string;
  rootBefore: JsonSchema;
  rootAfter: JsonSchema;
  /** Pairs of refs already followed on this path: a `$ref` cycle ends the walk there. */
  followed: Set<string>;
  depth: number;
}

export function emit(ctx: WalkContext, codes: { input: Code; output: Code }, severities: { input: Severity; output: Severity }, path: string[], before: unknown, after: unknown): Change {
  return change(codes[ctx.side], severities[ctx.side], ctx.tool, pointer(...path), before, after);
}

