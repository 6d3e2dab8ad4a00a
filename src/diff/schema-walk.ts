import type { Change } from '../findings/types.js';
import type { JsonSchema } from '../contract/types.js';
import { toolChange } from './change.js';
import {
  annotationChange,
  constraint,
  sameSubschema,
  spend,
  isUnread,
  typeChange,
  unclassified,
  unread,
  withProof,
  type WalkContext,
} from './schema-context.js';
import { refusesOnlyDegenerate } from './degenerate-bound.js';
import { listedInText } from './documented-values.js';
import { compareArrays, compareNumbers, compareStrings } from './schema-constraints.js';
import { COMPARED_KEYWORDS, TEXT_KEYWORDS, constraintKey, isAnnotation, typesOf, valueKey } from './schema-keywords.js';
import { normalForm, readsMarks } from './schema-normal-form.js';
import { resolvesEveryRef } from './schema-spellings.js';
import { normalize, type Node } from './schema-normalize.js';
import { compareObjects } from './schema-objects.js';
import { compareVariants, hasVariants } from './schema-variants.js';

/** Deeper than this, a difference is a `schema-changed` finding rather than a walk. */
const MAX_DEPTH = 64;

/**
 * Direction-aware comparison of two schema nodes. On the input side, accepting less breaks callers;
 * on the output side, promising more breaks consumers. Each emitted code already encodes the
 * direction, so policy can key on codes alone. Every difference in what the nodes assert yields at
 * least one change: what cannot be ordered is `schema-changed`, never silence.
 */
export function compareSchemaNodes(beforeRaw: unknown, afterRaw: unknown, path: string[], ctx: WalkContext): Change[] {
  if (sameSubschema(beforeRaw, afterRaw, ctx)) return [];
  if (ctx.depth >= MAX_DEPTH)
    return [unread(ctx, path, `The schemas differ deeper than ${MAX_DEPTH} levels, where the gate compares no further.`)];
  const spent = spend(ctx, path);
  if (spent) return spent;
  let before, after;
  try {
    before = normalize(beforeRaw, ctx.rootBefore, ctx.reached.before);
    after = normalize(afterRaw, ctx.rootAfter, ctx.reached.after);
  } catch (error) {
    return [unread(ctx, path, `The schemas could not be compared: ${(error as Error).message}.`)];
  }
  let followed = ctx.followed;
  if (before.refs.length || after.refs.length) {
    const key = `${before.refs.join(' ')}|${after.refs.join(' ')}`;
    if (followed.has(key)) return []; // a cycle: this pair of definitions is compared where the walk first met it
    followed = new Set(followed).add(key);
  }
  return compareNormalized(before.node, after.node, path, { ...ctx, followed, depth: ctx.depth + 1, variantNest: 0 });
}

const ALIKE =
  'the alternatives here have the same normal form on both sides (values split into alternatives or gathered, an alternative that another takes whole dropped), so they take the same arguments';

/**
 * What pairing the alternatives found where the two nodes take the same instances: calm, with that
 * proof. `anyOf: [{const: "a"}, {const: "b"}, S]` restates `anyOf: [{enum: ["a", "b"]}, S]`, whose
 * pairing reads an enum dropped. Checked only where something was held, and on a work count of its own.
 */
function provenAlike(changes: Change[], b: Node, a: Node, ctx: WalkContext): Change[] {
  const held = (c: Change) => c.severity !== 'safe' && !isUnread(c);
  if (!changes.some(held) || b === false || a === false || !plainDocument(ctx.rootBefore) || !plainDocument(ctx.rootAfter)) return changes;
  const [fb, fa] = [normalForm(b, ctx.rootBefore), normalForm(a, ctx.rootAfter)];
  // A recursion: the form once wrote it by how many refs back it led, which two chains of `$ref`s
  // can share while leading to different definitions (found in review). It now names the level it
  // returns to; this proof still stands aside there. Text past the depth bound proves nothing.
  if (fb !== fa || fb.includes('"$cycle"') || fb.includes('"$raw"')) return changes;
  return changes.map((c) => (held(c) ? withProof(c, ALIKE) : c));
}

/** A document whose references the form resolves and whose marks nothing reads: no anchors, no `$id`, no dynamic or `unevaluated*` keywords. */
function plainDocument(root: JsonSchema): boolean {
  return !readsMarks(root) && resolvesEveryRef(root);
}

function compareNormalized(b: Node, a: Node, path: string[], ctx: WalkContext): Change[] {
  if (b === false || a === false) {
    if (b === a) return [];
    return [typeChange(ctx, a === false, [...path, 'type'], b === false ? 'never' : showTypes(b), a === false ? 'never' : showTypes(a))];
  }
  const kb = constraintKey(b);
  if (kb !== null && kb === constraintKey(a) && !kb.includes('"$ref"')) return [];
  // An unresolvable $ref on one side leaves nothing to order: the ref change alone is told.
  if ((b.$ref ?? null) !== (a.$ref ?? null)) return compareLocal(b, a, path, ctx);
  if (hasVariants(b) || hasVariants(a))
    return [...provenAlike(compareVariants(b, a, path, ctx, compareNormalized), b, a, ctx), ...compareLocal(b, a, path, ctx)];
  return [
    ...compareTypes(b, a, path, ctx),
    ...compareEnums(b, a, path, ctx),
    ...compareNumbers(b, a, path, ctx),
    ...compareStrings(b, a, path, ctx),
    ...compareArrays(b, a, path, ctx),
    ...compareObjects(b, a, path, ctx),
    ...compareNot(b, a, path, ctx),
    ...compareConditional(b, a, path, ctx),
    ...compareConjuncts(b, a, path, ctx),
    ...compareLocal(b, a, path, ctx),
  ];
}

/** Whether every value of type `t` is accepted by `types` (integer values are numbers). */
const covers = (types: Set<string> | null, t: string): boolean =>
  types === null || types.has(t) || (t === 'integer' && types.has('number'));

const showTypes = (s: JsonSchema) => {
  const t = typesOf(s);
  return t === null ? 'any' : [...t].sort().join('|');
};

/** Whether the only move is `number` → `integer`, with `null` beside both or neither. */
function integersOnly(before: Set<string> | null, after: Set<string> | null): boolean {
  if (!before || !after || before.has('null') !== after.has('null')) return false;
  const kinds = (t: Set<string>) => [...t].filter((k) => k !== 'null');
  return kinds(before).join() === 'number' && kinds(after).join() === 'integer';
}

function compareTypes(b: JsonSchema, a: JsonSchema, path: string[], ctx: WalkContext): Change[] {
  if (b.type === undefined && a.type === undefined) return []; // types implied by enums: compareEnums tells those
  const before = typesOf(b);
  const after = typesOf(a);
  const lost = before === null ? after !== null : [...before].some((t) => !covers(after, t));
  const gained = after === null ? before !== null : [...after].some((t) => !covers(before, t));
  if (!lost && !gained) return [];
  // An integer where a number was refuses only fractional values: a bound declared, not a kind taken
  // away, null allowed beside it or not (@baruchiro/paperless-mcp 2.2.0: `null|number` → `integer|null`).
  if (ctx.side === 'input' && integersOnly(before, after)) {
    const at = [...path, 'type'];
    const degenerate = refusesOnlyDegenerate(at, 'integer', { before: ctx.rootBefore, after: ctx.rootAfter });
    return [
      toolChange(degenerate ? 'input-constraint-declared-degenerate' : 'input-constraint-declared', ctx.tool, at, 'number', 'integer'),
    ];
  }
  // A type where the argument declared none (any value) is a bound declared too: the caller was
  // told nothing of it, and what it sent was what the text asked for (docs/verdicts.md).
  // Not where the node is every other name's (additionalProperties): that is no argument declared.
  const anyName = ['additionalProperties', 'unevaluatedProperties'].includes(path.at(-1)!) || path.at(-2) === 'patternProperties';
  if (ctx.side === 'input' && before === null && after !== null && !anyName)
    return [toolChange('input-constraint-declared', ctx.tool, [...path, 'type'], 'any', showTypes(a))];
  // Input: losing accepted types narrows what callers may send. Output: gaining types surprises consumers.
  const nullOnly = !lost && after !== null && [...after].every((t) => t === 'null' || covers(before, t));
  return [typeChange(ctx, ctx.side === 'input' ? lost : !gained, [...path, 'type'], showTypes(b), showTypes(a), nullOnly)];
}

function compareEnums(b: JsonSchema, a: JsonSchema, path: string[], ctx: WalkContext): Change[] {
  const before = Array.isArray(b.enum) ? b.enum : null;
  const after = Array.isArray(a.enum) ? a.enum : null;
  if (before === null && after === null) return [];
  const afterKeys = new Set((after ?? []).map(valueKey));
  const beforeKeys = new Set((before ?? []).map(valueKey));
  const narrowed =
    (before === null && after !== null) || (before !== null && after !== null && before.some((v) => !afterKeys.has(valueKey(v))));
  const widened =
    (before !== null && after === null) || (before !== null && after !== null && after.some((v) => !beforeKeys.has(valueKey(v))));
  const at = [...path, 'enum'];
  const out: Change[] = [];
  // An input that gains a list of values, or loses it: the model is told the values, or no longer is.
  // Values the argument's own text already listed, each still taken: the text made schema.
  if (ctx.side === 'input' && before === null)
    return [
      toolChange(listedInText(b.description, after!) ? 'input-enum-declared-listed' : 'input-enum-declared', ctx.tool, at, before, after),
    ];
  if (ctx.side === 'input' && after === null) return [toolChange('input-enum-dropped', ctx.tool, at, before, after)];
  if (narrowed) out.push(toolChange(ctx.side === 'input' ? 'input-enum-narrowed' : 'output-enum-narrowed', ctx.tool, at, before, after));
  if (widened) out.push(toolChange(ctx.side === 'input' ? 'input-enum-widened' : 'output-enum-widened', ctx.tool, at, before, after));
  return out;
}

/** `not`: the after side accepts less exactly when its excluded set grew. */
function compareNot(b: JsonSchema, a: JsonSchema, path: string[], ctx: WalkContext): Change[] {
  if (!('not' in b) && !('not' in a)) return [];
  const at = [...path, 'not'];
  if (!('not' in b)) return [constraint(ctx, 'tightened', at, null, a.not)];
  if (!('not' in a)) return [constraint(ctx, 'loosened', at, b.not, null)];
  const excludedMore = compareSchemaNodes(a.not, b.not, at, { ...ctx, side: 'input' }).some((c) => c.severity === 'breaking');
  const excludedLess = compareSchemaNodes(b.not, a.not, at, { ...ctx, side: 'input' }).some((c) => c.severity === 'breaking');
  if (excludedMore) return [constraint(ctx, 'tightened', at, b.not, a.not)];
  if (excludedLess) return [constraint(ctx, 'loosened', at, b.not, a.not)];
  return sameSubschema(b.not, a.not, ctx) ? [] : [annotationChange(ctx, at, b.not, a.not)];
}

/** `if`/`then`/`else`: with the same condition, each branch is compared; a new condition tightens. */
function compareConditional(b: JsonSchema, a: JsonSchema, path: string[], ctx: WalkContext): Change[] {
  const has = (s: JsonSchema) => 'if' in s;
  if (!has(b) && !has(a)) return [];
  if (!has(b)) return [constraint(ctx, 'tightened', [...path, 'if'], null, { if: a.if, then: a.then, else: a.else })];
  if (!has(a)) return [constraint(ctx, 'loosened', [...path, 'if'], { if: b.if, then: b.then, else: b.else }, null)];
  if (!sameSubschema(b.if, a.if, ctx))
    return [unclassified(ctx, [...path, 'if'], 'The condition (`if`) changed; which instances each branch governs is no longer the same.')];
  return [...compareSchemaNodes(b.then, a.then, [...path, 'then'], ctx), ...compareSchemaNodes(b.else, a.else, [...path, 'else'], ctx)];
}

/** What stayed a residual `allOf` after normalising: conjuncts matched by content; a new one tightens. */
function compareConjuncts(b: JsonSchema, a: JsonSchema, path: string[], ctx: WalkContext): Change[] {
  const before = Array.isArray(b.allOf) ? b.allOf : [];
  const after = Array.isArray(a.allOf) ? a.allOf : [];
  const afterKeys = after.map(constraintKey);
  const beforeKeys = before.map(constraintKey);
  const lost = before.map((_, i) => i).filter((i) => beforeKeys[i] === null || !afterKeys.includes(beforeKeys[i]!));
  const gained = after.map((_, i) => i).filter((i) => afterKeys[i] === null || !beforeKeys.includes(afterKeys[i]!));
  if (lost.length === 1 && gained.length === 1)
    return compareSchemaNodes(before[lost[0]!], after[gained[0]!], [...path, 'allOf', String(gained[0])], ctx);
  return [
    ...lost.map((i) => constraint(ctx, 'loosened', [...path, 'allOf', String(i)], before[i], null)),
    ...gained.map((i) => constraint(ctx, 'tightened', [...path, 'allOf', String(i)], null, after[i])),
  ];
}

/**
 * Keywords that belong to the node itself, whatever variant applies: an unresolvable `$ref`, the
 * default, annotations and keywords the gate does not know. Unknown and unresolvable differences are
 * `schema-changed`: a person must look.
 */
function compareLocal(b: JsonSchema, a: JsonSchema, path: string[], ctx: WalkContext): Change[] {
  const out: Change[] = [];
  if ((b.$ref ?? null) !== (a.$ref ?? null)) {
    out.push(
      unclassified(
        ctx,
        [...path, '$ref'],
        `A $ref the gate cannot resolve (external or missing) changed from ${JSON.stringify(b.$ref ?? null)} to ${JSON.stringify(a.$ref ?? null)}.`,
      ),
    );
  }
  const hasDefault = (s: JsonSchema) => Object.hasOwn(s, 'default');
  if ((hasDefault(b) || hasDefault(a)) && (hasDefault(b) !== hasDefault(a) || valueKey(b.default) !== valueKey(a.default))) {
    const at = [...path, 'default'];
    out.push(
      ctx.side === 'input'
        ? toolChange('input-default-changed', ctx.tool, at, b.default, a.default)
        : annotationChange(ctx, at, b.default, a.default),
    );
  }
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].sort();
  for (const key of keys) {
    if (TEXT_KEYWORDS.has(key) || COMPARED_KEYWORDS.has(key) || key === '$defs' || key === 'definitions') continue;
    if (valueKey(b[key]) === valueKey(a[key])) continue;
    if (isAnnotation(key)) out.push(annotationChange(ctx, [...path, key], b[key], a[key]));
    else out.push(unclassified(ctx, [...path, key], `The keyword "${key}" changed, and the gate does not know what it asserts.`));
  }
  return out;
}
