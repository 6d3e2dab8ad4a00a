import { isObject } from '../base/json-object.js';
import { resultData } from '../base/result-data.js';
import type { Observation } from '../cases/types.js';
import { finding } from '../findings/finding.js';
import { onTool } from '../findings/subject.js';
import type { Finding, Side } from '../findings/types.js';
import { hitsOf } from './search-excerpts.js';

// The rule (docs/writeups-lessons.md, row 28; write-up 004, "Bounded excerpts"): an excerpt is there
// for the model to judge a hit by, and it pays for every byte of it. Line breaks and indentation in it
// are layout no model needs ("an excerpt full of \n\n and wasted bytes"); a field the server itself
// calls an excerpt that runs to the whole text is the full description in every hit. Flatten first,
// then cut at a word, within a few hundred characters. A cut inside a word is not checked: from the
// excerpt alone it cannot be told from a cut at one (hits cut at a word from templated text share
// their lengths as a fixed-count slice does), and a wrong finding on every search costs more.

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

/**
 * Search hits whose excerpt-like field is not flattened (any one hit), or not bounded.
 * Reported, not judged: a live result, so no recorded release can count it (they hold tools/list
 * only). It stays narrow to stay precise: only a field the server names an excerpt, snippet,
 * highlight or preview; never a code hit (a code or file tool, a hit with a path or line, a field
 * named for code, text dense with code punctuation), where line breaks and indentation mean something.
 */
export function rawExcerpts(o: Observation, side: Side): Finding[] {
  if (o.kind === 'resource' || !isObject(o.result) || o.result.isError === true) return [];
  if (wordsOf(o.tool).some((w) => CODE_TOOL.has(w))) return [];
  const hits = hitsOf(resultData(o.result));
  if (!hits || CODE_FIELD.test(hits.field)) return [];
  const texts = hits.items
    .filter((hit) => !Object.keys(hit).some((k) => LOCATION.test(k)))
    .map((hit) => hit[hits.field] as string)
    .filter((t) => !looksLikeCode(t));
  const layout = texts.filter((t) => LAYOUT.test(t.trim())).length;
  const whole = texts.filter((t) => t.replace(/\s+/g, ' ').trim().length > WHOLE).length;
  if (!layout && !whole) return [];
  const facts = { field: hits.field, hits: texts.length, layout, whole, limit: WHOLE };
  return [finding('search-excerpt-raw', facts, { side, subject: onTool(o.tool), caseId: o.caseId })];
}
