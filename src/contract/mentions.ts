import type { Contract } from './types.js';

/**
 * Tool names that descriptions and instructions mention: identifiers that start with a verb, as tool
 * names do (`list_buckets`, `get_bug_replay`, `searchIssues`). A mention of one the server does not
 * list sends the model to a tool it cannot call (the write-ups' "task coverage"); argument names
 * (`post_id`) and words without a verb in front are left alone, so prose does not trip it.
 */
const VERBS =
  'get|list|create|update|delete|remove|search|find|add|set|fetch|read|write|query|send|post|put|patch|run|open|close|move|copy|upload|download|assign|merge|describe';
const MENTION = new RegExp(`\\b(?:${VERBS})(?:_[a-z0-9]+)+\\b|\\b(?:${VERBS})(?:[A-Z][a-z0-9]+)+\\b`, 'g');

/**
 * Each tool name the contract's text mentions but the contract does not list, sorted, with where it
 * is mentioned (`the instructions`, or a tool's quoted name), in the order the text was read. The
 * audit reports them (`tool-reference-missing`); the dataset check takes them for tasks, not typos.
 */
export function unlistedMentions(contract: Contract): [name: string, places: Set<string>][] {
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
  return [...where].sort(([a], [b]) => (a < b ? -1 : 1));
}
