import type { Contract, ContractTool } from './types.js';

/**
 * Whether the gate may call a tool at all, whatever consent was given (`allowSideEffects`,
 * `sideEffects: allowed`): `record`, case probes and any other tools/call the gate makes ask here
 * first. Two kinds of definition cannot be trusted to say what a call does:
 *
 * - a name listed more than once in tools/list: the gate keeps the first definition, but which one
 *   the server runs is the server's choice (read-only first, destructive second is the trap);
 * - a name with a look-alike twin (`Wipe` and `wipe`, `wi\u200bpe`, `wipe `: contract/lookalike.ts):
 *   a dispatch that folds case or trims may run the twin, and a model may pick either;
 * - hints that contradict each other, as the server sent them (defaults never contradict):
 *   - `readOnlyHint: true` with `destructiveHint: true`: a tool cannot both leave its environment
 *     alone and destroy part of it;
 *   - `readOnlyHint: true` with `idempotentHint: false`: a call that changes nothing cannot have
 *     a further effect when repeated, so the hints claim an effect the read-only hint denies.
 *
 * The spec calls destructiveHint and idempotentHint meaningless when readOnlyHint is true, and the
 * contract's effective annotations follow it; a caller cannot tell which half is the mistake, so
 * the gate calls neither. Returns why not, in one sentence, or null when the tool may be called.
 */
export function callRefusal(tool: ContractTool, contract: Pick<Contract, 'discovery'>): string | null {
  if (contract.discovery.duplicates?.includes(tool.name)) {
    return `${tool.name} is listed more than once in tools/list, so which definition a call runs is the server's choice; the gate calls it under neither`;
  }
  const twins = contract.discovery.lookalikes?.find((group) => group.includes(tool.name));
  if (twins) {
    const others = twins.filter((name) => name !== tool.name).map((name) => JSON.stringify(name));
    return `${tool.name} has a look-alike twin in tools/list (${others.join(', ')}: the same name but for case, width, spacing or invisible characters), so which tool a call runs is the server's choice; the gate calls none of them`;
  }
  const contradiction = hintContradiction(tool.annotations);
  if (contradiction)
    return `${tool.name} has hints that contradict each other (${contradiction}), so what a call does is unknown; the gate does not call it`;
  return null;
}

/** The contradiction in a tool's hints as sent, e.g. "readOnlyHint: true with destructiveHint: true", or null. */
export function hintContradiction(annotations: Record<string, unknown> | null): string | null {
  if (annotations?.readOnlyHint !== true) return null;
  const against = [
    annotations.destructiveHint === true && 'destructiveHint: true',
    annotations.idempotentHint === false && 'idempotentHint: false',
  ].filter((hint): hint is string => typeof hint === 'string');
  return against.length ? `readOnlyHint: true with ${against.join(' and ')}` : null;
}
