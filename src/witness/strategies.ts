import { type Judge } from './judge.js';
import { ABSENT, absentPaths, editAt, pathKey, presentPaths, schemasAt, valueAt, type Path } from './locations.js';
import type { WitnessOptions, WitnessOutcome } from './outcome.js';
import { mulberry32, type Rng } from './prng.js';
import { type Chooser, type SchemaReader, type Work } from './reader.js';
import { ValueMaker } from './values.js';
import { dedupe, interleave } from './lists.js';

/**
 * How one witness search spends its budget (src/witness/search.ts starts it): seeds the accepting
 * schema takes, mutations of them, the focus locations shallowest first, a random walk, and the
 * shrinking of a witness found.
 */
const VARIANTS = 6;
const SEEDS_MUTATED = 24;
const SEEDS_PER_LOCATION = 2;
const VALUES_PER_LOCATION = 64;
const STALL_LIMIT = 200;
const SHRINK_ATTEMPTS = 64;
const GENERIC: unknown[] = [null, 0, -1, 1.5, '', 'x', true, {}, [], ABSENT];

/** Branch choices: first branches, last branches, then random ones. */
const chooser = (variant: number, rng: Rng): Chooser => (variant === 0 ? () => 0 : variant === 1 ? (n) => n - 1 : (n) => rng.int(n));

/** One search: its state is the count of instances judged, those seen, and the valid ones to mutate. */
export class Search {
  private tried = 0;
  private readonly seen = new Set<string>();
  private readonly valid: unknown[] = [];
  /** Each valid instance's length as JSON text, measured once when judged: the smallest are mutated first. */
  private readonly sizes = new Map<unknown, number>();
  private witness: { instance: unknown; refusal: string } | null = null;
  private readonly rng: Rng;
  private readonly makers: [ValueMaker, ValueMaker];
  private readonly work: Work;
  private readonly strategies: string[] = [];
  private readonly fuel: number;
  private readonly valuesAt = new Map<string, unknown[]>();
  /** The locations the mutations visited: the random walk draws from these too. */
  private locations: Path[] = [];
  /** The focus locations that values were tried at, on a valid instance holding their parent. */
  private readonly reached = new Set<string>();

  constructor(
    private readonly judges: [Judge, Judge],
    private readonly readers: [SchemaReader, SchemaReader],
    private readonly options: WitnessOptions,
  ) {
    this.rng = mulberry32(options.seed);
    this.work = readers[0].work;
    const fuel = (this.fuel = Math.max(200, Math.floor(options.budget.nodes / 10)));
    this.makers = [new ValueMaker(readers[0], this.rng, fuel), new ValueMaker(readers[1], this.rng, fuel)];
  }

  private get done(): boolean {
    return this.witness !== null || this.tried >= this.options.budget.instances || this.work.spent;
  }

  run(): WitnessOutcome {
    this.seeds();
    if (!this.done) this.mutations();
    if (!this.done) this.randomWalk();
    if (this.witness) return { kind: 'found', ...this.shrink(this.witness.instance), tried: this.tried };
    if (this.makers.some((m) => m.starved)) this.strategies.push(`values that outgrew ${this.fuel} schema nodes given up`);
    if (this.work.spent) this.strategies.push(`stopped at the node budget (${this.options.budget.nodes})`);
    else if (this.tried >= this.options.budget.instances) this.strategies.push(`stopped at the instance budget (${this.tried})`);
    if (!this.valid.length) {
      this.strategies.push('no instance that the accepting schema takes could be built');
      return { kind: 'none', tried: this.tried, strategies: this.strategies, barren: true };
    }
    const unreached = this.unreachedFocus();
    if (unreached) {
      this.strategies.push(`no instance that the accepting schema takes reached ${unreached}`);
      return { kind: 'none', tried: this.tried, strategies: this.strategies, barren: true };
    }
    return { kind: 'none', tried: this.tried, strategies: this.strategies };
  }

  /**
   * A focus location that no valid instance holds (its parent object or array never built, as when
   * a list's items need more than the search could make): nothing there was tried, so finding
   * nothing proves nothing. The first such location, or null when every one was reached.
   */
  private unreachedFocus(): string | null {
    for (const raw of this.options.focus ?? []) {
      const path = raw.map((s) => (s === '*' ? '0' : s));
      // The root is reached by any valid instance, and there is one by now.
      if (path.length && !this.reached.has(pathKey(path))) return `/${pathKey(path)}`;
    }
    return null;
  }

  /** Judges an instance not seen before: accepted by one side, then refused by the other? */
  private judge(instance: unknown): void {
    if (this.done || instance === ABSENT) return;
    // Plain JSON text: an instance met again with its keys in another order costs one more try, not a sort each time.
    const key = JSON.stringify(instance);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.tried++;
    const [accept, refuse] = this.judges;
    if (!accept.accepts(instance)) return;
    if (this.valid.length < 400) {
      this.valid.push(instance);
      this.sizes.set(instance, key.length);
    }
    if (!refuse.accepts(instance) && !this.options.spare?.(instance, refuse.refusedAt(), refuse.refusedBy(), refuse.refusedName()))
      this.witness = { instance, refusal: refuse.refusal() };
  }

  /**
   * The witness with whatever it can lose removed (properties, items), so it shows the difference
   * and little else. Each attempt is judged and counted; the budget bounds this too.
   */
  private shrink(instance: unknown): { instance: unknown; refusal: string; at: string; keyword: string; name?: string } {
    const [accept, refuse] = this.judges;
    let current = instance;
    let shrunk = true;
    for (let attempts = 0; shrunk && attempts < SHRINK_ATTEMPTS;) {
      shrunk = false;
      for (const path of presentPaths(current, 64).slice(1)) {
        if (this.tried >= this.options.budget.instances || attempts++ >= SHRINK_ATTEMPTS) break;
        const smaller = editAt(current, path, ABSENT);
        if (smaller === ABSENT) continue;
        this.tried++;
        if (
          accept.accepts(smaller) &&
          !refuse.accepts(smaller) &&
          !this.options.spare?.(smaller, refuse.refusedAt(), refuse.refusedBy(), refuse.refusedName())
        ) {
          current = smaller;
          shrunk = true;
          break;
        }
      }
    }
    refuse.accepts(current);
    const name = refuse.refusedName();
    return {
      instance: current,
      refusal: refuse.refusal(),
      at: refuse.refusedAt(),
      keyword: refuse.refusedBy(),
      ...(name !== undefined && { name }),
    };
  }

  /** Whole instances from each schema's boundaries, under several choices of branches. */
  private seeds(): void {
    const before = this.tried;
    for (let variant = 0; variant < VARIANTS && !this.done; variant++) {
      const choose = chooser(variant, this.rng);
      for (const [i, maker] of this.makers.entries()) {
        // The refusing side's own boundaries for the first two variants only: they are mostly its own valid values.
        if (i === 1 && variant > 1) continue;
        for (const rich of [true, false])
          for (const instance of maker.candidates([this.readers[i]!.root], choose, rich)) this.judge(instance);
      }
    }
    this.strategies.push(`${this.tried - before} instances at both schemas' boundaries`);
  }

  /** Each valid seed changed at one location at a time, the diff's locations first. */
  private mutations(): void {
    const before = this.tried;
    // Locations from every seed; at each, the smallest seeds that hold it, so a witness carries
    // little beside the difference it shows.
    const seeds = this.smallestFirst(this.valid).slice(0, SEEDS_MUTATED);
    const locations = this.locationsOf(seeds);
    this.locations = locations;
    this.focusMutations();
    for (const path of locations) {
      const holders = seeds.filter((s) => isContainer(valueAt(s, path.slice(0, -1)))).slice(0, SEEDS_PER_LOCATION);
      for (const seed of holders) {
        for (const value of this.candidatesAt(path, seed)) {
          if (this.done) break;
          this.judge(editAt(seed, path, value));
        }
      }
    }
    this.strategies.push(`${this.tried - before} changes at ${locations.length} locations`);
  }

  /**
   * The diff's locations, shallowest first, each changed on the smallest valid instances that hold
   * its parent by then. A location under an optional object is reached this way: the object is built
   * at the shallower location first, and the instance that holds it is changed deeper next.
   */
  private focusMutations(): void {
    const paths = this.focusPaths().sort((a, b) => a.length - b.length);
    for (const path of paths) {
      const holders = this.smallestFirst(this.valid.filter((v) => isContainer(valueAt(v, path.slice(0, -1))))).slice(0, SEEDS_PER_LOCATION);
      if (holders.length) this.reached.add(pathKey(path));
      for (const seed of holders) for (const value of this.candidatesAt(path, seed)) if (!this.done) this.judge(editAt(seed, path, value));
    }
  }

  /** Valid instances, shortest as JSON text first; a stable sort, so ties keep the order they were found in. */
  private smallestFirst(instances: unknown[]): unknown[] {
    return [...instances].sort((a, b) => this.sizes.get(a)! - this.sizes.get(b)!);
  }

  /** Each focus location and the locations above it, with `*` read as the first item. */
  private focusPaths(): Path[] {
    return (this.options.focus ?? [])
      .flatMap((p) => p.map((_, i) => p.slice(0, p.length - i)))
      .map((p) => p.map((s) => (s === '*' ? '0' : s)));
  }

  private locationsOf(seeds: unknown[]): Path[] {
    const focus = this.focusPaths();
    // Deepest first: most differences sit at leaves, and a leaf's values are few.
    const present = seeds.flatMap((s) => presentPaths(s, 64).slice(1)).sort((a, b) => b.length - a.length);
    const absent = seeds.flatMap((s) => absentPaths(this.readers, s, presentPaths(s, 64)));
    const seen = new Set<string>();
    return [...focus, ...present, ...absent].filter((p) => !seen.has(pathKey(p)) && !!seen.add(pathKey(p)));
  }

  /**
   * Values for one location, from both schemas' subschemas there, taken in turn: the accepting
   * side's valid values and the refusing side's values past its boundaries are where witnesses are.
   */
  private candidatesAt(path: Path, seed: unknown): unknown[] {
    const shape = Array.isArray(valueAt(seed, path.slice(0, -1))) ? 'array' : 'object';
    const key = `${shape}:${pathKey(path)}`;
    let values = this.valuesAt.get(key);
    if (!values) {
      const lists = this.makers.flatMap((maker, i) => {
        const direct = schemasAt(this.readers[i]!, path, seed);
        const spread = this.readers[i]!.spread(direct).slice(0, 6);
        const choose = chooser(0, this.rng);
        return [maker.candidates(direct, choose, true), ...spread.map((n) => maker.candidates([n], choose, false))];
      });
      // The asker's hints first; then in turns, so that each subschema's first values (a branch's, a
      // `not`'s) come before any list's tail.
      const hinted = (this.options.hints ?? []).filter((h) => pathKey(h.path.map((s) => (s === '*' ? '0' : s))) === pathKey(path));
      const first = hinted.flatMap((h) => h.values);
      values = dedupe([...first, ...interleave(lists), ...GENERIC]).slice(0, VALUES_PER_LOCATION + first.length);
      this.valuesAt.set(key, values);
    }
    return values;
  }

  /** Random changes of random valid instances, two steps deep as the valid ones grow, until the budget or a stall. */
  private randomWalk(): void {
    const before = this.tried;
    let stall = 0;
    const pathsOf = new Map<unknown, Path[]>();
    while (!this.done && stall < STALL_LIMIT && this.valid.length) {
      const instance = this.rng.pick(this.valid);
      let paths = pathsOf.get(instance);
      if (!paths) {
        paths = [...presentPaths(instance, 64), ...this.locations.filter((p) => isContainer(valueAt(instance, p.slice(0, -1))))];
        pathsOf.set(instance, paths);
      }
      const path = this.rng.pick(paths);
      const values = path.length ? this.candidatesAt(path, instance) : GENERIC;
      const triedBefore = this.tried;
      this.judge(editAt(instance, path, this.rng.pick(values)));
      stall = this.tried === triedBefore ? stall + 1 : 0;
    }
    this.strategies.push(`${this.tried - before} random changes`);
  }
}

/** Whether a location under this value can be edited: the value is an object or an array. */
const isContainer = (value: unknown): boolean => value !== null && typeof value === 'object';
