/**
 * JSON Pointer (RFC 6901) segments: `~` is written `~0` and `/` is written `~1`, so a key with
 * either reads back as itself. Every pointer the gate writes or reads goes through these two.
 */
export const escapeSegment = (segment: string | number): string => String(segment).replace(/~/g, '~0').replace(/\//g, '~1');

/** A segment as written in a pointer, read back (`~1` before `~0`, so `~01` is `~1`, not `/`). */
export const unescapeSegment = (segment: string): string => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** The pointer of a path: `['a/b', 0]` is `/a~1b/0`; the empty path is the empty pointer. */
export const pointerOf = (segments: readonly (string | number)[]): string => segments.map((s) => `/${escapeSegment(s)}`).join('');

/**
 * A matcher for pointer patterns: JSON pointers whose `*` segments match any key or index, as a
 * dataset's `volatile` lists them. A pattern matches a pointer it is a prefix of, and all below it.
 */
export const pointerMatcher = (patterns: string[]) => {
  const split = patterns.map((p) => p.split('/').slice(1));
  return (pointer: string) => {
    const parts = pointer.split('/').slice(1);
    return split.some((p) => p.length <= parts.length && p.every((s, i) => s === '*' || s === parts[i]));
  };
};
