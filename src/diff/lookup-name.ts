import { DESTROYS } from './stated-constraint.js';

/**
 * Whether a new tool that declares no hint reads as a lookup by its own name: its verb only reads
 * (`search_schema`, `listPages`, `get-user`) and no word of it writes (`get_or_create`,
 * `search_and_replace` do). The verb is the first word after the server's namespace, a leading word
 * that other tools of the server share and that is no verb (`figma_get_components`,
 * `subscriptions-search-subscriptions`). Such a tool is listed, not held: a person reading the
 * release learns nothing more from it than the name says, and its clients, told nothing, treat it
 * as destructive by the spec's defaults, which errs on the side of asking (docs/verdicts.md, "A new
 * tool on a server that annotates nothing"). Its text must not say it destroys anything either.
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

/** Words of a name, in order: `getTinyImage`, `get-tiny-image` and `get_tiny_image` all give get, tiny, image. */
const wordList = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

export const words = (name: string) => new Set(wordList(name));

/**
 * The words of a name after its namespace: leading words, none of them a verb, that at least two
 * other names of the server also open with.
 */
function afterNamespace(name: string, siblings: readonly string[]): string[] {
  const own = wordList(name);
  const others = siblings.filter((s) => s !== name).map(wordList);
  let skip = 0;
  while (skip < own.length - 1) {
    const word = own[skip]!;
    if (READS.has(word) || WRITES.has(word)) break;
    const shared = others.filter((o) => own.slice(0, skip + 1).every((w, i) => o[i] === w)).length;
    if (shared < 2) break;
    skip++;
  }
  return own.slice(skip);
}

export function readsAsLookup(name: string, description: string | null, siblings: readonly string[] = []): boolean {
  const [first, ...rest] = afterNamespace(name, siblings);
  return first !== undefined && READS.has(first) && !rest.some((w) => WRITES.has(w)) && !SAYS_DESTROYS.test(description ?? '');
}
