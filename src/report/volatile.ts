import { VOLATILE_FIELDS } from './types.js';

const volatile = new Set<string>(VOLATILE_FIELDS);

/** A deep copy of a report without its times and durations: equal across runs against the same servers. */
export const withoutVolatile = (report: unknown): unknown =>
  JSON.parse(JSON.stringify(report, (key, value: unknown) => (volatile.has(key) ? undefined : value)));
