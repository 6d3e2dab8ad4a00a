import type { JsonSchema } from '../contract/types.js';
import type { Change } from '../findings/types.js';
import { unescapeSegment } from '../base/json-pointer.js';
import { isObject } from '../base/json-object.js';
import { judgeOf } from '../witness/judge.js';

/**
 * Whether a refusal is the one a change is about (docs/verdicts.md, "A witness shows its own
 * change"): ajv's first error sits where the change is, for its keyword. A witness shown for
 * "whole numbers only" must be refused as a fraction, not as `page: 0` under a new minimum beside
 * it; one shown for an argument removed must send that argument. Null: any refusal will do (a
 * change the walk could not place, or one inside alternatives, where ajv reports a branch's error).
 */
export type Place = (at: string, keyword: string, name: string | undefined) => boolean;

/** ajv keywords that report the same assertion a change's keyword is about. */
const FAMILIES: Record<string, string[]> = {
  minimum: ['minimum', 'exclusiveMinimum'],
  exclusiveMinimum: ['minimum', 'exclusiveMinimum'],
  maximum: ['maximum', 'exclusiveMaximum'],
  exclusiveMaximum: ['maximum', 'exclusiveMaximum'],
  enum: ['enum', 'const'],
  const: ['enum', 'const'],
  type: ['type'],
  multipleOf: ['multipleOf'],
  minLength: ['minLength'],
  maxLength: ['maxLength'],
  pattern: ['pattern'],
  format: ['format'],
  minItems: ['minItems'],
  maxItems: ['maxItems'],
  uniqueItems: ['uniqueItems'],
  minProperties: ['minProperties'],
  maxProperties: ['maxProperties'],
};

/** Where the walk cannot say which error ajv reports first: the place alone is not checked. */
const LOOSE = new Set(['anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else', '$ref', 'propertyNames', 'patternProperties']);

export function placeOf(c: Change): Place | null {
  const at = c.subject.kind === 'tool' ? c.subject.at : [];
  if (at.length < 2 || at.some((s) => LOOSE.has(s))) return null;
  const steps: (string | null)[] = [];
  let i = 1;
  for (; i < at.length; i++) {
    if (at[i] === 'properties' && at[i + 1] !== undefined) steps.push(at[++i]!);
    else if (at[i] === 'items') steps.push(null);
    else break;
  }
  const rest = at.slice(i);
  // A node made `false` (or made from it) is refused by whatever governs it: `items`,
  // `additionalItems`, `additionalProperties`, at the array or the object, not at the node.
  if (c.before === 'never' || c.after === 'never') return null;
  const family = rest.length === 1 ? FAMILIES[rest[0]!] : undefined;
  // A keyword of the node: refused there, for that keyword.
  if (family) return (pointer, keyword) => matches(pointer, steps) && (family.includes(keyword) || keyword === 'false schema');
  // A property added, removed or made required: refused at the object for that name (`required`,
  // `additionalProperties`), or at the property itself.
  const name = steps.at(-1);
  if (rest.length === 0 && at[at.length - 2] === 'properties' && typeof name === 'string')
    return (pointer, _keyword, named) =>
      (matches(pointer, steps.slice(0, -1)) && (named === undefined || named === name)) || within(pointer, steps);
  return null;
}

/**
 * Whether a refusal is the change's own: at its place, or, where the walk cannot place it (inside
 * alternatives), a refusal of the very name the change declares as an undeclared one.
 */
export function refusedAt(c: Change, pointer: string, keyword: string, named: string | undefined): boolean {
  const place = placeOf(c);
  if (place) return place(pointer, keyword, named);
  const at = c.subject.kind === 'tool' ? c.subject.at : [];
  const [parent, name] = at.slice(-2);
  return parent === 'properties' && keyword === 'additionalProperties' && named === name;
}

const segments = (pointer: string): string[] => (pointer === '' ? [] : pointer.split('/').slice(1).map(unescapeSegment));

/** The pointer is exactly the place (`null`: any item). */
function matches(pointer: string, steps: (string | null)[]): boolean {
  const parts = segments(pointer);
  return parts.length === steps.length && steps.every((s, k) => s === null || s === parts[k]);
}

/** The pointer is at the place or under it. */
function within(pointer: string, steps: (string | null)[]): boolean {
  const parts = segments(pointer);
  return parts.length >= steps.length && steps.every((s, k) => s === null || s === parts[k]);
}

/**
 * Bounds declared or tightened: each is one keyword, and its witness is a value inside every other
 * bound. A type that drops a kind (`null`) often drops it from an `enum` beside it too, and is one
 * change written twice: its witness is refused by both, and is not spared.
 */
const BOUNDS = new Set(['input-constraint-declared', 'input-constraint-tightened']);

/** Whether a change is a bound declared or tightened on an input, whose witness is first sought among the values it alone refuses. */
export const boundOfItsOwn = (c: Change): boolean => BOUNDS.has(c.code);

/**
 * Whether an instance is refused by the change's keyword alone: the refusing schema with that one
 * keyword taken out of the change's node accepts it. A witness shown for "whole numbers only" on an
 * argument that also gained `minimum: 1` must be `1.5`, not `0.5`, which the minimum refuses too,
 * and one shown for the minimum must be a whole number. Null where the change is no keyword of a
 * node the walk placed (confirm-place's `placeOf`), or the node is not found in `refuse`.
 */
export function refusedAlone(c: Change, refuse: JsonSchema): ((instance: unknown) => boolean) | null {
  const at = c.subject.kind === 'tool' ? c.subject.at : [];
  // The node's own path (properties by name, items), then one keyword of it: an argument named
  // `type` or `minimum` is a property, not a keyword.
  let i = 1;
  while (i < at.length - 1 && (at[i] === 'items' || (at[i] === 'properties' && i + 1 < at.length - 1))) i += at[i] === 'items' ? 1 : 2;
  const keyword = at[i];
  if (!BOUNDS.has(c.code) || !placeOf(c) || i !== at.length - 1 || keyword === undefined || !Object.hasOwn(FAMILIES, keyword)) return null;
  const relaxed = JSON.parse(JSON.stringify(refuse)) as unknown;
  let node: unknown = relaxed;
  for (const step of at.slice(1, -1)) node = isObject(node) ? node[step] : undefined;
  if (!isObject(node) || !Object.hasOwn(node, keyword)) return null;
  delete node[keyword];
  // Compiled on first use: most searches find a witness before a refusal at the place is met.
  let judge: ReturnType<typeof judgeOf> | undefined;
  return (instance) => {
    judge ??= judgeOf(relaxed as JsonSchema);
    // A relaxed schema ajv cannot compile spares nothing: any refusal at the place will do.
    return typeof judge === 'string' || judge.accepts(instance);
  };
}
