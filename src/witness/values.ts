import { canonicalJson } from '../contract/canonical.js';
import type { JsonSchema } from '../contract/types.js';
import type { Rng } from './prng.js';
import { isObject, type Chooser, type SchemaNode, type SchemaReader } from './reader.js';
import { numberValues, stringValues } from './scalars.js';
import { arrayValues, objectValues } from './containers.js';
import { NOTHING, type Filler } from './filler.js';

/**
 * Instances for a location of one schema. `wide` asks for every boundary and the values just past
 * them (the candidates a search tries); otherwise the single likeliest valid value (what fills a
 * property or an item the search is not looking at). Each value spends at most `fuel` schema
 * nodes, so a fan-out of references gives up instead of building an instance of 2^30 nodes.
 */

const TYPES = ['string', 'integer', 'number', 'boolean', 'null', 'object', 'array'] as const;
type TypeName = (typeof TYPES)[number];

const IMPLIED: [TypeName, string[]][] = [
  ['object', ['properties', 'required', 'additionalProperties', 'patternProperties', 'minProperties', 'maxProperties', 'propertyNames']],
  ['array', ['items', 'prefixItems', 'minItems', 'maxItems', 'contains', 'uniqueItems']],
  ['string', ['minLength', 'maxLength', 'pattern', 'format']],
  ['number', ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']],
];

/** The types every conjunct allows, or what the keywords imply when none says. */
function typesOf(conj: JsonSchema[], wide: boolean): TypeName[] {
  let allowed: TypeName[] | null = null;
  for (const n of conj) {
    if (n.type === undefined) continue;
    const listed = (Array.isArray(n.type) ? n.type : [n.type]) as TypeName[];
    const widened = listed.includes('number') ? [...listed, 'integer' as const] : listed;
    allowed = allowed ? allowed.filter((t) => widened.includes(t)) : listed;
  }
  if (allowed) return allowed.includes('number') ? allowed.filter((t) => t !== 'integer') : allowed;
  const implied = IMPLIED.filter(([, keys]) => conj.some((n) => keys.some((k) => n[k] !== undefined))).map(([t]) => t);
  return wide ? [...new Set([...implied, ...TYPES])] : implied.length ? implied : ['string'];
}

/** The values a `const` or `enum` allows, when one says. */
function listedOf(conj: JsonSchema[]): unknown[] | null {
  for (const n of conj) {
    if (n.const !== undefined) return [n.const];
    if (Array.isArray(n.enum)) return n.enum as unknown[];
  }
  return null;
}

/** How deep a rich fill goes: deeper, children take their smallest value, so recursive schemas stay small. */
const RICH_DEPTH = 5;
const RECURSION_ROUNDS = 3;

export class ValueMaker implements Filler {
  private spentAt = 0;
  private rich = false;
  /** The schemas whose values are being made, with how many times each is on the way down. */
  private readonly active = new Map<SchemaNode, number>();
  /** How deep in the instance the value being made sits. */
  depth = 0;

  constructor(
    readonly reader: SchemaReader,
    readonly rng: Rng,
    private readonly fuel: number,
  ) {}

  /**
   * Candidates for a location: the likeliest valid first, then boundaries and values past them.
   * `rich` fills children with every declared property and one item, near the top, so that deeper
   * locations exist to change; the search shrinks a witness afterwards.
   */
  candidates(nodes: SchemaNode[], choose: Chooser, rich: boolean): unknown[] {
    this.spentAt = this.reader.work.visited;
    this.rich = rich;
    this.depth = 0;
    return this.values(nodes, choose, true);
  }

  /** Whether the value being made now fills in everything it may. */
  get richHere(): boolean {
    return this.rich && this.depth < RICH_DEPTH;
  }

  /** A child's value, one level deeper. */
  child(nodes: SchemaNode[], choose: Chooser): unknown {
    this.depth++;
    try {
      return this.one(nodes, choose);
    } finally {
      this.depth--;
    }
  }

  /** Whether making values stopped for want of fuel since the search began. */
  starved = 0;

  private get outOfFuel(): boolean {
    const out = this.reader.work.spent || this.reader.work.visited - this.spentAt > this.fuel;
    if (out) this.starved++;
    return out;
  }

  values(nodes: SchemaNode[], choose: Chooser, wide: boolean): unknown[] {
    if (this.outOfFuel) return [];
    // A schema met again inside its own value (a recursive $ref) gives up after a few rounds:
    // a required self-reference has no finite instance, and would spend all the fuel to learn it.
    const key = nodes[0];
    const rounds = key === undefined ? 0 : (this.active.get(key) ?? 0);
    if (rounds >= RECURSION_ROUNDS) return [];
    if (key !== undefined) this.active.set(key, rounds + 1);
    try {
      return this.valuesOf(nodes, choose, wide);
    } finally {
      if (key !== undefined) this.active.set(key, rounds);
    }
  }

  private valuesOf(nodes: SchemaNode[], choose: Chooser, wide: boolean): unknown[] {
    const conj = this.reader.flatten(nodes, choose);
    if (!conj || conj.includes(false)) return [];
    const objects = conj.filter(isObject);
    const listed = listedOf(objects);
    if (listed) return wide ? listed.slice(0, 32) : listed.slice(0, 1);
    const out: unknown[] = [];
    for (const type of typesOf(objects, wide)) {
      out.push(...this.ofType(type, objects, choose, wide));
      if (!wide && out.length) break;
    }
    return out;
  }

  /** The likeliest valid value, or NOTHING when none can be made within the fuel. */
  one(nodes: SchemaNode[], choose: Chooser): unknown {
    const [first] = this.values(nodes, choose, false);
    return first === undefined || this.outOfFuel ? NOTHING : first;
  }

  /** A value for the location that differs from every one in `used` (for `uniqueItems`). */
  distinct(nodes: SchemaNode[], choose: Chooser, used: Set<string>): unknown {
    for (const v of this.values(nodes, choose, true)) if (!used.has(canonicalJson(v))) return v;
    return NOTHING;
  }

  private ofType(type: TypeName, conj: JsonSchema[], choose: Chooser, wide: boolean): unknown[] {
    switch (type) {
      case 'null':
        return [null];
      case 'boolean':
        return wide ? [true, false] : [true];
      case 'integer':
      case 'number':
        return numberValues(conj, type === 'integer', wide);
      case 'string':
        return stringValues(conj, this.rng, wide);
      case 'object':
        return objectValues(this, conj, choose, wide);
      case 'array':
        return arrayValues(this, conj, choose, wide);
      default:
        return [];
    }
  }
}
