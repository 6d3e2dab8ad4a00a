import type { CharSet, Expression, NFA, NoParent } from 'refa';
import { refa } from './refa.js';

/**
 * `pattern` compared as a regular language (docs/verdicts.md, "Calm needs a proof"). JSON Schema's
 * `pattern` is unanchored (ECMA-262 search, with the `u` flag ajv compiles it with), so a string is
 * accepted when some substring matches: the language is `[^]*(?:P)[^]*` read over whole strings. refa
 * builds the automata; what it cannot build (lookaround left inside the pattern, backreferences it
 * cannot resolve, an automaton past NODES) is said, and the caller holds the change: a pattern pair
 * the gate cannot compare is never calm.
 */
const MAX_PATTERN = 2000;
/** States any one automaton (or a product of two) may have: past it, the patterns are not compared. */
const NODES = 20_000;
/** Lengths past this are not modelled (the automaton for `[^]{n,}` has n states): the bound is left out. */
const MAX_MODELLED_LENGTH = 256;

/** The strings a pattern accepts, or why refa cannot say. */
type Language = NFA | string;

export interface Lengths {
  min: number;
  max: number;
}

/** Words in one language and not in the other, or why the two could not be compared. */
export type Difference = { words: string[] } | { unknown: string };

const languages = new Map<string, Language>();
const differences = new Map<string, Difference>();

/** What `pattern` accepts as whole strings (null: every string). Cached: schemas repeat their patterns. */
function languageOf(pattern: string | null): Language {
  const key = pattern ?? '\u0000all';
  let known = languages.get(key);
  if (known === undefined) {
    known = pattern === null ? wholeWords('[^]*') : build(pattern);
    if (languages.size > 2_000) languages.clear();
    languages.set(key, known);
  }
  return known;
}

function build(pattern: string): Language {
  const { JS } = refa();
  if (pattern.length > MAX_PATTERN) return `a pattern is longer than ${MAX_PATTERN} characters`;
  try {
    // The pattern alone first: `(?:P)` around an unbalanced P could parse where P does not.
    JS.Parser.fromLiteral({ source: pattern, flags: 'u' });
  } catch {
    return `${JSON.stringify(pattern)} is not a valid regular expression with the u flag`;
  }
  return wholeWords(`[^]*(?:${pattern})[^]*`);
}

/**
 * The whole strings a regular expression matches from start to end. Assertions left after refa's
 * simplification are resolved only where that is sound: a negative lookaround of one character at
 * the edge of the string sees nothing, so it holds (`^`, `$`, `\b` at an edge). Any other is not
 * resolved, and the language is unknown.
 */
function wholeWords(source: string): Language {
  const { JS, NFA, Transformers, transform } = refa();
  try {
    const parsed = JS.Parser.fromLiteral({ source, flags: 'u' }).parse({ backreferences: 'throw', maxNodes: NODES });
    let expression = transform(Transformers.simplify({ ignoreOrder: true, ignoreAmbiguity: true }), parsed.expression);
    const why = unresolvable(expression);
    if (why) return why;
    expression = transform(Transformers.patternEdgeAssertions({ inline: false, remove: true }), expression);
    return NFA.fromRegex(expression, { maxCharacter: parsed.maxCharacter }, { assertions: 'throw' }, new NFA.LimitedNodeFactory(NODES));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/too many/i.test(message)) return `its automaton has more than ${NODES.toLocaleString('en-US')} states`;
    if (/backreference/i.test(message)) return 'it uses a backreference';
    if (/assertion/i.test(message)) return 'it uses a lookaround that cannot be resolved';
    return message;
  }
}

/** Why an expression holds something only an edge could resolve and that is not a one-character negative lookaround. */
function unresolvable(expression: NoParent<Expression>): string | null {
  const { visitAst } = refa();
  let why: string | null = null;
  visitAst(expression, {
    onAssertionEnter: (node) => {
      const oneCharacter = node.alternatives.every((a) => a.elements.length === 1 && a.elements[0]!.type === 'CharacterClass');
      if (!node.negate || !oneCharacter) why ??= 'it uses a lookaround that cannot be resolved';
    },
    onUnknownEnter: () => {
      why ??= 'it uses a backreference';
    },
  });
  return why;
}

/** Strings that do not start with '-'. */
const NO_DASH = '(?:[^-][^]*)?';
/** A string that starts with '-' and is a number (refusesOptionLike in diff/confirm-ask.ts reads these as values). */
const DASH_NUMBER = '-(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?';

/** What a command line reads as an option: '-' first, and not a number. */
function optionLike(): NFA | null {
  const { DFA, NFA } = refa();
  const dash = wholeWords('-[^]*');
  const number = wholeWords(DASH_NUMBER);
  if (typeof dash === 'string' || typeof number === 'string') return null;
  const notNumber = DFA.fromFA(number, new DFA.LimitedNodeFactory(NODES));
  notNumber.complement();
  return NFA.fromIntersection(dash, notNumber, new NFA.LimitedNodeFactory(NODES));
}

/**
 * Strings that `accept` takes and `refuse` refuses (null: no pattern, every string), within the
 * lengths given. `{ words: [] }` is a proof that there is none. Which ones, and in what order, is
 * what the witness search needs (docs/verdicts.md, "Argument-injection hardening"): the shortest that
 * does not start with '-' first, with the shortest of all; where every one starts with '-' (the
 * change refuses a leading dash and nothing else), one a command line reads as an option alone, so
 * a number such a rule refuses too (`-1`) does not turn the hardening into a break. Where those are
 * all numbers, the shortest: a negative number refused is a break.
 */
export function patternDifference(accept: string | null, refuse: string | null, lengths: Lengths = { min: 0, max: Infinity }): Difference {
  const key = JSON.stringify([accept, refuse, lengths.min, lengths.max]);
  let known = differences.get(key);
  if (known === undefined) {
    known = difference(accept, refuse, lengths);
    if (differences.size > 2_000) differences.clear();
    differences.set(key, known);
  }
  return known;
}

function difference(accept: string | null, refuse: string | null, lengths: Lengths): Difference {
  const { DFA, NFA } = refa();
  const [taken, refused] = [languageOf(accept), languageOf(refuse)];
  if (typeof taken === 'string') return { unknown: taken };
  if (typeof refused === 'string') return { unknown: refused };
  try {
    const outside = DFA.fromFA(refused, new DFA.LimitedNodeFactory(NODES));
    outside.complement();
    let apart: NFA = NFA.fromIntersection(taken, outside, new NFA.LimitedNodeFactory(NODES));
    const bounded = lengthLanguage(lengths);
    if (bounded) apart = NFA.fromIntersection(apart, bounded, new NFA.LimitedNodeFactory(NODES));
    if (apart.isEmpty) return { words: [] };
    const plain = wholeWords(NO_DASH);
    const undashed = typeof plain === 'string' ? [] : shortest(apart, plain);
    if (undashed.length) return { words: [...new Set([...undashed, ...shortest(apart, null)])] };
    const options = optionLike();
    const dashed = options ? shortest(apart, options) : [];
    return { words: dashed.length ? dashed : shortest(apart, null) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { unknown: /too many/i.test(message) ? `the automata have more than ${NODES.toLocaleString('en-US')} states` : message };
  }
}

/** `[^]{min,max}` as whole words, for the lengths short enough to model; null when none bounds anything. */
function lengthLanguage({ min, max }: Lengths): NFA | null {
  const lo = min > MAX_MODELLED_LENGTH ? 0 : Math.max(0, Math.ceil(min));
  const hi = max > MAX_MODELLED_LENGTH ? null : Math.floor(max);
  if (lo === 0 && hi === null) return null;
  const made = hi !== null && hi < lo ? wholeWords('[]') : wholeWords(`[^]{${lo},${hi ?? ''}}`);
  return typeof made === 'string' ? null : made;
}

/** The shortest word (two at most, of the first lengths) in `language`, and in `also` when given. */
function shortest(language: NFA, also: NFA | null): string[] {
  const { Words, getIntersectionWordSets } = refa();
  const sets = also ? getIntersectionWordSets(language, also, NODES) : language.wordSets();
  const out: string[] = [];
  for (const set of sets) {
    out.push(Words.fromUnicodeToString(set.map(readable)));
    if (out.length >= (also ? 1 : 2)) break;
  }
  return out;
}

/** Characters a person reads easily, tried in this order; else the set's first. */
const PREFERRED = [...'aAbcxyz019-_./:@ é', ...Array.from({ length: 0x7e - 0x20 }, (_, i) => String.fromCharCode(0x21 + i))].map((c) =>
  c.codePointAt(0)!,
);

function readable(set: CharSet): number {
  return PREFERRED.find((c) => set.has(c)) ?? set.ranges[0]!.min;
}
