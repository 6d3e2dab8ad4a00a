import { inert } from '../../base/inert.js';
import type { FindingMeta } from './meta.js';

/** Places named in one tool-reference-missing finding; the rest are "and more". */
const MAX_PLACES = 10;
/** Tools named in one confusable-descriptions finding; the rest are "and more". */
const MAX_NAMES = 6;
const quotedNames = (names: string[]) =>
  names
    .slice(0, MAX_NAMES)
    .map((n) => `"${inert(n)}"`)
    .join(', ') + (names.length > MAX_NAMES ? ' and more' : '');

/**
 * The write-ups' lessons (docs/writeups-lessons.md): a tool the contract sends the model to but does
 * not list, a server that annotates nothing or gives no instructions, id arguments that name no
 * source tool, tools its descriptions do not tell apart, page sizes with no bound, results nulled,
 * rewritten, steering the model or padded with nulls, page hints that lead nowhere, search excerpts
 * that miss the query or are raw text, and results thinned under a description that still promises
 * them. A check that fires on most recorded releases is reported, never judged (`ignore`).
 */
export const AUDIT_LESSON_CODES = {
  'tool-reference-missing': {
    area: 'audit',
    severity: 'dangerous',
    action: 'hold',
    title: 'Tools named that the server does not list',
    noun: ['mention of a tool the server does not list', 'mentions of tools the server does not list'],
    message: (f: { name: string; places: string[] }) =>
      `"${f.name}" is named in ${f.places.slice(0, MAX_PLACES).join(', ')}${f.places.length > MAX_PLACES ? ' and more' : ''}, but the server does not list it: the model is sent to a tool it cannot call.`,
  },
  // A heuristic on descriptions: fires on 2 of the 45 recorded servers (docs/writeups-lessons.md, row 21). Reported, not judged.
  'confusable-descriptions': {
    area: 'audit',
    severity: 'dangerous',
    action: 'ignore',
    title: 'Tools whose descriptions do not tell them apart',
    noun: ['set of tools whose descriptions do not tell them apart', 'sets of tools whose descriptions do not tell them apart'],
    doc: 'tools about the same thing (the same name once the verbs are set aside: `list_bugs`, `get_bug`) whose descriptions share half their words or more beyond the names, while neither names the other.',
    message: (f: { names: string[]; shared: string[] }) =>
      `${quotedNames(f.names)} are about the same thing and their descriptions say much the same (${f.shared.map(inert).join(', ')}), and none names another: the model has nothing to choose by. Say in each when to use the other.`,
  },
  'server-unannotated': {
    area: 'audit',
    severity: 'dangerous',
    action: 'ignore',
    title: 'Servers that annotate no tool',
    noun: ['server that annotates no tool', 'servers that annotate no tool'],
    message: (f: { tools: number }) =>
      `None of the ${f.tools} tools declares an annotation, so by the spec's defaults every one is destructive and open-world: with side effects off the gate calls none of them, and what the model would read is not audited. Declare readOnlyHint and destructiveHint, or list the tools a person knows are safe to call in the profile's safeTools.`,
  },
  // Fires on 30 of the 45 recorded servers (docs/writeups-lessons.md): reported, not judged.
  'instructions-missing': {
    area: 'audit',
    severity: 'dangerous',
    action: 'ignore',
    title: 'Servers with several tools and no instructions',
    noun: ['server with several tools and no instructions', 'servers with several tools and no instructions'],
    message: (f: { tools: number }) =>
      `${f.tools} tools and no instructions: each tool's schema says what it does, not how the tools relate (which tool an id comes from, what to call first, how to page). Ship server instructions with the domain, the id map and the paging rule.`,
  },
  // Fires on 11 of the 45 recorded servers: reported, not judged.
  'list-limit-unbounded': {
    area: 'audit',
    severity: 'dangerous',
    action: 'ignore',
    title: 'List sizes with no maximum',
    noun: ['list size with no maximum', 'list sizes with no maximum'],
    message: (f: { tool: string; parameters: string[] }) =>
      `${f.parameters.map((p) => `"${inert(p)}"`).join(', ')} of "${inert(f.tool)}" ${f.parameters.length === 1 ? 'has' : 'have'} no maximum: one call can ask for a list as large as the backend allows, and every byte of it lands in the model's context. Declare a maximum (and a default).`,
  },
  // Fires on most recorded servers with id arguments (docs/writeups-lessons.md, row 7): reported, not judged.
  'id-source-missing': {
    area: 'audit',
    severity: 'dangerous',
    action: 'ignore',
    title: 'Id arguments whose source is not named',
    doc: "an argument named as an id (`id`, `post_id`, `tagIds`; a string or a number, not an enum) where neither its description, nor the tool's, nor a sentence of the instructions that names it, names a listed tool the id comes from.",
    noun: ['tool with id arguments whose source is not named', 'tools with id arguments whose source is not named'],
    message: (f: { tool: string; parameters: string[]; more: number }) =>
      `${f.parameters.map((p) => `"${inert(p)}"`).join(', ')}${f.more ? ` and ${f.more} more` : ''} of "${inert(f.tool)}" take${f.parameters.length + f.more === 1 ? 's' : ''} an id, and nothing says which tool returns it: the model must take ids from a prior call, and without a name it guesses the tool or makes the id up. Name the tool in the argument's description ("Post id, from list_posts") or in the instructions' id map.`,
  },
  'result-field-nulled': {
    area: 'audit',
    severity: 'dangerous',
    action: 'hold',
    title: 'Result values now null',
    noun: ['result value now null', 'result values now null'],
    message: (f: { at: string; was: string }) => `${f.at} was ${f.was}, is null.`,
  },
  // `why` it reads as rewritten; `suspicious` only in reports written before result-text-suspicious.
  'result-text-changed': {
    area: 'audit',
    // The text was rewritten to carry what the model lacked: the items, the page hint, a flagged error.
    resolves: {
      'pagination-hint-hidden': 'probe',
      'structured-content-without-text': 'probe',
      'error-not-flagged': 'probe',
      'result-pretty-json': 'probe',
      'result-too-large': 'probe',
    },
    severity: 'dangerous',
    action: 'hold',
    title: 'Result text rewritten with the same data',
    noun: ['result text rewritten', 'result texts rewritten'],
    message: (f: { suspicious: string[] } | { why: string }) =>
      'suspicious' in f
        ? `the text the model reads now contains ${f.suspicious.join('; ')}, while structuredContent is unchanged.`
        : `the text the model reads was rewritten while structuredContent is unchanged: ${f.why}.`,
  },
  // diff/suspicious.ts says what the new text carries; the text the model reads, whatever structuredContent does.
  'result-text-suspicious': {
    area: 'audit',
    severity: 'breaking',
    action: 'rollback',
    title: 'Result text that steers the model',
    noun: ['result text that steers the model', 'result texts that steer the model'],
    message: (f: { reasons: string[]; dataSame: boolean }) =>
      `the text the model reads now contains ${f.reasons.join('; ')}${f.dataSame ? ', while structuredContent is unchanged' : ''}: a result is data, and text in it that gives the model orders is read as orders.`,
  },
  // Hits whose excerpt holds none of the query's words; reported, not judged (the write-up's own server does not centre them yet).
  'search-excerpt-misses-query': {
    area: 'audit',
    severity: 'dangerous',
    action: 'ignore',
    title: 'Search excerpts that do not show the match',
    noun: ['search whose excerpts miss the query', 'searches whose excerpts miss the query'],
    message: (f: { query: string; missing: number; hits: number; field: string }) =>
      `${f.missing} of ${f.hits} hits show none of the words of ${JSON.stringify(inert(f.query).slice(0, 80))} in their "${inert(f.field)}": the model gets hits that do not show why they matched. Centre each excerpt on the match.`,
  },
  // Hits that carry the whole text, or an excerpt that keeps its layout; reported, not judged:
  // a live result no recorded release can count, so the check is kept narrow (audit/excerpt-shape.ts).
  'search-excerpt-raw': {
    area: 'audit',
    severity: 'dangerous',
    action: 'ignore',
    title: 'Search hits without a bounded, flattened excerpt',
    doc: "a hit's excerpt, snippet, highlight or preview holds line breaks, tabs or runs of three spaces, or runs past 1,000 characters; or, in a search whose hits have no such field, a prose field over several lines runs past 1,000 characters (the whole document in each hit). Code hits (a code or file tool, a hit with a path or line, text dense with code punctuation) are left alone.",
    noun: ['search without bounded, flattened excerpts', 'searches without bounded, flattened excerpts'],
    message: (f: { hits: number; field: string; layout: number; wholeField: string; whole: number; limit: number }) => {
      const layout = f.layout ? `${f.layout} of ${f.hits} hits keep line breaks or runs of spaces in their "${inert(f.field)}"` : '';
      const whole = f.whole
        ? `${f.whole} of ${f.hits} hits carry their whole "${inert(f.wholeField)}" (past ${f.limit} characters) rather than an excerpt`
        : '';
      return `${[layout, whole].filter(Boolean).join('; ')}: the model pays for layout and text it does not need to tell one hit from another. Flatten the text first (one space for each run of whitespace), then cut it at a word within a few hundred characters.`;
    },
  },
  // The double envelope is the upstream answer passed through; reported, not judged (a heuristic on one shape).
  'result-upstream-envelope': {
    area: 'audit',
    severity: 'dangerous',
    action: 'ignore',
    title: 'Results passed through in their REST envelope',
    noun: ['result passed through in its REST envelope', 'results passed through in their REST envelope'],
    message: (f: { beside: string[] }) =>
      `the result is the upstream API's answer passed through, an envelope inside an envelope ({"data": {"data": [...]${
        f.beside.length
          ? `, ${f.beside
              .slice(0, 4)
              .map((k) => JSON.stringify(inert(k)))
              .join(', ')}`
          : ''
      }}}): the model reads the API's paging fields instead of the items and the next call. Shape the result for the model: a head line, the items, the way on.`,
  },
  'result-null-fields': {
    area: 'audit',
    severity: 'dangerous',
    action: 'hold',
    title: 'Result fields null in every item',
    doc: 'two or more keys null in every item of a list, or in the one object returned, beside any list it holds (a next cursor of `null` is an end, not a null key).',
    noun: ['result with fields null in every item', 'results with fields null in every item'],
    message: ({ fields }: { fields: string[] }) =>
      `${fields.length} field${fields.length === 1 ? ' is' : 's are'} null in every item (${fields.slice(0, 8).join(', ')}${fields.length > 8 ? ', …' : ''}): absent values written out as null cost the model tokens and read as facts; omit them.`,
  },
  // audit/pagination.ts words why the hint cannot be followed.
  'pagination-hint-unusable': {
    area: 'audit',
    severity: 'dangerous',
    action: 'hold',
    title: 'Next-page hints the tool cannot follow',
    noun: ['next-page hint the tool cannot follow', 'next-page hints the tool cannot follow'],
    message: (f: { why: string }) => f.why,
  },
  'pagination-next-page-empty': {
    area: 'audit',
    severity: 'dangerous',
    action: 'hold',
    title: 'Next pages claimed that come back empty',
    doc: 'the gate asks once for the next page a result claims (its cursor, or `has_more` with the page one up), and that page is empty.',
    noun: ['claimed next page that came back empty', 'claimed next pages that came back empty'],
    message: (f: { args: unknown }) =>
      `the result claims a next page, but asking for it (${inert(JSON.stringify(f.args)).slice(0, 200)}) returns nothing: the model is sent after more that is not there. Say there is more only when there is.`,
  },
  // One per tool, on the first probe that shows the thinning; `fields` the pointers lost, `promise` the description's words.
  // Named when it read only a description left as it was; a rewritten one that still promises is read too (audit/thinned.ts).
  'result-thinned-description-unchanged': {
    area: 'audit',
    severity: 'dangerous',
    action: 'hold',
    title: 'Results thinned under a description that still promises them',
    noun: ['result thinned under a description that still promises it', 'results thinned under a description that still promises them'],
    message: ({ fields, promise }: { fields: string[]; promise: string }) =>
      `results lost ${fields.length} field${fields.length === 1 ? '' : 's'} (${fields.slice(0, 5).map(inert).join(', ')}${fields.length > 5 ? ', …' : ''}) but the description still promises "${inert(promise)}": change the description with the code, and say where the rest is.`,
  },
} as const satisfies Record<string, FindingMeta>;
