import type { Rng } from './prng.js';

/**
 * Strings that match a `pattern`, from a small reading of its syntax: literals, classes, escapes,
 * groups, alternation and quantifiers. Lookaround and backreferences read as nothing, so a sample
 * may not match; ajv judges every instance, so a wrong sample costs one try and proves nothing.
 */
interface CharSet {
  has(c: string): boolean;
  /** Members to draw from, first and last of each range. */
  members: string[];
}
type Atom = { set: CharSet } | { alt: Item[][] } | null;
interface Item {
  atom: Atom;
  min: number;
  max: number;
}
type Mode = 'min' | 'max' | 'random';

// Characters tried for `.` and negated classes.
const UNIVERSE = [...'az AZ09_-.@/:!é'];
const range = (from: string, to: string): CharSet => ({
  has: (c) => c >= from && c <= to,
  members: from === to ? [from] : [from, String.fromCharCode(Math.floor((from.charCodeAt(0) + to.charCodeAt(0)) / 2)), to],
});
const union = (sets: CharSet[]): CharSet => ({ has: (c) => sets.some((s) => s.has(c)), members: sets.flatMap((s) => s.members) });
const negate = (set: CharSet): CharSet => ({ has: (c) => !set.has(c), members: UNIVERSE.filter((c) => !set.has(c)) });
const DIGIT = range('0', '9');
const WORD = union([range('a', 'z'), range('A', 'Z'), DIGIT, range('_', '_')]);
const SPACE = union([range(' ', ' '), range('\t', '\t')]);
const ANY = { has: (c: string) => c !== '\n', members: ['a', 'x', '0'] };
const CLASS_ESCAPES: Record<string, CharSet> = { d: DIGIT, w: WORD, s: SPACE, D: negate(DIGIT), W: negate(WORD), S: negate(SPACE) };
const CONTROL: Record<string, string> = { n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', '0': '\0' };

class Parser {
  i = 0;
  constructor(private readonly src: string) {}

  alternatives(): Item[][] {
    const alts = [this.sequence()];
    while (this.src[this.i] === '|') {
      this.i++;
      alts.push(this.sequence());
    }
    return alts;
  }

  private sequence(): Item[] {
    const items: Item[] = [];
    while (this.i < this.src.length && this.src[this.i] !== '|' && this.src[this.i] !== ')') {
      const atom = this.atom();
      const [min, max] = this.quantifier();
      items.push({ atom, min, max });
    }
    return items;
  }

  private atom(): Atom {
    const c = this.src[this.i++]!;
    if (c === '(') return this.group();
    if (c === '[') return { set: this.charClass() };
    if (c === '.') return { set: ANY };
    if (c === '^' || c === '$') return null;
    if (c === '\\') return this.escape(false);
    return { set: range(c, c) };
  }

  private group(): Atom {
    const head = /^\?(?:<?[=!]|:|<[^>]*>)/.exec(this.src.slice(this.i))?.[0] ?? '';
    this.i += head.length;
    const alt = this.alternatives();
    this.i++; // ')'
    return /^\?<?[=!]/.test(head) ? null : { alt };
  }

  private charClass(): CharSet {
    const negated = this.src[this.i] === '^';
    if (negated) this.i++;
    const sets: CharSet[] = [];
    while (this.i < this.src.length && this.src[this.i] !== ']') {
      const from = this.classChar();
      if (this.src[this.i] === '-' && this.src[this.i + 1] !== ']' && typeof from === 'string') {
        this.i++;
        const to = this.classChar();
        sets.push(typeof to === 'string' ? range(from, to) : union([range(from, from), to, range('-', '-')]));
      } else sets.push(typeof from === 'string' ? range(from, from) : from);
    }
    this.i++; // ']'
    const set = union(sets);
    return negated ? negate(set) : set;
  }

  private classChar(): string | CharSet {
    const c = this.src[this.i++]!;
    if (c !== '\\') return c;
    const escaped = this.escape(true);
    return escaped && 'set' in escaped ? (escaped.set.members.length === 1 ? escaped.set.members[0]! : escaped.set) : '';
  }

  private escape(inClass: boolean): Atom {
    const c = this.src[this.i++] ?? '\\';
    if (CLASS_ESCAPES[c]) return { set: CLASS_ESCAPES[c] };
    if (CONTROL[c]) return { set: range(CONTROL[c], CONTROL[c]) };
    const hex =
      c === 'u'
        ? /^(?:\{([0-9a-fA-F]+)\}|([0-9a-fA-F]{4}))/.exec(this.src.slice(this.i))
        : c === 'x'
          ? /^([0-9a-fA-F]{2})/.exec(this.src.slice(this.i))
          : null;
    if (hex) {
      this.i += hex[0].length;
      const ch = String.fromCodePoint(parseInt(hex[1] ?? hex[2]!, 16));
      return { set: range(ch, ch) };
    }
    if (c === 'p' || c === 'P') {
      this.i += /^\{[^}]*\}/.exec(this.src.slice(this.i))?.[0].length ?? 0;
      return { set: c === 'p' ? range('a', 'z') : DIGIT };
    }
    if (!inClass && (c === 'b' || c === 'B' || /[1-9k]/.test(c))) {
      if (c === 'k') this.i += /^<[^>]*>/.exec(this.src.slice(this.i))?.[0].length ?? 0;
      return null; // word boundaries and backreferences: nothing to emit
    }
    return { set: range(c, c) };
  }

  private quantifier(): [number, number] {
    const rest = this.src.slice(this.i);
    const m = /^(?:([*+?])|\{(\d+)(,(\d*))?\})[?+]?/.exec(rest);
    if (!m) return [1, 1];
    this.i += m[0].length;
    if (m[1] === '*') return [0, Infinity];
    if (m[1] === '+') return [1, Infinity];
    if (m[1] === '?') return [0, 1];
    const min = Number(m[2]);
    return [min, m[3] === undefined ? min : m[4] ? Number(m[4]) : Infinity];
  }
}

const LONGEST = 200;

function emit(alts: Item[][], mode: Mode, rng: Rng): string {
  const seq = mode === 'min' ? alts[0]! : mode === 'max' ? alts[alts.length - 1]! : rng.pick(alts);
  let out = '';
  for (const { atom, min, max } of seq) {
    const most = Math.min(max, min + 6);
    const times = mode === 'min' ? min : mode === 'max' ? most : min + rng.int(most - min + 1);
    for (let k = 0; k < times && out.length < LONGEST; k++) {
      if (!atom) break;
      if ('alt' in atom) out += emit(atom.alt, mode, rng);
      else {
        const { members } = atom.set;
        out += (mode === 'min' ? members[0] : mode === 'max' ? members[members.length - 1] : rng.pick(members)) ?? '';
      }
    }
  }
  return out;
}

/** A few strings that likely match the pattern: the shortest, a long one, and random ones. */
export function patternSamples(pattern: string, rng: Rng, count = 4): string[] {
  let alts: Item[][];
  try {
    alts = new Parser(pattern).alternatives();
  } catch {
    return [];
  }
  const modes: Mode[] = ['min', 'max', ...Array<Mode>(Math.max(0, count - 2)).fill('random')];
  return [...new Set(modes.map((mode) => emit(alts, mode, rng)))];
}
