import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDatasets } from '../../src/cases/load.js';
import { ajvRegExp, safeRegex } from '../../src/base/safe-regex.js';

describe('regular expressions from servers and datasets run on RE2 (linear time)', () => {
  it('a catastrophic-backtracking pattern answers at once', () => {
    const re = safeRegex('^(\\w+\\s?)+$');
    expect(typeof re).toBe('object');
    expect((re as { test(t: string): boolean }).test(`${'a'.repeat(5000)}!`)).toBe(false);
    expect((re as { test(t: string): boolean }).test('called alpha')).toBe(true);
  });

  it('flags i, s and m; lookaround with repetition is named as what RE2 cannot run', () => {
    expect((safeRegex('^abc$', 'i') as { test(t: string): boolean }).test('ABC')).toBe(true);
    expect((safeRegex('^a.*c$', 's') as { test(t: string): boolean }).test('a\nc')).toBe(true);
    expect(safeRegex('(?=a+)b')).toMatch(/unsupported Perl syntax/);
    expect(ajvRegExp('(?=a+)b', 'u').test('anything')).toBe(true); // not checked rather than run unsafely
  });

  it('a pattern with no unbounded repetition runs on the native engine (no RE2 start-up), lookaround included', () => {
    const re = safeRegex('severity P[0-9]');
    expect(re).toBeInstanceOf(RegExp);
    expect(safeRegex('(?=a)b')).toBeInstanceOf(RegExp);
    expect(safeRegex('a*')).not.toBeInstanceOf(RegExp);
    expect(safeRegex('(ab){2}')).not.toBeInstanceOf(RegExp);
    expect(safeRegex('\\d{2,}')).not.toBeInstanceOf(RegExp);
    expect(safeRegex('[*+]x')).toBeInstanceOf(RegExp); // a star inside a class is a character
  });

  it('a dataset whose expect.matches RE2 cannot run is a dataset problem (exit 3), with the file and path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-regex-'));
    const file = join(dir, 'x.cases.yaml');
    writeFileSync(
      file,
      'role: r\ncases:\n  - id: A\n    userTask: t\n    requiredTools:\n      - toolName: t\n        expect: { matches: "(?<=x+)y" }\n',
    );
    expect(() => loadDatasets([file], dir)).toThrow(
      /x\.cases\.yaml:7: cases\[0\]\.requiredTools\[0\]\.expect\.matches: is not a regular expression the gate can run in linear time/,
    );
  });
});

describe('patterns ajv compiles through the safe engine', () => {
  it('each schema keeps its own pattern (ajv shares compiled patterns by their string)', async () => {
    const { validationErrors } = await import('../../src/audit/schema-check.js');
    expect(validationErrors({ type: 'string', pattern: '^a+$' }, 'aaa')).toEqual([]);
    expect(validationErrors({ type: 'string', pattern: '^b+$' }, 'aaa')).not.toEqual([]);
    expect(validationErrors({ type: 'string', pattern: '^b+$' }, 'bbb')).toEqual([]);
  });
});
