import { wordHunks, words } from './word-diff.js';

/**
 * How much a text edit rewrote, for the text of a tool's result (audit/result-drift.ts). Descriptions
 * and server instructions are judged by what the edit tells the model instead (diff/steering.ts):
 * the size of an edit, a changed figure or a directive word gone says nothing of that, and holding on
 * them held factual edits (docs/verdicts.md, "Text that steers the model"). An edit is a rewrite
 * when any of these holds, and a wording edit otherwise:
 *
 * 1. **An instruction appears or goes.** The count of any directive word differs between the two
 *    texts: obligations (must, always, should, required), prohibitions (never, do not, cannot),
 *    emphasis (important, critical), preference and scope (prefer, instead, whenever, even
 *    when/if, only, avoid), workflow (first, retry, confirm, ask the user), or a negation of a
 *    verb (`does not`, `isn't`, `no longer`).
 * 2. **A figure changes.** A number replaced by another in the same place ("up to 10" → "up to 5").
 * 3. **Text appears or goes.**
 * 4. **Much of it is new.** More words inserted or removed than 8 or 30% of the longer text
 *    (whichever is larger), more than 40 words inserted, or a changed middle too large to diff,
 *    unless the edit only adds (at most 2 words out, at most 40 in) in plain words (no link,
 *    markup, mention or code) and no added sentence opens with a command ("Use …", "Send …").
 */
export type Wording = { kind: 'reworded'; why: string } | { kind: 'rewritten'; why: string };

const DIRECTIVES: [string, RegExp][] = [
  ['must', /\bmust\b/gi],
  ['always', /\balways\b/gi],
  ['should', /\bshould\b/gi],
  ['required', /\b(?:required|requires?)\b/gi],
  ['never', /\bnever\b/gi],
  [
    'do not',
    /\b(?:do|does|did|is|are|was|were|will|would|can|could|should|must|may|might|has|have)\s+not\b|\b\w+n['\u2019]t\b|\bcannot\b|\bno\s+longer\b/gi,
  ],
  ['important', /\b(?:important|critical|crucial|warning)\b/gi],
  ['prefer', /\b(?:prefer|preferred|instead|rather\s+than|whenever|even\s+(?:when|if))\b/gi],
  ['only', /\bonly\b/gi],
  ['avoid', /\b(?:avoid|ignore)\b/gi],
  ['first', /\b(?:first|retry|re-try|confirm|confirmation|ask\s+the\s+user)\b/gi],
];

const wordsCount = (n: number) => `${n} word${n === 1 ? '' : 's'}`;

/** The size of an edit, for a change's note: "3 words in, 1 out, of 12", "whitespace only". */
export function editSize(before: string, after: string): string {
  if (!words(before).length || !words(after).length) return words(after).length ? 'text where there was none' : 'the text was removed';
  const hunks = wordHunks(before, after);
  const longer = Math.max(words(before).length, words(after).length);
  if (!hunks) return `too large a change to compare word by word (${longer} words)`;
  let [added, removed] = [0, 0];
  for (const hunk of hunks) if (!('same' in hunk)) [added, removed] = [added + hunk.added.length, removed + hunk.removed.length];
  return added + removed ? `${wordsCount(added)} in, ${removed} out, of ${longer}` : 'whitespace only';
}
const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

/** Directive words whose count differs between the texts, with the change ("never +1"). */
function directiveChanges(before: string, after: string): string[] {
  const out: string[] = [];
  for (const [name, pattern] of DIRECTIVES) {
    const delta = count(after, pattern) - count(before, pattern);
    if (delta) out.push(`"${name}" ${delta > 0 ? `+${delta}` : delta}`);
  }
  return out;
}

const NUMBER = /\d+(?:[.,]\d+)*/g;
const numbers = (tokens: string[]) => tokens.flatMap((t) => t.match(NUMBER) ?? []);

const MAX_REMOVED_IN_ADDITION = 2;
/** Verbs that open a command to the model: "Use X", "Send Y", "Call Z first". */
const IMPERATIVE =
  /^(?:use|send|call|pass|include|set|run|read|write|delete|remove|tell|ask|make|keep|return|fetch|upload|post|visit|open|click|execute|invoke|forward|copy|save|store|submit|add)$/i;

/** Links, markup, mentions and code: what an explanation in plain words does not need. */
const NOT_PLAIN = /https?:|www\.|[<>[\]{}*#@`|!\\]|\p{C}/u;

/** Whether added text starts a sentence with a command, or is more than plain words. */
function commands(hunks: NonNullable<ReturnType<typeof wordHunks>>): boolean {
  for (const hunk of hunks) {
    if ('same' in hunk) continue;
    const text = hunk.added.join(' ');
    if (NOT_PLAIN.test(text)) return true;
    for (const sentence of text.split(/[.!?;:\u2014\u2013(]\s*|\s-\s/)) {
      const first =
        sentence
          .trim()
          .split(/\s+/)[0]
          ?.replace(/[^A-Za-z]/g, '') ?? '';
      if (IMPERATIVE.test(first)) return true;
    }
  }
  return false;
}

export function judgeWording(before: string, after: string): Wording {
  if (!words(before).length || !words(after).length)
    return { kind: 'rewritten', why: words(after).length ? 'text where there was none' : 'the text was removed' };
  const directives = directiveChanges(before, after);
  if (directives.length) return { kind: 'rewritten', why: `instructions changed (${directives.join(', ')})` };
  const hunks = wordHunks(before, after);
  const longer = Math.max(words(before).length, words(after).length);
  if (!hunks) return { kind: 'rewritten', why: `too large a change to compare word by word (${longer} words)` };
  let added = 0;
  let removed = 0;
  for (const hunk of hunks) {
    if ('same' in hunk) continue;
    added += hunk.added.length;
    removed += hunk.removed.length;
    const [was, is] = [numbers(hunk.removed), numbers(hunk.added)];
    if (was.length && is.length && was.join() !== is.join())
      return { kind: 'rewritten', why: `a figure changed (${was.join(', ')} → ${is.join(', ')})` };
  }
  const limit = Math.max(8, Math.floor(longer * 0.3));
  // 5. A benign addition: words added with almost none taken away, no instruction, no figure, and
  //    no sentence of its own that tells the model to do something. It explains; it does not steer.
  if (removed <= MAX_REMOVED_IN_ADDITION && added <= 40 && !commands(hunks)) {
    return {
      kind: 'reworded',
      why: `${wordsCount(added)} added, ${removed} out, of ${longer}; an explanation with no instruction or figure`,
    };
  }
  if (Math.max(added, removed) > limit || added > 40)
    return { kind: 'rewritten', why: `rewritten (${wordsCount(added)} in, ${removed} out, of ${longer})` };
  return {
    kind: 'reworded',
    why: added + removed ? `${wordsCount(added)} in, ${removed} out, of ${longer}; no instruction or figure changed` : 'whitespace only',
  };
}
