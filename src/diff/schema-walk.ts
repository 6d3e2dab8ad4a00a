import type { Change } from '../findings/types.js';
import type { JsonSchema } from '../contract/types.js';
import { canonicalJson } from '../contract/canonical.js';
import { change, pointer } from './change.js';
import { emit, type WalkContext } from './schema-context.js';
import { compareConstraints } from './schema-constraints.js';

const MAX_DEPTH = 32;
const isObject = (value: unknown): value is JsonSchema => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Direction-aware comparison of two schema nodes. On the input side, accepting less breaks callers;
 * on the output side, promising less breaks consumers. Each emitted code already encodes the
 * direction, so policy can key on codes alone.
 */
export function compareSchemaNodes(beforeNode: unknown, afterNode: unknown, path: string[], ctx: WalkContext): Change[] {
  if (ctx.depth > MAX_DEPTH) return [];
  const before = resolve(beforeNode, ctx.rootBefore);
  const after = resolve(afterNode, ctx.rootAfter);
  if (!before.schema || !after.schema) return [];
  const refKey = `${before.ref ?? ''}|${after.ref ?? ''}`;
  if (before.ref || after.ref) {
    if (ctx.followed.has(refKey)) return [];
    ctx = { ...ctx, followed: new Set(ctx.followed).add(refKey) };
  }
  const b = unwrapNullable(before.schema);
  const a = unwrapNullable(after.schema);
  if (canonicalJson(b) === canonicalJson(a)) return [];
  const here = { ...ctx, depth: ctx.depth + 1 };
  return [
    ...compareTypes(b, a, path, here),
    ...compareEnums(b, a, path, here),
    ...compareConstraints(b, a, path, here),
    ...compareDefault(b, a, path, here),
    ...compareProperties(b, a, path, here),
    ...compareItems(b, a, path, here),
    ...compareVariants(b, a, path, here),
  ];
}

function resolve(node: unknown, root: JsonSchema): { schema: JsonSchema | null; ref: string | null } {
  if (node === true || node === undefined) return { schema: {}, ref: null };
  if (!isObject(node)) return { schema: null, ref: null };
  const ref = node.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#')) return { schema: node, ref: null };
  let target: unknown = root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    target = isObject(target) ? target[key] : undefined;
  }
  return { schema: isObject(target) ? target : null, ref };
}

/** `anyOf: [X, {type: null}]` and `nullable: true` both mean "X or null": fold them to one form. */
function unwrapNullable(schema: JsonSchema): JsonSchema {
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.length === 2) {
      const nullAt = branches.findIndex((x) => isObject(x) && x.type === 'null' && Object.keys(x).length === 1);
      const other = branches[1 - nullAt];
      if (nullAt !== -1 && isObject(other) && typeof other.type === 'string') {
        const { [key]: _drop, ...rest } = schema;
        return { ...rest, ...other, type: [other.type, 'null'] };
      }
    }
  }
  if (schema.nullable === true && typeof schema.type === 'string') {
    const { nullable: _drop, ...rest } = schema;
    return { ...rest, type: [schema.type, 'null'] };
  }
  return schema;
}

const typesOf = (schema: JsonSchema): Set<string> | null => {
  const t = schema.type;
  if (typeof t === 'string') return new Set([t]);
  if (Array.isArray(t)) return new Set(t.filter((x): x is string => typeof x === 'string'));
  return null; // any type
};

/** Whether every value of type `t` is accepted by `types` (integer values are numbers). */
const covers = (types: Set<string> | null, t: string): boolean =>
  types === null || types.has(t) || (t === 'integer' && types.has('number'));

function compareTypes(b: JsonSchema, a: JsonSchema, path: string[], ctx: WalkContext): Change[] {
  const before = typesOf(b);
  const after = typesOf(a);
  const lost = before === null ? after !== null : [...before].some((t) => !covers(after, t));
  const gained = after === null ? before !== null : [...after].some((t) => !covers(before, t));
  if (!lost && !gained) return [];
  const show = (s: Set<string> | null) => (s === null ? 'any' : [...s].sort().join('|'));
  const at = [...path, 'type'];
  // Input: losing accepted types narrows what callers may send. Output: gaining types surprises consumers.
  if (ctx.side === 'input') {
    return [change(lost ? 'input-type-changed' : 'input-type-widened', lost ? 'breaking' : 'safe', ctx.tool, pointer(...at), show(before), show(after))];
  }
  return [change(gained ? 'output-type-changed' : 'output-type-narrowed', gained ? 'breaking' : 'safe', ctx.tool, pointer(...at), show(before), show(after))];
}

const enumOf = (schema: JsonSchema): unknown[] | null =>
  Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : null;

function compareEnums(b: JsonSchema, a: JsonSchema, path: string[], ctx: WalkContext): Change[] {
  const before = enumOf(b);
  const after = enumOf(a);
  if (before === null && after === null) return [];
  const key = (v: unknown) => canonicalJson(v);
  const afterKeys = new Set((after ?? []).map(key));
  const beforeKeys = new Set((before ?? []).map(key));
  const removed = before === null ? [] : after === null ? [] : before.filter((v) => !afterKeys.has(key(v)));
  const added = after === null ? [] : before === null ? [] : after.filter((v) => !beforeKeys.has(key(v)));
  const narrowed = (before === null && after !== null) || removed.length > 0;
  const widened = (before !== null && after === null) || added.length > 0;
  const at = [...path, Array.isArray(b.enum) || Array.isArray(a.enum) ? 'enum' : 'const'];
  const out: Change[] = [];
  if (narrowed) {
    out.push(emit(ctx, { input: 'input-enum-narrowed', output: 'output-enum-narrowed' }, { input: 'breaking', output: 'safe' }, at, before, after));
  }
  if (widened) {
    out.push(emit(ctx, { input: 'input-enum-widened', output: 'output-enum-widened' }, { input: 'safe', output: 'dangerous' }, at, before, after));
  }
  return out;
}

function compareDefault(b: JsonSchema, a: JsonSchema, path: string[], ctx: WalkContext): Change[] {
  if (ctx.side !== 'input' || !('default' in a)) return [];
  if ('default' in b && canonicalJson(b.default) === canonicalJson(a.default)) return [];
  return [change('input-default-changed', 'dangerous', ctx.tool, pointer(...path, 'default'), b.default, a.default)];
}

const propertiesOf = (schema: JsonSchema): JsonSchema => (isObject(schema.properties) ? schema.properties : {});
const requiredSet = (schema: JsonSchema): Set<string> =>
  new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);

function compareProperties(b: JsonSchema, a: JsonSchema, path: string[], ctx: WalkContext): Change[] {
  const before = propertiesOf(b);
  const after = propertiesOf(a);
  const reqBefore = requiredSet(b);
  const reqAfter = requiredSet(a);
  const out: Change[] = [];
  const names = [...new Set([...Object.keys(before), ...Object.keys(after), ...reqBefore, ...reqAfter])].sort();
  for (const name of names) {
    const at = [...path, 'properties', name];
    const inBefore = name in before || reqBefore.has(name);
    const inAfter = name in after || reqAfter.has(name);
    if (ctx.side === 'input') {
      if (inBefore && !inAfter) {
        out.push(reqBefore.has(name)
          ? change('required-argument-removed', 'breaking', ctx.tool, pointer(...at), before[name] ?? null, null)
          : change('input-property-removed', 'dangerous', ctx.tool, pointer(...at), before[name] ?? null, null));
      } else if (!inBefore && inAfter) {
        out.push(reqAfter.has(name)
          ? change('required-argument-added', 'breaking', ctx.tool, pointer(...at), null, after[name] ?? null)
          : change('input-property-added', 'safe', ctx.tool, pointer(...at), null, after[name] ?? null));
      } else if (!reqBefore.has(name) && reqAfter.has(name)) {
        out.push(change('required-argument-added', 'breaking', ctx.tool, pointer(...at), 'optional', 'required'));
      } else if (reqBefore.has(name) && !reqAfter.has(name)) {
        out.push(change('argument-became-optional', 'safe', ctx.tool, pointer(...at), 'required', 'optional'));
      }
    } else if (inBefore && !inAfter) {
      out.push(change('output-property-removed', 'breaking', ctx.tool, pointer(...at), before[name] ?? null, null));
    } else if (!inBefore && inAfter) {
      out.push(change('output-property-added', 'safe', ctx.tool, pointer(...at), null, after[name] ?? null));
    } else if (reqBefore.has(name) && !reqAfter.has(name)) {
      out.push(change('output-property-optional', 'breaking', ctx.tool, pointer(...at), 'required', 'optional'));
    }
    if (name in before && name in after) out.push(...compareSchemaNodes(before[name], after[name], at, ctx));
  }
  return out;
}

function compareItems(b: JsonSchema, a: JsonSchema, path: string[], ctx: WalkContext): Change[] {
  if (!isObject(b.items) || !isObject(a.items)) return [];
  return compareSchemaNodes(b.items, a.items, [...path, 'items'], ctx);
}

/** anyOf/oneOf: branches are matched by content; a lost branch narrows, a new one widens. */
function compareVariants(b: JsonSchema, a: JsonSchema, path: string[], ctx: WalkContext): Change[] {
  const out: Change[] = [];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const before = Array.isArray(b[key]) ? (b[key] as unknown[]) : null;
    const after = Array.isArray(a[key]) ? (a[key] as unknown[]) : null;
    if (!before || !after) continue;
    const afterKeys = after.map(canonicalJson);
    const beforeKeys = before.map(canonicalJson);
    const lost = before.filter((_, i) => !afterKeys.includes(beforeKeys[i]!));
    const gained = after.filter((_, i) => !beforeKeys.includes(afterKeys[i]!));
    if (lost.length === 1 && gained.length === 1) {
      const at = before.indexOf(lost[0]);
      out.push(...compareSchemaNodes(lost[0], gained[0], [...path, key, String(at)], ctx));
      continue;
    }
    const at = [...path, key];
    if (lost.length) out.push(emit(ctx, { input: 'input-type-changed', output: 'output-type-narrowed' }, { input: 'breaking', output: 'safe' }, at, lost, null));
    if (gained.length) out.push(emit(ctx, { input: 'input-type-widened', output: 'output-type-changed' }, { input: 'safe', output: 'breaking' }, at, null, gained));
  }
  return out;
}
