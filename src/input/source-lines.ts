import { EVENT_ID, getScalarValue, SCALAR_STYLE, type Event } from 'js-yaml';

/**
 * Where each value of a document starts (a character offset), as a tree beside the value: what a
 * line is looked up in on the two fast ways of reading (js-yaml's events, JSON.parse), so a case's
 * or a tool's line costs nothing like building the yaml package's Document (over a second for a
 * 415 KB dataset). `at` is -1 where the start would not be the line the yaml package gives (a
 * block scalar, an empty value): such a lookup, a key this tree does not hold, or a place past its
 * depth is left to the yaml package (source.ts), so every line is the one it would give.
 */
export interface Located {
  at: number;
  keys?: Map<string, Located>;
  items?: Located[];
}

/** The line finder over a tree: a line, or undefined when the tree cannot tell. */
export type FastLines = (path: readonly (string | number)[]) => number | undefined;

export function fastLines(text: string, tree: () => Located | null): FastLines {
  let starts: number[] | null = null;
  let root: Located | null | undefined;
  return (path) => {
    root ??= tree();
    let node: Located | undefined = root ?? undefined;
    for (const segment of path) node = typeof segment === 'number' ? node?.items?.[segment] : node?.keys?.get(segment);
    if (!node || node.at < 0) return undefined;
    starts ??= lineStarts(text);
    return lineAt(starts, node.at);
  };
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** 1-based line of an offset: the last line start at or before it. */
function lineAt(starts: number[], offset: number): number {
  let [low, high] = [0, starts.length - 1];
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return low + 1;
}

/** A plain key the core schema reads as a number, a boolean or null: its string form is not its text. */
const RESOLVED_KEY = /^(?:[-+.0-9~]|(?:null|Null|NULL|true|True|TRUE|false|False|FALSE)$|$)/;

/**
 * The tree of a YAML document from js-yaml's events (yaml-values.ts reads plain documents only), to
 * `depth` levels, as jsonTree: `cases[i].id` is at depth 3.
 */
export function yamlTree(text: string, events: readonly Event[], depth: number): Located | null {
  let root: Located | null = null;
  // Each open collection, and for a mapping the key its next value belongs to (undefined: a key is next).
  const open: { node: Located; key?: string | null }[] = [];
  // Collections opened past the depth, not held: only counted, to know when the walk is back.
  let past = 0;
  const attach = (node: Located): void => {
    const parent = open.at(-1);
    if (!parent) root = node;
    else if (parent.node.items) parent.node.items.push(node);
    else {
      if (parent.key) parent.node.keys!.set(parent.key, node);
      parent.key = undefined;
    }
  };
  for (const e of events) {
    if (e.type === EVENT_ID.DOCUMENT || e.type === EVENT_ID.ALIAS) continue;
    if (e.type === EVENT_ID.POP) {
      if (past) past--;
      else open.pop();
      continue;
    }
    if (past || open.length > depth) {
      if (e.type === EVENT_ID.MAPPING || e.type === EVENT_ID.SEQUENCE) past++;
      continue;
    }
    const parent = open.at(-1);
    if (e.type === EVENT_ID.SCALAR && parent?.node.keys && parent.key === undefined) {
      const key = getScalarValue(text, e);
      parent.key = e.style === SCALAR_STYLE.PLAIN && RESOLVED_KEY.test(key) ? null : key;
      continue;
    }
    if (e.type === EVENT_ID.SCALAR) {
      const block = e.style === SCALAR_STYLE.LITERAL_BLOCK || e.style === SCALAR_STYLE.FOLDED_BLOCK;
      attach({ at: block || e.valueStart >= e.valueEnd ? -1 : e.valueStart });
      continue;
    }
    const node: Located = e.type === EVENT_ID.MAPPING ? { at: e.start, keys: new Map() } : { at: e.start, items: [] };
    attach(node);
    open.push({ node });
  }
  return root;
}

/**
 * The tree of a JSON text that JSON.parse read (a snapshot mcp-gate wrote: thousands of tools), to
 * `depth` levels: `tools[i].name` is at depth 3. Values deeper are passed over, not held, and
 * without recursion, however deep they nest.
 */
export function jsonTree(text: string, depth: number): Located | null {
  let i = 0;
  const space = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  };
  const string = (): string => {
    const start = i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    const raw = text.slice(start, i);
    return raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
  };
  /** Passes over one value: brackets counted, strings read whole. */
  const skip = () => {
    let nested = 0;
    do {
      const c = text[i];
      if (c === '"') string();
      else {
        if (c === '{' || c === '[') nested++;
        else if (c === '}' || c === ']') nested--;
        i++;
      }
    } while (i < text.length && (nested > 0 || !',}]'.includes(text[i]!)));
  };
  const value = (level: number): Located => {
    space();
    const at = i;
    const c = text[i];
    if (c !== '{' && c !== '[') {
      skip();
      return { at };
    }
    const node: Located = c === '{' ? { at, keys: new Map() } : { at, items: [] };
    i++;
    space();
    while (i < text.length && text[i] !== '}' && text[i] !== ']') {
      const key = c === '{' ? string() : '';
      if (c === '{') {
        space();
        i++; // the colon
        space();
      }
      if (level < depth) {
        const child = value(level + 1);
        if (node.keys) node.keys.set(key, child);
        else node.items!.push(child);
      } else skip();
      space();
      if (text[i] === ',') i++;
      space();
    }
    i++;
    return node;
  };
  space();
  return i < text.length ? value(0) : null;
}
