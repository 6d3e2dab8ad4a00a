/**
 * Example strings for a regular expression: a small parser for the ECMAScript syntax schemas use
 * (literals, escapes, classes, groups, alternation, quantifiers, anchors; lookarounds and
 * back-references are skipped), then strings built at the quantifiers' bounds. Every example is
 * checked against the pattern by the caller's RegExp: what this cannot build, it leaves out.
 */
type Range = [number, number];
type Atom =
  | { kind: 'char'; text: string }
  | { kind: 'class'; negated: boolean; ranges: Range[] }
  | { kind: 'group'; alternatives: Item[][] }
  | { kind: 'skip' };
interface Item {
  atom: Atom;
  min: number;
  max: number;
}

const DIGIT: Range[] = [[48, 57]];
const WORD: Range[] = [
  [97, 122],
  [65, 90],
  [48, 57],
  [95, 95],
];
const SPACE: Range[] = [
  [32, 32],
  [9, 10],
  [13, 13],
];
const ANY: Range[] = [[32, 126]];

class Parser {
  i = 0;
  constructor(readonly src: string) {}
  peek = () => this.src[this.i];
  alternatives(): Item[][] {
    const out: Item[][] = [this.sequence()];
    while (this.peek() === '|') {
      this.i++;
      out.push(this.sequence());
    }
    return out;
  }
  sequence(): Item[] {
    const items: Item[] = [];
    while (this.i < this.src.length && this.peek() !== '|' && this.peek() !== ')') {
      const atom = this.atom();
      const [min, max] = this.quantifier();
      items.push({ atom, min, max });
    }
    return items;
  }
  quantifier(): [number, number] {
    const c = this.peek();
    let q: [number, number] = [1, 1];
    if (c === '*') q = [0, Infinity];
    else if (c === '+') q = [1, Infinity];
    else if (c === '?') q = [0, 1];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
      if (!m) return q;
      this.i += m[0].length;
      const lo = Number(m[1]);
      q = [lo, m[2] === undefined ? lo : m[3] === '' ? Infinity : Number(m[3])];
      if (this.peek() === '?') this.i++;
      return q;
    } else return q;
    this.i++;
    if (this.peek() === '?') this.i++;
    return q;
  }
  atom(): Atom {
    const c = this.src[this.i++]!;
    if (c === '^' || c === '$') return { kind: 'skip' };
    if (c === '.') return { kind: 'class', negated: false, ranges: ANY };
    if (c === '(') {
      let capture = true;
      if (this.src.startsWith('?:', this.i)) {
        this.i += 2;
        capture = false;
      } else if (/^\?<?[=!]/.test(this.src.slice(this.i))) {
        this.i += this.src[this.i + 1] === '<' ? 3 : 2;
        this.alternatives();
        this.expect(')');
        return { kind: 'skip' };
      } else if (this.src.startsWith('?<', this.i)) {
        this.i = this.src.indexOf('>', this.i) + 1;
      }
      void capture;
      const alternatives = this.alternatives();
      this.expect(')');
      return { kind: 'group', alternatives };
    }
    if (c === '[') return this.cls();
    if (c === '\\') return this.escape(false) as Atom;
    return { kind: 'char', text: c };
  }
  expect(c: string) {
    if (this.src[this.i] !== c) throw new SyntaxError(`expected ${c}`);
    this.i++;
  }
  escape(inClass: boolean): Atom | Range[] {
    const c = this.src[this.i++]!;
    const cls = (ranges: Range[], negated = false): Atom | Range[] =>
      inClass ? (negated ? [[33, 47]] : ranges) : { kind: 'class', negated, ranges };
    switch (c) {
      case 'd':
        return cls(DIGIT);
      case 'D':
        return cls(DIGIT, true);
      case 'w':
        return cls(WORD);
      case 'W':
        return cls(WORD, true);
      case 's':
        return cls(SPACE);
      case 'S':
        return cls(SPACE, true);
      case 'b':
      case 'B':
        return inClass ? [[8, 8]] : { kind: 'skip' };
      case 'p':
      case 'P': {
        const end = this.src.indexOf('}', this.i);
        if (this.src[this.i] === '{' && end > 0) this.i = end + 1;
        return cls(
          [
            [97, 122],
            [65, 90],
          ],
          c === 'P',
        );
      }
      case 'n':
        return this.literal('\n', inClass);
      case 't':
        return this.literal('\t', inClass);
      case 'r':
        return this.literal('\r', inClass);
      case 'f':
        return this.literal('\f', inClass);
      case 'v':
        return this.literal('\v', inClass);
      case '0':
        return this.literal('\0', inClass);
      case 'x': {
        const hex = this.src.slice(this.i, this.i + 2);
        this.i += 2;
        return this.literal(String.fromCodePoint(parseInt(hex, 16)), inClass);
      }
      case 'u': {
        if (this.src[this.i] === '{') {
          const end = this.src.indexOf('}', this.i);
          const cp = parseInt(this.src.slice(this.i + 1, end), 16);
          this.i = end + 1;
          return this.literal(String.fromCodePoint(cp), inClass);
        }
        const hex = this.src.slice(this.i, this.i + 4);
        this.i += 4;
        return this.literal(String.fromCodePoint(parseInt(hex, 16)), inClass);
      }
      default:
        if (/[1-9]/.test(c) && !inClass) return { kind: 'skip' }; // a back-reference
        return this.literal(c, inClass);
    }
  }
  literal(text: string, inClass: boolean): Atom | Range[] {
    const cp = text.codePointAt(0)!;
    return inClass ? [[cp, cp]] : { kind: 'char', text };
  }
  cls(): Atom {
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.i++;
    }
    const ranges: Range[] = [];
    let first = true;
    while (this.i < this.src.length && (this.peek() !== ']' || first)) {
      first = false;
      const lo = this.classAtom();
      if (this.peek() === '-' && this.src[this.i + 1] !== ']' && lo.length === 1 && lo[0]![0] === lo[0]![1]) {
        this.i++;
        const hi = this.classAtom();
        if (hi.length === 1) ranges.push([lo[0]![0], hi[0]![1]]);
        else ranges.push(...lo, [45, 45], ...hi);
      } else ranges.push(...lo);
    }
    this.expect(']');
    return { kind: 'class', negated, ranges };
  }
  classAtom(): Range[] {
    const c = this.src[this.i++]!;
    if (c === '\\') return this.escape(true) as Range[];
    const cp = c.codePointAt(0)!;
    if (cp > 0xffff) this.i++;
    return [[cp, cp]];
  }
}

const PREFERRED = 'a0bxAZ_-. 9z1@:/';
function charOf(atom: Atom & { kind: 'class' }, variant: number): string {
  const inside = (cp: number) => atom.ranges.some(([lo, hi]) => cp >= lo && cp <= hi);
  const options = [...PREFERRED].filter((ch) => inside(ch.codePointAt(0)!) !== atom.negated);
  if (options.length) return options[variant % options.length]!;
  if (!atom.negated && atom.ranges.length) return String.fromCodePoint(atom.ranges[0]![0]);
  return '~';
}

/** Strings built from the pattern: each quantifier at its minimum, one above, a few above; each alternative in turn. */
export function regexExamples(pattern: string): string[] {
  let tree: Item[][];
  try {
    const p = new Parser(pattern);
    tree = p.alternatives();
    if (p.i < pattern.length) return [];
  } catch {
    return [];
  }
  const out = new Set<string>();
  const build = (alternatives: Item[][], extra: number, alt: number, variant: number): string => {
    const seq = alternatives[alt % alternatives.length]!;
    let s = '';
    for (const { atom, min, max } of seq) {
      const n = Math.min(max, min + extra);
      for (let k = 0; k < n; k++) {
        if (atom.kind === 'char') s += atom.text;
        else if (atom.kind === 'class') s += charOf(atom, variant + k * (variant > 1 ? 1 : 0));
        else if (atom.kind === 'group') s += build(atom.alternatives, extra, alt, variant);
      }
    }
    return s;
  };
  for (const extra of [0, 1, 3, 7])
    for (let alt = 0; alt < Math.min(4, tree.length + 3); alt++) for (const variant of [0, 1, 2]) out.add(build(tree, extra, alt, variant));
  return [...out].slice(0, 24);
}
