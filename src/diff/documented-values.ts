/**
 * Whether an argument's old text already listed the values a new `enum` declares (docs/verdicts.md,
 * "Values the text already listed"): "Comparison operator: greater, less, equal, in_range, etc."
 * becoming `enum: [greater, less, equal, not_equal, in_range, …]`. A model knows an argument's values
 * from its schema or its text; where the text listed them and every value it listed is still taken,
 * the calls a model made from that text still work, and the list is the text made schema.
 *
 * A list is a run of two or more single-token items (`a, b or c`, `a | b`, quoted or not) inside one
 * clause of the text; "e.g." and "etc." are not items. The text lists the values when some list
 * names at least two of the new values and no list that names any of them names a value left out.
 */
const CLAUSE = /[.;:()[\]{}\n](?:\s|$)|[()[\]{}\n]|\.\s/;
const SEPARATOR = /,|\||\/|\bor\b|\band\b/;
const NOT_ITEMS = new Set(['e.g', 'e.g.', 'eg', 'i.e', 'i.e.', 'etc', 'etc.', '']);
const TOKEN = /^[A-Za-z0-9_][\w.-]*$/;

const QUOTES = new Set(['"', "'", '`', '\u2018', '\u2019', '\u201c', '\u201d']);
/** An item without the quotes around it, trimmed by index: server text, so no pattern that can backtrack on it. */
function unquote(item: string): string {
  const text = item.trim();
  let [start, end] = [0, text.length];
  while (start < end && QUOTES.has(text[start]!)) start++;
  while (end > start && QUOTES.has(text[end - 1]!)) end--;
  return text.slice(start, end);
}

/** The lists in a text: each a run of two or more single-token items, in order. */
function listsIn(text: string): string[][] {
  const out: string[][] = [];
  for (const clause of text.split(CLAUSE)) {
    const items = clause
      .split(SEPARATOR)
      .map(unquote)
      .filter((item) => !NOT_ITEMS.has(item.toLowerCase()));
    // A clause's first item may carry the words that introduce the list ("operator greater").
    if (items.length > 1 && !TOKEN.test(items[0]!)) items[0] = items[0]!.split(/\s+/).at(-1)!;
    if (items.length > 1 && items.every((item) => TOKEN.test(item))) out.push(items);
  }
  return out;
}

export function listedInText(description: unknown, values: readonly unknown[]): boolean {
  if (typeof description !== 'string') return false;
  const taken = new Set(values.filter((v): v is string => typeof v === 'string'));
  const naming = listsIn(description).filter((list) => list.some((item) => taken.has(item)));
  return (
    naming.some((list) => list.filter((item) => taken.has(item)).length >= 2) &&
    naming.every((list) => list.every((item) => taken.has(item)))
  );
}
