import { isObject } from '../base/json-object.js';
import { resultData } from '../base/result-data.js';
import type { Observation } from '../cases/types.js';
import { finding } from '../findings/finding.js';
import { onTool } from '../findings/subject.js';
import type { Finding, Side } from '../findings/types.js';
import { hitsOf, QUERY } from './search-excerpts.js';

// The rule (docs/writeups-lessons.md, row 28; write-up 004, "Bounded excerpts"): a search hit is
// there for the model to judge the hit by, and it pays for every byte. The whole multi-paragraph
// description inside each hit ("the intelligence service returned full descriptions inside each
// hit") belongs to the detail tool; line breaks and indentation in an excerpt are layout no model
// needs ("an excerpt full of \n\n and wasted bytes"). Flatten first, then cut at a word, within a few
// hundred characters. A cut inside a word is not checked: from the excerpt alone it cannot be told
// from a cut at one (hits cut at a word from templated text share their lengths as a fixed-count
// slice does), and a wrong finding on every search costs more than the miss.

/** Layout in what should be one line of prose: a line break, a tab, three spaces or more (one or two are typing). */
const LAYOUT = /[\r\n\t\f\v\u2028\u2029]| {3,}/;
/** Four times the write-up's 240, past any snippet engine's default: beyond it the field is the whole text. */
const WHOLE = 1000;
/** Tools whose hits are code or files, where whitespace means something: one of the name's words says so. */
const CODE_TOOL = new Set(['code', 'codebase', 'grep', 'symbol', 'symbols', 'source', 'sources', 'file', 'files', 'repo', 'repos']);
/** A hit that says where in a file it is: a code-search hit. */
const LOCATION = /^(?:path|file|file_?path|file_?name|line|line_?(?:number|no)|lineno|start_?line|language|lang|repo|repository)$/i;
/** An excerpt-like field named for code: `code_snippet`, `line_preview`, `diff_highlight`. */
const CODE_FIELD = /code|source|line|diff|patch/i;
/** Highlight markup (`<em>`, `<mark>`), not code. */
const TAG = /<\/?[a-z][a-z0-9]*(?:\s[^<>]*)?>/gi;
const CODE_MARKS = /[{}[\]();=<>|]/g;
const MAX_DEPTH = 3;

const wordsOf = (name: string) =>
  name
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);

/** A fence, or one character in 25 (tags aside) a bracket, a semicolon, `=`, `<`, `>` or `|`: code or a table, not prose. */
function looksLikeCode(text: string): boolean {
  if (text.includes('```')) return true;
  const plain = text.replace(TAG, '').replace(/\s+/g, '');
  return plain.length > 0 && (plain.match(CODE_MARKS)?.length ?? 0) * 25 >= plain.length;
}

/** The first list of objects in the data, at most three levels down: a search's hits. */
function itemsOf(data: unknown, depth = 0): Record<string, unknown>[] | null {
  if (Array.isArray(data)) return data.some(isObject) ? data.filter(isObject) : null;
  if (!isObject(data) || depth >= MAX_DEPTH) return null;
  for (const value of Object.values(data)) {
    const items = itemsOf(value, depth + 1);
    if (items) return items;
  }
  return null;
}

const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * Search hits that are not bounded, flattened excerpts: a field the server calls an excerpt
 * (excerpt, snippet, highlight, preview) with line breaks or runs of spaces in any one hit, or past
 * 1,000 characters; in a search (a query argument) whose hits carry none, a prose field past 1,000
 * characters over several lines, the whole document. Reported, not judged: a live result, so no
 * recorded release can count it (they hold tools/list only). It stays narrow to stay precise: never a
 * code hit (a code or file tool, a hit with a path or line, a field named for code, text dense with
 * code punctuation), where line breaks and indentation mean something, nor a long token (an id, base64).
 */
export function rawExcerpts(o: Observation, side: Side): Finding[] {
  if (o.kind === 'resource' || !isObject(o.result) || o.result.isError === true) return [];
  if (wordsOf(o.tool).some((w) => CODE_TOOL.has(w))) return [];
  const data = resultData(o.result);
  const excerpts = hitsOf(data);
  const search = Object.entries(o.args).some(([key, value]) => QUERY.test(key) && typeof value === 'string');
  const field = excerpts && !CODE_FIELD.test(excerpts.field) ? excerpts.field : undefined;
  const items = (excerpts ? excerpts.items : search ? itemsOf(data) : null)?.filter(
    (hit) => !Object.keys(hit).some((k) => LOCATION.test(k)),
  );
  if (!items?.length) return [];
  const prose = (text: string) => !looksLikeCode(text) && flat(text).split(' ').length * 12 >= flat(text).length;
  const layout = field ? items.filter((hit) => LAYOUT.test((hit[field] as string).trim()) && prose(hit[field] as string)).length : 0;
  // The document in the hit: the excerpt field past the bound, or (no excerpt field) a field of several lines past it.
  const isWhole = (key: string, text: string) =>
    flat(text).length > WHOLE && prose(text) && (key === field || (!excerpts && /[\r\n]/.test(text.trim())));
  const wholeBy = new Map<string, number>();
  for (const hit of items)
    for (const [key, value] of Object.entries(hit))
      if (typeof value === 'string' && isWhole(key, value)) wholeBy.set(key, (wholeBy.get(key) ?? 0) + 1);
  const [wholeField, whole] = [...wholeBy].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  if (!layout && !whole) return [];
  const facts = { hits: items.length, field: field ?? '', layout, wholeField, whole, limit: WHOLE };
  return [finding('search-excerpt-raw', facts, { side, subject: onTool(o.tool), caseId: o.caseId })];
}
