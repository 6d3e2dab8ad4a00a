import { VOLATILE_FIELDS } from './types.js';

const volatile = new Set<string>(VOLATILE_FIELDS);

/**
 * A deep copy of a report without its times and durations, nor the machine it ran on (the top-level
 * `environment`): equal across runs against the same servers, wherever they ran.
 */
export const withoutVolatile = (report: unknown): unknown => {
  const copy = JSON.parse(JSON.stringify(report, (key, value: unknown) => (volatile.has(key) ? undefined : value))) as unknown;
  if (typeof copy === 'object' && copy !== null) delete (copy as { environment?: unknown }).environment;
  return copy;
};
