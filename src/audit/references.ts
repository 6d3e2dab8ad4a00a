import type { Contract } from '../contract/types.js';
import type { Finding, Side } from '../findings/types.js';

/**
 * Tool names that descriptions and instructions mention: identifiers that start with a verb, as tool
 * names do (`list_buckets`, `get_bug_replay`, `searchIssues`). A mention of one the server does not
 * list sends the model to a tool it cannot call (the write-ups' "task coverage"); argument names
 * (`post_id`) and words without a verb in front are left alone, so prose does not trip it.
 */
const VERBS =
  'get|list|create|update|delete|remove|search|find|add|set|fetch|read|write|query|send|post|put|patch|run|open|close|move|copy|upload|download|assign|merge|describe';
const MENTION = new RegExp(`\\b(?:${VERBS})(?:_[a-z0-9]+)+\\b|\\b(?:${VERBS})(?:[A-Z][a-z0-9]+)+\\b`, 'g');
const MAX_NAMED = 10;

export function unlistedToolMentions(contract: Contract, side: Side): Finding[] {
  const listed = new Set(contract.tools.map((t) => t.name));
  const parameters = new Set(contract.tools.flatMap((t) => Object.keys((t.inputSchema?.properties as object | undefined) ?? {})));
  const where = new Map<string, Set<string>>();
  const scan = (text: string | null | undefined, place: string) => {
    for (const name of (text ?? '').slice(0, 20_000).match(MENTION) ?? []) {
      if (listed.has(name) || parameters.has(name)) continue;
      where.set(name, (where.get(name) ?? new Set()).add(place));
    }
  };
  scan(contract.server.instructions, 'the instructions');
  for (const tool of contract.tools) scan(tool.description, `"${tool.name}"`);
  return [...where]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, places]) => {
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
