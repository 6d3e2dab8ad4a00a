import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compiles, dialectOf, type Dialect, type Schema } from './ajv.js';
import { isObject, keyOf } from './generate.js';
import type { Rng } from './prng.js';

/**
 * Base schemas the mutations start from: generated ones (seeded, so every node is reachable and the
 * mutation classes can know what they did), and the recorded real ones: every tool's inputSchema and
 * outputSchema in test/corpus/*.json and test/fixtures/releases/*.json.
 */
export type SchemaSide = 'input' | 'output';
export type Origin = 'generated' | 'corpus' | 'release';

export interface Base {
  schema: Schema;
  origin: Origin;
  /** Where it came from: file and tool, or the generator's label. */
  name: string;
  dialect: Dialect;
}

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';

const TEST_DIR = join(import.meta.dirname, '..');

function recorded(dir: string, origin: Origin, side: SchemaSide): Base[] {
  const out: Base[] = [];
  const seen = new Set<string>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const tools = (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { tools?: Record<string, unknown>[] }).tools ?? [];
    for (const tool of tools) {
      const schema = tool[side === 'input' ? 'inputSchema' : 'outputSchema'];
      if (!isObject(schema) || schema.type !== 'object') continue;
      const key = keyOf(schema);
      if (seen.has(key) || !compiles(schema)) continue;
      seen.add(key);
      out.push({ schema, origin, name: `${file.replace(/\.json$/, '')} ${String(tool.name)}`, dialect: dialectOf(schema) });
    }
  }
  return out;
}

let real: Record<SchemaSide, Base[]> | null = null;
/** The recorded schemas of each side, de-duplicated (consecutive releases repeat most tools). */
export function realBases(): Record<SchemaSide, Base[]> {
  if (!real) {
    const corpus = join(TEST_DIR, 'corpus');
    const releases = join(TEST_DIR, 'fixtures', 'releases');
    const sides = (side: SchemaSide) => {
      const fromCorpus = recorded(corpus, 'corpus', side);
      const known = new Set(fromCorpus.map((b) => keyOf(b.schema)));
      return [...fromCorpus, ...recorded(releases, 'release', side).filter((b) => !known.has(keyOf(b.schema)))];
    };
    real = { input: sides('input'), output: sides('output') };
  }
  return real;
}

const clear = (s: Schema) => {
  delete s.minLength;
  delete s.maxLength;
};

const NAMES = ['id', 'name', 'query', 'limit', 'mode', 'tags', 'url', 'count', 'meta', 'items', 'email', 'when', 'score', 'kind'];
const WORDS = ['a', 'abc', 'x y', 'ABC', 'red', 'green', 'blue', 'open', 'closed'];
const PATTERNS = ['^[a-z]+$', '^[a-z0-9_-]+$', '^[A-Z]{2,4}$', '^[a-z][a-z0-9]*$'];
const FORMATS = ['email', 'uri', 'date', 'date-time', 'uuid', 'ipv4', 'hostname'];

/** A generated object schema with the variety the mutation classes need: leaves of every type, arrays, nesting, refs, variants. */
export function generatedBase(r: Rng, dialect: Dialect, label: string): Base {
  const is2020 = dialect === '2020-12';
  const defsKey = is2020 ? '$defs' : 'definitions';
  const defs: Schema = {};

  const leaf = (): Schema => {
    switch (r.int(10)) {
      case 0:
      case 1: {
        const s: Schema = { type: 'string' };
        if (r.chance(0.3)) s.minLength = 1 + r.int(3);
        if (r.chance(0.3)) s.maxLength = 10 + r.int(20);
        // A format's strings have lengths of their own: no length bounds beside it, so no node is unsatisfiable.
        if (r.chance(0.25)) {
          clear(s);
          s.format = r.pick(FORMATS);
          // eslint-disable-next-line no-dupe-else-if -- each r.chance() draws anew
        } else if (r.chance(0.25)) s.pattern = r.pick(PATTERNS);
        return s;
      }
      case 2:
        return { type: 'string', enum: r.shuffle(WORDS).slice(0, 2 + r.int(3)) };
      case 3:
      case 4: {
        const s: Schema = { type: r.pick(['integer', 'number']) };
        if (r.chance(0.4)) s.minimum = r.int(4);
        if (r.chance(0.4)) s.maximum = 10 + r.int(90);
        if (r.chance(0.2)) s.multipleOf = r.pick([1, 2, 5]);
        if (r.chance(0.1)) {
          delete s.minimum;
          s.exclusiveMinimum = 0;
        }
        return s;
      }
      case 5:
        return { type: 'boolean' };
      case 6:
        return r.chance(0.5) ? { anyOf: [{ type: 'string' }, { type: 'null' }] } : { type: ['string', 'null'] };
      case 7:
        return { type: 'integer', enum: [1, 2, 3] };
      case 8:
        return { type: 'string', description: 'A plain string.' };
      default:
        return { type: 'integer', minimum: 0 };
    }
  };

  const array = (depth: number): Schema => {
    const s: Schema = { type: 'array', items: depth < 2 && r.chance(0.3) ? object(depth + 1) : leaf() };
    if (r.chance(0.3)) s.minItems = r.int(2);
    if (r.chance(0.3)) s.maxItems = 3 + r.int(6);
    if (r.chance(0.15)) s.uniqueItems = true;
    if (is2020 && r.chance(0.1)) s.prefixItems = [{ type: 'string' }];
    return s;
  };

  const variants = (): Schema => {
    const kinds = r.shuffle(['mail', 'sms', 'push']).slice(0, 2);
    const key = r.chance(0.5) ? 'oneOf' : 'anyOf';
    return {
      type: 'object',
      [key]: kinds.map((k) => ({
        type: 'object',
        properties: { kind: { const: k }, [`${k}_to`]: { type: 'string' } },
        required: ['kind'],
      })),
    };
  };

  const object = (depth: number): Schema => {
    const names = r.shuffle(NAMES).slice(0, 2 + r.int(depth === 0 ? 4 : 2));
    const properties: Schema = {};
    for (const n of names) {
      const roll = r.int(12);
      if (depth < 2 && roll === 0) properties[n] = object(depth + 1);
      else if (depth < 2 && roll <= 2) properties[n] = array(depth);
      else if (depth === 0 && roll === 3) properties[n] = variants();
      else if (roll === 4 && depth < 2) {
        const name = `D${Object.keys(defs).length}`;
        defs[name] = r.chance(0.5) ? leaf() : object(depth + 1);
        properties[n] = { $ref: `#/${defsKey}/${name}` };
      } else properties[n] = leaf();
    }
    const s: Schema = { type: 'object', properties, required: names.filter(() => r.chance(0.4)) };
    if (r.chance(0.4)) s.additionalProperties = false;
    return s;
  };

  const root = object(0);
  if (r.chance(0.12)) {
    defs.Tree = {
      type: 'object',
      properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: `#/${defsKey}/Tree` } } },
      required: ['label'],
    };
    (root.properties as Schema).tree = { $ref: `#/${defsKey}/Tree` };
  }
  if (Object.keys(defs).length) root[defsKey] = defs;
  const schema: Schema = r.chance(0.7) || !is2020 ? { $schema: is2020 ? DRAFT_2020 : DRAFT_07, ...root } : root;
  return { schema, origin: 'generated', name: label, dialect };
}
