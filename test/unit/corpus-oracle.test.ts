import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { CLASSES, holdTally, judge, MUTATIONS, type Schema, type Tally } from '../helpers/mutations.js';
import { validator } from '../helpers/oracle.js';

/**
 * The mutation classes of the oracle test applied to real schemas: the input schemas of test/corpus
 * (public servers of several ecosystems, written outside this project). For each class and each
 * recording, the first tool (from a rotating start) the class applies to is mutated at one node,
 * forwards and backwards, and the diff is held to what ajv finds, as in diff-oracle.test.ts.
 */
const CORPUS = join(import.meta.dirname, '../corpus');
const isObject = (v: unknown): v is Schema => v !== null && typeof v === 'object' && !Array.isArray(v);
const recordings = readdirSync(CORPUS)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((file) => ({
    file,
    schemas: (JSON.parse(readFileSync(join(CORPUS, file), 'utf8')) as { tools: { inputSchema?: unknown }[] }).tools
      .map((t) => t.inputSchema)
      .filter((s): s is Schema => isObject(s) && s.type === 'object' && compiles(s)),
  }));

function compiles(schema: Schema): boolean {
  try {
    validator(schema);
    return true;
  } catch {
    return false;
  }
}

/** Every subschema a mutation may edit: properties, items, $defs/definitions and combinator branches. */
function deepNodes(root: Schema): Schema[] {
  const found: Schema[] = [];
  const visit = (n: unknown, depth: number) => {
    if (!isObject(n) || depth > 12) return;
    found.push(n);
    for (const key of ['properties', '$defs', 'definitions'])
      if (isObject(n[key])) Object.values(n[key]).forEach((c) => visit(c, depth + 1));
    if (n.items) visit(n.items, depth + 1);
    for (const key of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(n[key])) n[key].forEach((c) => visit(c, depth + 1));
  };
  visit(root, 0);
  return found;
}

/** The schema with the class applied at the first node it fits, starting from a node picked by `k`; null if none. */
function mutateOnce(base: Schema, cls: string, k: number): Schema | null {
  const count = deepNodes(base).length;
  for (let t = 0; t < count; t++) {
    const attempt = structuredClone(base);
    if (MUTATIONS[cls]!(deepNodes(attempt)[(t + k) % count]!, attempt, k)) return attempt;
  }
  return null;
}

describe('schema diff against the ajv oracle, on recorded schemas (test/corpus)', () => {
  it('never passes a refused input in silence on real schemas, and agrees with the oracle', () => {
    const tally: Tally = { pairs: 0, agree: 0, silent: [], unwarranted: [], byDesign: 0 };
    const perClass = new Map<string, number>();
    CLASSES.forEach((cls, c) => {
      recordings.forEach(({ file, schemas }, f) => {
        for (let i = 0; i < schemas.length; i++) {
          const base = schemas[(i + c) % schemas.length]!;
          const mutated = mutateOnce(base, cls, c + f);
          if (!mutated || !compiles(mutated)) continue;
          perClass.set(cls, (perClass.get(cls) ?? 0) + 1);
          judge(base, mutated, `${file} ${cls} forwards`, tally);
          judge(mutated, base, `${file} ${cls} backwards`, tally);
          break;
        }
      });
    });
    holdTally(`corpus oracle (${recordings.length} recordings)`, tally, perClass.size);
  }, 120_000);
});
