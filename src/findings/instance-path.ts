import type { Change } from './types.js';
import { isObject } from '../base/json-object.js';

/** The instance path a change is at: `/inputSchema/properties/a/properties/b/maximum` is `a/b`. */
export function instancePath(c: Change): string[] {
  const at = c.subject.kind === 'tool' ? c.subject.at : [];
  const path: string[] = [];
  for (let i = 1; i < at.length; i++) {
    if (at[i] === 'properties' && at[i + 1] !== undefined) path.push(at[++i]!);
    else if (at[i] === 'items') path.push('0');
  }
  return path;
}

/**
 * The argument an input-closed probe (diff/confirm-closed.ts) adds to a call both schemas take: a
 * name no tool declares by accident.
 */
export const UNDECLARED_ARGUMENT = 'mcp_gate_undeclared';

/**
 * Whether a change carries a closing probe: an `input-closed` whose witness sends the undeclared
 * argument in the object the change closes (the whole call, or one inside it).
 */
export function isClosingProbe(c: Change): boolean {
  if (c.code !== 'input-closed' || c.witness?.status !== 'found') return false;
  let here: unknown = c.witness.instance;
  for (const step of instancePath(c))
    here = Array.isArray(here) ? here[Number(step)] : isObject(here) && Object.hasOwn(here, step) ? here[step] : undefined;
  return isObject(here) && Object.hasOwn(here, UNDECLARED_ARGUMENT);
}

/** The top-level argument a change's witness is about: the change's own, or the undeclared one a closing probe sends. */
export const witnessArgument = (c: Change): string | undefined =>
  instancePath(c)[0] ?? (isClosingProbe(c) ? UNDECLARED_ARGUMENT : undefined);
