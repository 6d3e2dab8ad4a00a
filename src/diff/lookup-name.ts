import { DESTROYS } from './stated-constraint.js';

/**
 * Whether a new tool that declares no hint, on a server that declares none, reads as a lookup by
 * its own name: it opens with a verb that only reads (`search_schema`, `listPages`, `get-user`) and
 * no word of it writes (`get_or_create`, `search_and_replace` do). Such a tool is judged like its
 * siblings, not held: a person reading the release learns nothing more from it than the name
 * says, and its clients, told nothing by the server, treat it as the spec's defaults say either
 * way (docs/verdicts.md, "A new tool on a server that annotates nothing"). Its text must not say it
 * destroys anything either.
 */
const READS = new Set(['get', 'list', 'search', 'find', 'read', 'describe', 'show', 'view', 'count', 'lookup', 'inspect']);

const WRITES = new Set([
  ...['add', 'apply', 'approve', 'clear', 'commit', 'create', 'delete', 'deploy', 'destroy', 'drop', 'edit', 'erase', 'exec'],
  ...['execute', 'import', 'insert', 'kill', 'mark', 'merge', 'modify', 'move', 'overwrite', 'patch', 'post', 'publish'],
  ...['purge', 'push', 'put', 'remove', 'rename', 'replace', 'reset', 'restore', 'run', 'save', 'send', 'set', 'start'],
  ...['stop', 'submit', 'toggle', 'trigger', 'truncate', 'update', 'upload', 'upsert', 'wipe', 'write'],
]);

/** What a description may not say of a lookup: that it destroys. */
const SAYS_DESTROYS = new RegExp(String.raw`\b(?:${DESTROYS})\b`, 'i');

/** Words of a name: `getTinyImage`, `get-tiny-image` and `get_tiny_image` all give get, tiny, image. */
export const words = (name: string) =>
  new Set(
    name
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean),
  );

export function readsAsLookup(name: string, description: string | null): boolean {
  const [first, ...rest] = words(name);
  return first !== undefined && READS.has(first) && !rest.some((w) => WRITES.has(w)) && !SAYS_DESTROYS.test(description ?? '');
}
