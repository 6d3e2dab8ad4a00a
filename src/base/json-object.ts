/** A JSON object (not null, not an array): the one test every reader of untyped JSON uses. */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A member of a JSON object by a name a server sent, or undefined: never one the object inherits
 * (`constructor`, `toString`, `__proto__`), which `object[name]` returns for a name it lacks.
 */
export const memberOf = (object: Record<string, unknown>, name: string): unknown =>
  Object.hasOwn(object, name) ? object[name] : undefined;

/**
 * Sets a member of a JSON object being built, `__proto__` as well: `object[name] = value` takes that
 * name for the object's prototype, so the member would be missing from the copy, its hash and its text.
 */
export function setMember(object: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__') Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
  else object[name] = value;
}
