import { pathOf, placeName } from '../subject.js';
import { show, toolName, type ChangeFacts } from './meta.js';
import { isObject } from '../../base/json-object.js';

/** The argument or field a schema change is at: `"tool" a.b`, for messages. */
export const where = (c: ChangeFacts): string =>
  c.subject.kind === 'tool' ? `"${c.subject.tool}" ${placeName(c.subject.at)}` : pathOf(c.subject);

/** The property a schema change names (`a.b`). */
export const place = (c: ChangeFacts): string => (c.subject.kind === 'tool' ? placeName(c.subject.at) : pathOf(c.subject));

/** The message of a schema change with no sentence of its own: where, what, and the two values. */
export const generic =
  (code: string) =>
  (c: ChangeFacts): string =>
    `${where(c)}: ${code.replace(/-/g, ' ')} (${show(c.before)} -> ${show(c.after)}).`;

const article = (word: string) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);
const MAX_NAMES = 4;

/**
 * A subschema in a few words, for messages: "a string", "one of "a", "b"", "an array of strings",
 * "an object with command, cwd". Never the whole JSON: an `anyOf` alternative can be kilobytes.
 */
export function describe(schema: unknown, depth = 0): string {
  if (schema === true || schema === undefined || schema === null) return 'any value';
  if (schema === false) return 'nothing';
  if (!isObject(schema)) return show(schema);
  if ('const' in schema) return show(schema.const);
  if (Array.isArray(schema.enum)) {
    const shown = schema.enum.slice(0, MAX_NAMES).map(show).join(', ');
    return `one of ${shown}${schema.enum.length > MAX_NAMES ? ', …' : ''}`;
  }
  // Only the names: a `type` list may hold objects, and joining one calls its `toString` (JSON can
  // make that a number, and the join throws).
  const type = Array.isArray(schema.type)
    ? schema.type.filter((t): t is string => typeof t === 'string').join(' or ') || null
    : typeof schema.type === 'string'
      ? schema.type
      : null;
  if (type === 'array' || (type === null && 'items' in schema)) {
    return depth > 1 || !isObject(schema.items) ? 'an array' : `an array of ${plural(describe(schema.items, depth + 1))}`;
  }
  if (type === 'object' || (type === null && isObject(schema.properties))) {
    const names = isObject(schema.properties) ? Object.keys(schema.properties) : [];
    if (!names.length) return 'an object';
    return `an object with ${names.slice(0, MAX_NAMES).join(', ')}${names.length > MAX_NAMES ? ', …' : ''}`;
  }
  return type ? article(type) : 'a value of another shape';
}

const plural = (phrase: string) => phrase.replace(/^an? (\w+)/, '$1s');

/**
 * A type change in words: what is no longer accepted (or returned), what is now, or both.
 * `command.anyOf.0` reads as `command`, and the alternative is described.
 */
export const typeWords =
  (lost: string, gained: string) =>
  (c: ChangeFacts): string => {
    const at = c.subject.kind === 'tool' ? placeName(c.subject.at.filter((_, i, all) => !isVariantStep(all, i))) : pathOf(c.subject);
    const name = `"${toolName(c)}" ${at || '(the whole schema)'}`;
    if (c.after === null) return `${name} ${lost} ${describe(c.before)}.`;
    if (c.before === null) return `${name} ${gained} ${describe(c.after)}.`;
    return `${name} changed from ${describe(c.before)} to ${describe(c.after)}.`;
  };

/** `anyOf`/`oneOf` and the branch index after it: steps of a pointer that name no property. */
const isVariantStep = (at: readonly string[], i: number) =>
  at[i] === 'anyOf' || at[i] === 'oneOf' || ((at[i - 1] === 'anyOf' || at[i - 1] === 'oneOf') && /^\d+$/.test(at[i]!));

export { toolName };
