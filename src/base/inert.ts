/**
 * Text a server wrote, made inert for every place the gate prints it. A candidate is code from a
 * pull request, so its tool names, descriptions, errors and stderr are an attacker's: they must not
 * move a terminal's cursor, open a hyperlink, hide text behind bidirectional controls, start a
 * GitHub workflow command (`::add-mask::`, `::stop-commands::`), or mention, link or show an image
 * in a PR comment. The JSON report keeps the text as it was (JSON escapes the controls); every
 * rendering passes it through here.
 */

/**
 * Characters that act instead of showing: C0 and C1 controls (escape sequences start with ESC),
 * DEL, the line and paragraph separators, zero-width characters, bidirectional controls, and the
 * Unicode tag block.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ACTIVE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]/gu;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const escapeActive = (text: string): string =>
  text.replace(ACTIVE, (c) => NAMED[c] ?? `\\u{${c.codePointAt(0)!.toString(16).toUpperCase().padStart(2, '0')}}`);

/**
 * HTML comment delimiters (`<!--`, `-->`, `--!>`), with their second dash shown as an escape. A
 * code span or fence shows `<` as it is, but GitHub stores the comment's raw text, and the gate's
 * own hidden lines are HTML comments: server text must never open, close or imitate one.
 */
// Spelled `-{2}`: the HTML report inlines this code in a <script>, where a literal `<!--` would change how the page parses.
const noCommentDelimiters = (text: string): string => text.replace(/<!-{2}/g, '<!-\\u{2D}').replace(/-{2}(!?)>/g, '-\\u{2D}$1>');

/** One printable line: every active character shown as an escape (`\n`, `\u{1B}`), and no HTML comment delimiter. */
export const inert = (text: string): string => noCommentDelimiters(escapeActive(text));

/** Text whose line breaks and tabs lay it out (a page's text node): every other active character as an escape, as in inert. */
export const inertLayout = (text: string): string =>
  noCommentDelimiters(text.replace(ACTIVE, (c) => (c === '\n' || c === '\t' ? c : escapeActive(c))));

/** Lines kept (a stderr tail), each one made inert. */
export const inertLines = (text: string): string => text.split(/\r?\n/).map(inert).join('\n');

/**
 * Output as a whole, last thing before it is written: no line may begin a workflow command, in
 * the current form (`::name::`) or the old one (`##[name]`), even after leading blanks. Such a
 * line is shown behind a backslash. Escapes the gate itself writes (terminal colours) are left
 * alone, so this goes after rendering, on top of `inert` for the server's text.
 */
export const noWorkflowCommands = (text: string): string => text.replace(/^([ \t]*)(::|##\[)/gm, '$1\\$2');

/**
 * Server text inside markdown prose or a table cell: inert, one line, and nothing GitHub would
 * act on. Markup characters are backslash-escaped (no image, link, emphasis, heading, table cell
 * break or HTML), `@` and bare URLs are broken with a zero-width space so no one is mentioned and
 * nothing is linked, and `&` is an entity so no other entity can be spelled.
 */
export function markdownText(text: string): string {
  // `<` and `>` become entities below, so no comment delimiter survives without inert's escape of it.
  return escapeActive(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]#!|~]/g, '\\$&')
    .replace(/@/g, '@&#8203;')
    .replace(/:\/\//g, ':&#8203;//')
    .replace(/\bwww\./gi, (w) => `${w.slice(0, 3)}&#8203;.`);
}

/** Server text as inline code: inert, pipes escaped for tables, fenced so a backtick cannot close it. */
export function markdownCode(text: string): string {
  const body = inert(text).replace(/\|/g, '\\|');
  const longest = Math.max(0, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return longest ? `${fence} ${body} ${fence}` : `${fence}${body}${fence}`;
}

/** Server text as a fenced code block: lines kept and made inert, the fence longer than any backtick run inside. */
export function markdownBlock(text: string): string {
  const body = inertLines(text);
  const longest = Math.max(2, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${body}\n${fence}`;
}

/**
 * JSON text with the invisible and bidirectional characters JSON.stringify leaves raw written as
 * `\u` escapes: the same data when parsed, but nothing a terminal or an editor reorders or hides.
 */
export const jsonInert = (json: string): string =>
  json.replace(/[\u2028\u2029\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|\udb40[\udc00-\udc7f]/g, (c) =>
    Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
  );
