/**
 * A rule on what a call may send that only the text states: "Filename must end with .png", "Must
 * not start with '-'", "Absolute paths are accepted only inside the image directory", "otherwise
 * the request is rejected". It is not steering (the model is told what the server refuses, not how
 * to behave), but the schema, which validators read, does not show it: a caller that followed the
 * old text may now be refused. The gate holds a bound the schema newly declares
 * (`input-constraint-declared`), so it holds the same bound written in words (docs/verdicts.md,
 * "Text that steers the model").
 */
/** A refusal, in a tool's description or a parameter's: "otherwise the request is rejected". */
const REFUSAL = String.raw`(?:is|are|will be|gets?) (?:rejected|refused|not (?:allowed|accepted|permitted))|only (?:accepts?|allows?)|(?:accepted|allowed) only`;
/**
 * A permission a call now needs, in either text: "DELETE requires the delete permission". A caller
 * without it is refused, as by a refusal the text states.
 */
const PERMISSION = String.raw`requires?\b[^.;:!?]{0,40}?\b(?:permissions?|privileges?|scopes?|roles?)`;
/** A requirement on the value, in a parameter's description only: a tool's text says "must" of its syntax too. */
const REQUIREMENT = String.raw`must (?:not )?(?:be|end with|start with|begin with|contain|match|include|have|exceed|use)`;

const PATTERNS = {
  parameter: new RegExp(String.raw`\b(?:${REQUIREMENT}|${REFUSAL}|${PERMISSION})\b`, 'gi'),
  description: new RegExp(String.raw`\b(?:${REFUSAL}|${PERMISSION})\b`, 'gi'),
};

/** The words of destroying, in every form a sentence uses ("deletes", "dropped", "overwritten"). */
export const DESTROYS = String.raw`delet(?:e|es|ed|ing)|overwrit(?:e|es|ten|ing)|drop(?:s|ped|ping)?|purg(?:e|es|ed|ing)|destroy(?:s|ed|ing)?|wip(?:e|es|ed|ing)|eras(?:e|es|ed|ing)|truncat(?:e|es|ed|ing)`;

/**
 * What a call destroys, in a tool's own text: "any field the new manifest omits is removed", "deletes
 * the branch", "overwrites the file". Newly said of a tool that is not read-only, either the tool now
 * does more or its callers were not told: a person reads it (docs/verdicts.md). What is removed from
 * the output ("script tags are removed from the output") shapes the answer, not the world.
 */
const EFFECT = new RegExp(
  String.raw`\b(?:remov(?:e|es|ed|ing)|${DESTROYS})\b(?![^.;]{0,40}\bfrom (?:the |its )?(?:output|result|response|returned)s?\b)`,
  'gi',
);

/**
 * A negation earlier in the same clause: "nothing is summarized or truncated", "not blindly
 * truncated", "never overwrites". The text says what the call does not destroy.
 */
const NEGATED = /(?:\b(?:not|never|nothing|none|without|cannot)\b|n['\u2019]t\b)[^.;:!?,\n\u2014\u2013]{0,40}$/i;
const affirmed = (text: string, at: number) => !NEGATED.test(text.slice(Math.max(0, at - 48), at));

/** The sentence of `after` that newly says the call destroys something, clipped; null when there is none. */
export const statedEffect = (before: string, after: string): string | null => newSentence(before, after, EFFECT, affirmed);

/** The sentence of `after` that states a rule `before` did not, clipped; null when there is none. */
export const statedConstraint = (before: string, after: string, kind: keyof typeof PATTERNS): string | null =>
  newSentence(before, after, PATTERNS[kind]);

/**
 * The first sentence of `after`, not in `before`, where `pattern` matches, when `after` has more
 * matches than `before`; `counts` says which matches count, by where they are in their text.
 */
function newSentence(before: string, after: string, pattern: RegExp, counts = (_text: string, _at: number) => true): string | null {
  const count = (text: string) => [...text.matchAll(pattern)].filter((m) => counts(text, m.index)).length;
  if (count(after) <= count(before)) return null;
  const known = new Set(before.split(/(?<=[.!?])\s+/).map((s) => s.trim()));
  const sentence = after.split(/(?<=[.!?])\s+/).find((s) => count(s) > 0 && !known.has(s.trim())) ?? after;
  const text = sentence.trim().replace(/\s+/g, ' ');
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
