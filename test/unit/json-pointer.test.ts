import { describe, expect, it } from 'vitest';
import { escapeSegment, pointerOf, unescapeSegment } from '../../src/base/json-pointer.js';

describe('JSON Pointer segments (RFC 6901)', () => {
  it('writes ~ as ~0 and / as ~1, and reads them back', () => {
    expect(pointerOf(['a/b', 'm~n', 0])).toBe('/a~1b/m~0n/0');
    expect(pointerOf([])).toBe('');
    for (const key of ['a/b', 'm~n', '~1', '~0', '/~/', 'plain']) expect(unescapeSegment(escapeSegment(key))).toBe(key);
  });

  it('reads ~01 as ~1, not as /', () => {
    expect(unescapeSegment('~01')).toBe('~1');
  });
});
