import { compiles, type Dialect, type Schema } from './ajv.js';
import { generatedBase, realBases, type Base, type Origin, type SchemaSide } from './bases.js';
import { CLASSES, nodeAt, nodesOf, type MutationClass, type NodeCtx, type Relation } from './classes.js';
import { keyOf } from './generate.js';
import { rng } from './prng.js';

/**
 * The pairs: for each class and each side it is meant for, `perClass` mutations, each giving two
 * pairs (forwards: base → mutated; backwards: mutated → base). Bases alternate between generated
 * and recorded (corpus, then releases) where the class applies to a recorded one. Deterministic:
 * each mutation draws from its own stream, derived from the seed and the class, side and index.
 */
export type Direction = 'fwd' | 'back';

export interface Pair {
  id: number;
  cls: string;
  side: SchemaSide;
  dir: Direction;
  origin: Origin;
  base: string;
  /** Where the class acted, as a JSON pointer into the schema. */
  pointer: string;
  before: Schema;
  after: Schema;
  /** How the candidate's instances relate to the baseline's, when known by construction. */
  truth?: Relation;
}

const INVERSE: Record<Relation, Relation> = { same: 'same', narrower: 'wider', wider: 'narrower', incomparable: 'incomparable' };

export interface PairOptions {
  seed: number;
  perClass: number;
  /** Only classes whose name contains this. */
  only?: string;
}

export const sidesOf = (c: MutationClass): SchemaSide[] => c.sides ?? ['input', 'output'];

const pointerText = (p: string[]) => (p.length ? `/${p.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}` : '');

interface Mutation {
  base: Base;
  pointer: string[];
  before: Schema;
  after: Schema;
  truth?: Relation;
}

function mutate(cls: MutationClass, base: Base, side: SchemaSide, pick: number): Mutation | null {
  const ctxOf = (root: Schema, pointer: string[]): NodeCtx => ({
    root,
    side,
    dialect: base.dialect,
    isRoot: pointer.length === 0,
    pointer,
  });
  const fits = nodesOf(base.schema).filter(({ node, pointer }) => cls.at(node, ctxOf(base.schema, pointer)));
  if (!fits.length) return null;
  const { pointer } = fits[pick % fits.length]!;
  const before = structuredClone(base.schema);
  const ctxBefore = ctxOf(before, pointer);
  cls.prepare?.(nodeAt(before, pointer), ctxBefore);
  const after = structuredClone(before);
  const prepared = structuredClone(nodeAt(before, pointer));
  cls.apply(nodeAt(after, pointer), ctxOf(after, pointer));
  if (before.type !== 'object' || after.type !== 'object') return null;
  if (keyOf(before) === keyOf(after) || !compiles(before) || !compiles(after)) return null;
  const claimed = typeof cls.truth === 'function' ? cls.truth(prepared, ctxBefore) : cls.truth;
  // Only 'same' holds whatever the base; a strict relation is claimed where every node is reachable.
  const truth = claimed === 'same' || base.origin === 'generated' ? claimed : undefined;
  return { base, pointer, before, after, truth };
}

export function buildPairs(opts: PairOptions): Pair[] {
  const real = realBases();
  const pairs: Pair[] = [];
  const root = rng(opts.seed);
  for (const cls of CLASSES) {
    if (opts.only && !cls.name.includes(opts.only)) continue;
    for (const side of sidesOf(cls)) {
      const seen = new Set<string>();
      const recorded = real[side].filter((b) => !cls.dialect || b.dialect === cls.dialect);
      const byOrigin = (o: Origin) => recorded.filter((b) => b.origin === o);
      for (let i = 0; i < opts.perClass; i++) {
        const r = root.fork(`${cls.name}|${side}|${i}`);
        const wants: Origin[] =
          i % 2 === 0 ? ['generated'] : i % 4 === 1 ? ['corpus', 'release', 'generated'] : ['release', 'corpus', 'generated'];
        let made: Mutation | null = null;
        for (const origin of wants) {
          for (let attempt = 0; attempt < 40 && !made; attempt++) {
            let base: Base;
            if (origin === 'generated') {
              const dialect: Dialect = cls.dialect ?? (r.chance(0.6) ? '2020-12' : 'draft-07');
              base = generatedBase(r.fork(`base${attempt}`), dialect, `generated ${opts.seed}/${cls.name}/${side}/${i}/${attempt}`);
            } else {
              const list = byOrigin(origin);
              if (!list.length) break;
              base = r.pick(list);
            }
            const m = mutate(cls, base, side, r.int(1 << 30));
            if (m && !seen.has(keyOf([m.before, m.after]))) made = m;
          }
          if (made) break;
        }
        if (!made) continue;
        seen.add(keyOf([made.before, made.after]));
        const common = { cls: cls.name, side, origin: made.base.origin, base: made.base.name, pointer: pointerText(made.pointer) };
        pairs.push({ ...common, id: pairs.length, dir: 'fwd', before: made.before, after: made.after, truth: made.truth });
        pairs.push({
          ...common,
          id: pairs.length,
          dir: 'back',
          before: made.after,
          after: made.before,
          truth: made.truth && INVERSE[made.truth],
        });
      }
    }
  }
  return pairs;
}

/** Mutations per class and side for about `n` pairs in all. */
export function perClassFor(n: number): number {
  const classSides = CLASSES.reduce((sum, c) => sum + sidesOf(c).length, 0);
  return Math.max(1, Math.ceil(n / (2 * classSides)));
}
