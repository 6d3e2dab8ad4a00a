import { isObject } from '../base/json-object.js';
import type { Contract } from './types.js';

/**
 * Tool names that descriptions and instructions mention. Two ways, both read as the model would:
 *
 * - an identifier that starts with a verb, as tool names do (`list_buckets`, `get_bug_replay`,
 *   `searchIssues`), in any form;
 * - an identifier of any wording, in one of the forms the server's own tool names take (snake_case,
 *   camelCase, kebab-case), where the text sends the model to it: after "call", "use", "invoke",
 *   "after", "via" and the like, in a list that follows one, or before "tool" or "()". The write-ups'
 *   `analyze_weighted_subtraction`, "documented and implemented but never registered", is this kind.
 *
 * A mention of one the server does not list sends the model to a tool it cannot call (the write-ups'
 * "task coverage"). Names the schemas use (argument and result keys, enum values) are data, not
 * tools, and an identifier followed by `=`, `:` or `.name` is code (`childLayout=table`), so prose
 * does not trip it. Measured on the recorded releases (docs/writeups-lessons.md).
 */
const VERBS =
  'get|list|create|update|delete|remove|search|find|add|set|fetch|read|write|query|send|post|put|patch|run|open|close|move|copy|upload|download|assign|merge|describe';
const VERB_NAME = new RegExp(`^(?:(?:${VERBS})(?:_[a-z0-9]+)+|(?:${VERBS})(?:[A-Z][a-z0-9]+)+)$`);

type Form = 'snake' | 'camel' | 'kebab';
const FORM: Record<Form, string> = {
  snake: String.raw`[a-z][a-z0-9]*(?:_[a-z0-9]+)+`,
  camel: String.raw`[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+`,
  kebab: String.raw`[a-z][a-z0-9]*(?:-[a-z0-9]+)+`,
};
const formOf = (name: string): Form | null =>
  /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/.test(name)
    ? 'snake'
    : /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/.test(name)
      ? 'camel'
      : /^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$/.test(name)
        ? 'kebab'
        : null;

/** Identifiers, each a whole word: not part of a path, a URL, a dotted name or an assignment. */
const IDENTIFIER = new RegExp(String.raw`(?<![\w./@$-])(?:${FORM.snake}|${FORM.camel}|${FORM.kebab})(?![\w/@$-]|[.:=]\w|=)`, 'g');
/**
 * What sends the model to the identifier that follows: "call", "use the tool", "after `x`, `y` or".
 * Not "uses": "Uses breadth-first search" says how the tool works, not where to send the model.
 */
const SENT_TO =
  /\b(?:call|calls|calling|use|using|invoke|invokes|invoking|run|try|via|after|before|then|tools?)\s+(?:the\s+)?(?:tool\s+)?[`'"]?$/i;
const LIST_GOES_ON = /^[`'"]?\s*(?:,|\bor\b|\band\b|,\s*(?:or|and)\b)\s*[`'"]?$/i;
const NAMED_AS_TOOL = /^[`'"]?(?:\s+tool\b|\(\))/i;

/**
 * Each tool name the contract's text mentions but the contract does not list, sorted, with where it
 * is mentioned (`the instructions`, or a tool's quoted name), in the order the text was read. The
 * audit reports them (`tool-reference-missing`); the dataset check takes them for tasks, not typos.
 */
export function unlistedMentions(contract: Contract): [name: string, places: Set<string>][] {
  let known = memo.get(contract);
  if (!known) memo.set(contract, (known = scanContract(contract)));
  return known;
}

/** The audit and the dataset check both ask, of the same contract: it is read once. */
const memo = new WeakMap<Contract, [name: string, places: Set<string>][]>();

function scanContract(contract: Contract): [name: string, places: Set<string>][] {
  const listed = new Set(contract.tools.map((t) => t.name));
  const forms = new Set(contract.tools.map((t) => formOf(t.name)).filter((f): f is Form => f !== null));
  const where = new Map<string, Set<string>>();
  const scan = (text: string | null | undefined, place: string) => {
    for (const name of mentionsIn((text ?? '').slice(0, 20_000), forms)) {
      if (!listed.has(name)) where.set(name, (where.get(name) ?? new Set()).add(place));
    }
  };
  scan(contract.server.instructions, 'the instructions');
  for (const tool of contract.tools) scan(tool.description, `"${tool.name}"`);
  if (!where.size) return [];
  // The schemas' words are read only when something unlisted was mentioned: most servers mention none.
  const data = new Set<string>();
  for (const t of contract.tools) {
    schemaNames(t.inputSchema, data, 0);
    schemaNames(t.outputSchema, data, 0);
  }
  return [...where].filter(([name]) => !data.has(name)).sort(([a], [b]) => (a < b ? -1 : 1));
}

/** The identifiers in one text that read as tool names. */
function mentionsIn(text: string, forms: Set<Form>): string[] {
  const found: string[] = [];
  // The end of the last identifier the text sent the model to: a list after "call" goes on from there.
  let sentUntil = -1;
  for (const match of text.matchAll(IDENTIFIER)) {
    const [name] = match;
    const start = match.index;
    const end = start + name.length;
    if (VERB_NAME.test(name)) {
      found.push(name);
      sentUntil = end;
      continue;
    }
    const form = formOf(name);
    if (!form || !forms.has(form)) continue;
    const before = text.slice(Math.max(0, start - 40), start);
    const sent =
      SENT_TO.test(before) || (sentUntil >= 0 && LIST_GOES_ON.test(text.slice(sentUntil, start))) || NAMED_AS_TOOL.test(text.slice(end));
    if (!sent) continue;
    found.push(name);
    sentUntil = end;
  }
  return found;
}

/** Property names and enum values anywhere in a schema: the words of the data, which are not tools. */
function schemaNames(schema: unknown, into: Set<string>, depth: number): void {
  if (depth > 32) return;
  if (Array.isArray(schema)) {
    for (const item of schema) schemaNames(item, into, depth + 1);
    return;
  }
  if (!isObject(schema)) return;
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && isObject(value)) for (const name of Object.keys(value)) into.add(name);
    if (key === 'enum' && Array.isArray(value)) for (const v of value) if (typeof v === 'string') into.add(v);
    schemaNames(value, into, depth + 1);
  }
}

/** A word spelt as tool names are: letters and digits joined by `_` or `-`, maybe quoted (`list_pages`, `listPages`, `API-get-user`). */
const WORD = /([`'"]?)(?<![\w./@$-])([A-Za-z][A-Za-z0-9]*(?:[_-][A-Za-z0-9]+)*)(?![\w@$-])([`'"]?)/g;
const squash = (name: string) => name.toLowerCase().replace(/[_-]/g, '');
/** A word with a separator or a capital inside reads as an identifier; a plain word only when quoted. */
const COMPOUND = /[_-]|[a-z0-9][A-Z]/;

/**
 * The listed tools a text names, in any identifier form of their names (`list_pages`, `listPages`,
 * `List-Pages`), and a one-word name only in quotes or backticks, where prose does not put it. A
 * listed name needs no verb or "call" before it: what is named is there to be called.
 */
export function listedMentionsIn(text: string, contract: Contract): Set<string> {
  let byKey = listedMemo.get(contract);
  if (!byKey) listedMemo.set(contract, (byKey = new Map(contract.tools.map((t) => [squash(t.name), t.name]))));
  const named = new Set<string>();
  for (const [, open, word, close] of text.slice(0, 20_000).matchAll(WORD)) {
    const name = byKey.get(squash(word!));
    if (name !== undefined && (COMPOUND.test(word!) || (open && open === close))) named.add(name);
  }
  return named;
}

const listedMemo = new WeakMap<Contract, Map<string, string>>();
