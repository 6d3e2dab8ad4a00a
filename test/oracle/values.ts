import { fullFormats } from 'ajv-formats/dist/formats.js';
import { regexExamples } from './regex.js';

/** Leaf values the search starts from: examples of each format, strings for patterns, numbers at bounds. */
export const FORMAT_EXAMPLES: Record<string, string[]> = {
  'date-time': ['2024-01-02T03:04:05Z', '2024-01-02T03:04:05.5+02:00'],
  'iso-date-time': ['2024-01-02T03:04:05', '2024-01-02 03:04:05Z'],
  date: ['2024-01-02', '2024-02-29'],
  time: ['03:04:05Z', '23:59:59+01:00'],
  'iso-time': ['03:04:05', '03:04:05Z'],
  duration: ['P1D', 'PT1H30M', 'P1W'],
  uri: ['https://example.com/x', 'mailto:user@example.com', 'urn:isbn:0451450523', 'file:///tmp/a'],
  'uri-reference': ['/relative/path', '#frag', 'a/b?c=1', 'https://example.com'],
  iri: ['https://example.com/ü'],
  'iri-reference': ['/ü'],
  'uri-template': ['https://example.com/{id}', '/users/{user}'],
  url: ['https://example.com/a', 'http://a.io'],
  email: ['user@example.com', 'a.b+c@sub.example.org'],
  'idn-email': ['用户@例子.广告'],
  hostname: ['example.com', 'localhost', 'a-b.c'],
  'idn-hostname': ['例子.广告'],
  ipv4: ['192.168.0.1', '10.0.0.255'],
  ipv6: ['::1', '2001:db8::1'],
  regex: ['^a+$', '[0-9]{2}'],
  uuid: ['550e8400-e29b-41d4-a716-446655440000', '00000000-0000-0000-0000-000000000000'],
  'json-pointer': ['/a/b', '', '/0'],
  'json-pointer-uri-fragment': ['#/a/b'],
  'relative-json-pointer': ['0/a', '1#'],
  byte: ['aGVsbG8=', ''],
  password: ['hunter2'],
  binary: ['\u0001\u0002'],
};

/** Strings valid for some formats and not others, and for none: what tells formats apart. */
const FORMAT_MISSES = ['not a uri', 'x y', '2024-13-45', '2024-01-02T25:00:00Z', '999.1.1.1', '-bad-.host', '(', 'a..b@x', 'zz'];

export const NUMERIC_FORMAT_EXAMPLES: Record<string, number[]> = {
  int32: [2147483647, 2147483648, -2147483649],
  int64: [9007199254740991, 2.5],
  float: [3.4e39, 1.5],
  double: [1.5],
};

const checks = new Map<string, ((s: string) => boolean) | null>();
/** ajv-formats' own check for a string format; null for a format it does not know (ajv then asserts nothing). */
export function formatCheck(name: string): ((s: string) => boolean) | null {
  if (!checks.has(name)) {
    const f = (fullFormats as Record<string, unknown>)[name];
    let check: ((s: string) => boolean) | null = null;
    if (f instanceof RegExp) check = (s) => f.test(s);
    else if (typeof f === 'function') check = f as (s: string) => boolean;
    else if (f && typeof f === 'object' && 'validate' in f) {
      const v = (f as { validate: unknown; type?: string }).validate;
      if ((f as { type?: string }).type === 'number') check = null;
      else if (v instanceof RegExp) check = (s) => v.test(s);
      else if (typeof v === 'function') check = v as (s: string) => boolean;
    }
    checks.set(name, check);
  }
  return checks.get(name)!;
}

export const ALL_FORMAT_STRINGS = [...new Set([...Object.values(FORMAT_EXAMPLES).flat(), ...FORMAT_MISSES])];

export const BASIC_STRINGS = ['a', 'abc', '', 'ABC', 'a1', '123', 'x y', 'user_id', 'x-a', 'zz_long_string_value'];
export const BASIC_NUMBERS = [0, 1, -1, 2, 3, 0.5, 2.5, 5, 7, 10, 100, 1e6, -1e6];
/**
 * The edges of the safe-integer range: bounds there are no bounds to the gate by design. Nothing
 * of 1e21 or more: ajv's `multipleOf` reads such numbers through parseInt and refuses them.
 */
export const UNSAFE_NUMBERS = [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 1, -(Number.MAX_SAFE_INTEGER + 1)];

const safeRegExp = (pattern: string): RegExp | null => {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return null;
  }
};
const regexCache = new Map<string, RegExp | null>();
export const patternTest = (pattern: string, s: string): boolean => {
  if (!regexCache.has(pattern)) regexCache.set(pattern, safeRegExp(pattern));
  const re = regexCache.get(pattern);
  return re ? re.test(s) : true;
};

const exampleCache = new Map<string, string[]>();
/** Strings that match the pattern (checked), then near misses: each example broken at an end. */
export function patternStrings(pattern: string): { matching: string[]; missing: string[] } {
  if (!exampleCache.has(pattern)) {
    const made = regexExamples(pattern).filter((s) => patternTest(pattern, s));
    exampleCache.set(pattern, made);
  }
  const matching = exampleCache.get(pattern)!;
  const missing = [...matching.slice(0, 3).flatMap((s) => [`${s}!`, `!${s}`, s.toUpperCase(), s.slice(1)]), ' ', '~']
    .filter((s) => !patternTest(pattern, s))
    .slice(0, 6);
  return { matching, missing };
}

/** Lengths in code points, as JSON Schema counts them. */
export const codePoints = (s: string) => [...s].length;

/** A string of exactly `n` code points made from `base` (repeated or cut). */
export function ofLength(base: string, n: number): string {
  if (n <= 0) return '';
  const chars = [...(base || 'a')];
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) out.push(chars[Math.min(i, chars.length - 1)] ?? 'a');
  return out.slice(0, n).join('');
}
