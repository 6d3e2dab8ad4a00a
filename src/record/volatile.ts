import { isObject } from '../base/json-object.js';
import { escapeSegment } from '../base/json-pointer.js';

/**
 * What `record` leaves out of a frozen answer as volatile: where two answers of two server processes
 * differ, and values whose shape says they change with every process or release. Both are JSON
 * pointers with array indices as `*`.
 */

const MAX_DEPTH = 32;

/** Where two answers differ, as JSON pointers with array indices as `*` (a clock in every item is one field). */
export function differences(a: unknown, b: unknown, pointer: string, depth: number, out: Set<string>): void {
  const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  if (depth > MAX_DEPTH) {
    // Past the depth compared field by field, a subtree that changed at all is volatile as a whole.
    if (JSON.stringify(a) !== JSON.stringify(b)) out.add(pointer);
    return;
  }
  if (kind(a) !== kind(b)) {
    out.add(pointer);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.add(pointer);
    else a.forEach((item, i) => differences(item, b[i], `${pointer}/*`, depth + 1, out));
    return;
  }
  if (isObject(a) && isObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const child = `${pointer}/${escapeSegment(key)}`;
      if (!Object.hasOwn(a, key) || !Object.hasOwn(b, key)) out.add(child);
      else differences(a[key], b[key], child, depth + 1, out);
    }
    return;
  }
  if (a !== b) out.add(pointer);
}

/**
 * What changes with every process or release, whatever two recordings show: the server's own version
 * string (the next release answers another), UUIDs, timestamps (ISO date-times, epoch milliseconds)
 * and numbers under a key that names a process or a clock. Two processes of the same release may
 * agree on them by chance (a version, a UUID seeded from the data); the next release will not.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;
const CLOCK_OR_PROCESS_KEY =
  /^(?:pid|ppid|uptime|timestamp|time|now|started_?at|startedAt|updated_?at|updatedAt|created_?at|createdAt)$|(?:_at|At|Time|_time|Ms|_ms)$/;
const EPOCH_MS = [946_684_800_000, 4_102_444_800_000]; // 2000 to 2100

export function changesByShape(serverVersion: string | null | undefined): (value: unknown, key: string) => boolean {
  // A version too short or plain to be told from data ("1", "v") is not matched.
  const version = serverVersion && /\d+\.\d+/.test(serverVersion) ? serverVersion : null;
  return (value, key) => {
    if (typeof value === 'string')
      return UUID.test(value) || DATE_TIME.test(value) || (version !== null && (value === version || value.includes(version)));
    if (typeof value === 'number')
      return CLOCK_OR_PROCESS_KEY.test(key) || (Number.isInteger(value) && value >= EPOCH_MS[0]! && value <= EPOCH_MS[1]!);
    return false;
  };
}

/** Adds the pointers whose values `volatile` calls volatile by their shape (array indices as `*`). */
export function byShape(
  value: unknown,
  pointer: string,
  depth: number,
  volatile: (value: unknown, key: string) => boolean,
  out: Set<string>,
): void {
  if (depth > MAX_DEPTH || out.has(pointer)) return;
  if (Array.isArray(value)) value.forEach((item) => byShape(item, `${pointer}/*`, depth + 1, volatile, out));
  else if (isObject(value))
    for (const [key, item] of Object.entries(value)) {
      const child = `${pointer}/${escapeSegment(key)}`;
      if (item !== null && typeof item !== 'object' && volatile(item, key)) out.add(child);
      else byShape(item, child, depth + 1, volatile, out);
    }
}
