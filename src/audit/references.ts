import { unlistedMentions } from '../contract/mentions.js';
import type { Contract } from '../contract/types.js';
import type { Finding, Side } from '../findings/types.js';

/** Places named in one finding; the rest are "and more". */
const MAX_NAMED = 10;

/** A tool the contract's text names but the contract does not list (contract/mentions.ts): one finding per name. */
export function unlistedToolMentions(contract: Contract, side: Side): Finding[] {
  return unlistedMentions(contract).map(([name, places]) => {
    const named = [...places].slice(0, MAX_NAMED);
    return {
      code: 'tool-reference-missing' as const,
      severity: 'dangerous' as const,
      side,
      // The tool it concerns is the one named and missing: one finding per name, compared by name.
      tool: name,
      message: `"${name}" is named in ${named.join(', ')}${places.size > MAX_NAMED ? ' and more' : ''}, but the server does not list it: the model is sent to a tool it cannot call.`,
    };
  });
}

/**
 * A server that declares no annotation on any tool: by the spec's defaults every tool is destructive
 * and open-world, so with side effects off the gate calls none of them and the live audit sees
 * nothing. Said once, up front, with what a person can do about it.
 */
export function unannotatedServer(contract: Contract, side: Side): Finding[] {
  const tools = contract.tools;
  if (tools.length === 0 || tools.some((t) => t.annotations !== null)) return [];
  return [
    {
      code: 'server-unannotated',
      severity: 'dangerous',
      side,
      tool: null,
      message: `None of the ${tools.length} tools declares an annotation, so by the spec's defaults every one is destructive and open-world: with side effects off the gate calls none of them, and what the model would read is not audited. Declare readOnlyHint and destructiveHint, or list the tools a person knows are safe to call in the profile's safeTools.`,
    },
  ];
}
