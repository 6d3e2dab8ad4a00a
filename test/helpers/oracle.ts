import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * The oracle for schema diffs: instances the baseline accepts and the candidate refuses, found by
 * search and judged by ajv alone. The search samples the baseline's own schema (declared names
 * only, plus one name no schema declares), with leaf values drawn from both schemas' keywords.
 */
type Schema = Record<string, unknown>;
const isObject = (v: unknown): v is Schema => v !== null && typeof v === 'object' && !Array.isArray(v);

const EXTRA = 'zz_extra';
const STRINGS = [
  '',
  'a',
  'abc',
  'ABC',
  'a1',
  '123',
  'a-b',
  'x y',
  'user@example.com',
  'https://example.com/x',
  '2024-01-02',
  '2024-01-02T03:04:05Z',
  '550e8400-e29b-41d4-a716-446655440000',
  'localhost',
  'x-a',
  'user_id',
  'a@b.co',
  'http://a.io',
];
const NUMBERS = [0, 1, -1, 2, 2.5, 3, 5, 10, 100, 1e6, -1e6];

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true, logger: false });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);

export function validator(schema: Schema): (value: unknown) => boolean {
  // The dialect is 2020-12 for every schema: a draft-07 `$schema` would make ajv look up a meta-schema it does not hold.
  const { $schema: _dialect, ...rest } = structuredClone(schema);
  const validate = ajv.compile(rest);
  return (value) => validate(value) as boolean;
}

const subValidators = new WeakMap<object, (value: unknown) => boolean>();
/** Whether a value fits a subschema of `root` (its local refs resolved against root's definitions). */
function fits(node: unknown, root: Schema, value: unknown): boolean {
  if (node === true || node === undefined) return true;
  if (!isObject(node)) return false;
  let check = subValidators.get(node);
  if (!check) {
    try {
      check = validator({ ...node, $defs: root.$defs, definitions: root.definitions });
    } catch {
      check = () => true;
    }
    subValidators.set(node, check);
  }
  return check(value);
}

/** Values drawn from every keyword of both schemas: boundaries, enum members, lengths. */
function pool(...schemas: unknown[]): unknown[] {
  const values: unknown[] = [];
  const visit = (node: unknown, depth: number) => {
    if (depth > 12) return;
    if (Array.isArray(node)) return node.forEach((n) => visit(n, depth + 1));
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'enum' && Array.isArray(value)) values.push(...value);
      else if (key === 'const') values.push(value);
      else if (typeof value === 'number' && /^(min|max|exclusive|multipleOf)/.test(key)) {
        if (/Length$/.test(key)) values.push(...[value - 1, value, value + 1].filter((n) => n >= 0 && n < 64).map((n) => 'a'.repeat(n)));
        else values.push(value - 1, value - 0.5, value, value + 0.5, value + 1, value * 2, value * 3);
      } else visit(value, depth + 1);
    }
  };
  schemas.forEach((s) => visit(s, 0));
  values.push(...NUMBERS, ...STRINGS, true, false, null);
  const seen = new Set<string>();
  return values
    .filter((v) => Number.isFinite(v as number) || typeof v !== 'number')
    .filter((v) => Math.abs(Number(v)) <= Number.MAX_SAFE_INTEGER || typeof v !== 'number')
    .filter((v) => !seen.has(JSON.stringify(v)) && seen.add(JSON.stringify(v)));
}

const LIMIT = 60;
const typeOf = (v: unknown) =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v;

/** Candidate instances of a schema: a search space, not a set of valid values (ajv decides). */
function samples(node: unknown, root: Schema, values: unknown[], depth = 0, refs: string[] = []): unknown[] {
  if (depth > 8) return [null];
  if (node === false) return [];
  if (!isObject(node)) return values.slice(0, 20);
  if (typeof node.$ref === 'string' && node.$ref.startsWith('#') && !refs.includes(node.$ref)) {
    const target = node.$ref
      .slice(1)
      .split('/')
      .filter(Boolean)
      .reduce<unknown>((t, k) => (isObject(t) ? t[k.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), root);
    const { $ref: _r, ...rest } = node;
    return cap([
      ...samples(target, root, values, depth + 1, [...refs, node.$ref]),
      ...(Object.keys(rest).length ? samples(rest, root, values, depth + 1, refs) : []),
    ]);
  }
  const out: unknown[] = [];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (Array.isArray(node[key])) out.push(...interleave(node[key].map((branch) => samples(branch, root, values, depth + 1, refs))));
  }
  if (Array.isArray(node.allOf)) {
    const objects = node.allOf.map((b) => samples(b, root, values, depth + 1, refs).filter(isObject));
    if (objects.every((o) => o.length)) out.push(Object.assign({}, ...objects.map((o) => o[0])));
  }
  if ('if' in node)
    out.push(
      ...samples(node.if, root, values, depth + 1, refs),
      ...samples(node.then, root, values, depth + 1, refs),
      ...samples(node.else, root, values, depth + 1, refs),
    );
  if (Array.isArray(node.enum)) out.push(...node.enum);
  if ('const' in node) out.push(node.const);
  const types = node.type === undefined ? ['object', 'array', 'string', 'number', 'boolean', 'null'] : [node.type].flat();
  out.push(
    ...interleave(
      types.map((t) => {
        if (t === 'object') return objectSamples(node, root, values, depth, refs);
        if (t === 'array') return arraySamples(node, root, values, depth, refs);
        return values.filter((v) => typeOf(v) === t || (t === 'number' && typeOf(v) === 'integer'));
      }),
    ),
  );
  // The top level gets a larger share: it is where the witness is sought, inside a valid whole.
  return cap(out, depth === 0 ? LIMIT * 5 : LIMIT);
}

/** Round-robin over lists, so that a cap keeps some of each alternative. */
const interleave = (lists: unknown[][]): unknown[] => {
  const out: unknown[] = [];
  for (let i = 0; lists.some((l) => i < l.length); i++) for (const l of lists) if (i < l.length) out.push(l[i]);
  return out;
};

const cap = (list: unknown[], limit = LIMIT) => {
  const seen = new Set<string>();
  return list.filter((v) => !seen.has(JSON.stringify(v)) && seen.add(JSON.stringify(v))).slice(0, limit);
};

function objectSamples(node: Schema, root: Schema, values: unknown[], depth: number, refs: string[]): unknown[] {
  const properties = isObject(node.properties) ? node.properties : {};
  const required = Array.isArray(node.required) ? (node.required as string[]) : [];
  const names = [...new Set([...Object.keys(properties), ...required])];
  const patternKeys = isObject(node.patternProperties)
    ? Object.entries(node.patternProperties).flatMap(([p, sub]) =>
        STRINGS.filter((s) => safeTest(p, s))
          .slice(0, 2)
          .map((s) => [s, sub] as const),
      )
    : [];
  // Values that fit their own property first, so a deep variation reaches the top inside a valid whole.
  const valuesOf = (name: string) => {
    const schema = properties[name] ?? node.additionalProperties ?? {};
    const all = samples(schema, root, values, depth + 1, refs);
    return [...all.filter((v) => fits(schema, root, v)), ...all.filter((v) => !fits(schema, root, v))];
  };
  const base: Schema = {};
  const valid = (name: string) => {
    const options = valuesOf(name);
    return options.find((v) => fits(properties[name], root, v)) ?? options[0] ?? 'a';
  };
  for (const name of required) base[name] = valid(name);
  const full = { ...base };
  const varied: unknown[][] = [];
  for (const name of names) {
    const options = valuesOf(name);
    if (options.length && !(name in full)) full[name] = valid(name);
    varied.push(options.slice(0, 30).map((v) => ({ ...base, [name]: v })));
  }
  // Every name gets its share of the cap: one variation of each in turn, not all of the first's.
  const out: unknown[] = [{}, base, full, ...interleave(varied)];
  for (const name of required) {
    const { [name]: _gone, ...without } = full;
    out.push(without);
  }
  // An undeclared name with a value of each JSON type, unless the schema says what such names take.
  const extraValues = isObject(node.additionalProperties)
    ? samples(node.additionalProperties, root, values, depth + 1, refs)
    : ['x', 1, true, null, {}, []];
  for (const v of extraValues.slice(0, 6)) out.push({ ...full, [EXTRA]: v }, { ...base, [EXTRA]: v });
  for (const [key, schema] of patternKeys)
    for (const v of samples(schema, root, values, depth + 1, refs).slice(0, 6)) out.push({ ...base, [key]: v });
  return out;
}

function arraySamples(node: Schema, root: Schema, values: unknown[], depth: number, refs: string[]): unknown[] {
  const prefix = Array.isArray(node.prefixItems) ? node.prefixItems : [];
  const all = samples(node.items ?? {}, root, values, depth + 1, refs);
  const itemValues = [...all.filter((v) => fits(node.items, root, v)).slice(0, 10), ...all.slice(0, 10)];
  const containsValues = 'contains' in node ? samples(node.contains, root, values, depth + 1, refs).slice(0, 6) : [];
  const tuple = prefix.map((p) => {
    const o = samples(p, root, values, depth + 1, refs);
    return o.find((v) => fits(p, root, v)) ?? o[0] ?? null;
  });
  const out: unknown[] = [[], tuple];
  for (const v of [...itemValues, ...containsValues]) out.push([v], [...tuple, v], [v, v]);
  if (itemValues.length > 1) out.push(itemValues.slice(0, 2), itemValues.slice(0, 3), itemValues.slice(0, 5));
  for (const i of prefix.keys())
    for (const v of samples(prefix[i], root, values, depth + 1, refs).slice(0, 6)) out.push(tuple.map((t, j) => (j === i ? v : t)));
  return out;
}

const safeTest = (pattern: string, s: string) => {
  try {
    return new RegExp(pattern, 'u').test(s);
  } catch {
    return false;
  }
};

/** An instance the baseline accepts and the candidate refuses, or null when the search found none. */
export function witness(before: Schema, after: Schema): unknown {
  const accepts = validator(before);
  const acceptsNow = validator(after);
  const values = pool(before, after);
  for (const x of samples(before, before, values)) if (accepts(x) && !acceptsNow(x)) return x;
  return null;
}
