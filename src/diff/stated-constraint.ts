/**
 * A rule on an argument's value that only its description states: "Filename must end with .png",
 * "Must not start with '-'", "Absolute paths are accepted only inside the image directory". It is
 * not steering (the model is told what the server refuses, not how to behave), but the schema, which
 * validators read, does not show it: a caller that followed the old text may now be refused. The
 * gate holds a bound the schema newly declares (`input-constraint-declared`), so it holds the same
 * bound written in words (docs/verdicts.md, "Text that steers the model").
 */
const CONSTRAINT =
  /\b(?:must (?:not )?(?:be|end with|start with|begin with|contain|match|include|have|exceed|use)|(?:is|are) (?:rejected|refused|not (?:allowed|accepted|permitted))|only (?:accepts?|allows?)|(?:accepted|allowed) only)\b/gi;

const count = (text: string) => text.match(CONSTRAINT)?.length ?? 0;

/** The sentence of `after` that states a rule `before` did not, clipped; null when there is none. */
export function statedConstraint(before: string, after: string): string | null {
  if (count(after) <= count(before)) return null;
  const known = new Set(before.split(/(?<=[.!?])\s+/).map((s) => s.trim()));
  const sentence = after.split(/(?<=[.!?])\s+/).find((s) => count(s) > 0 && !known.has(s.trim())) ?? after;
  const text = sentence.trim().replace(/\s+/g, ' ');
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
