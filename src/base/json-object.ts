/** A JSON object (not null, not an array): the one test every reader of untyped JSON uses. */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
