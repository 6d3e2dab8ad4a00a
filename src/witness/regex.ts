import { safeRegex, type SafeRegex } from '../base/safe-regex.js';

/**
 * Patterns are run on RE2 where it can (safe-regex.ts: linear time, so `^(\w+\s?)+$` is no
 * hazard). A pattern RE2 cannot run (lookaround, backreferences) would run on the backtracking
 * engine; the search refuses a schema holding one that also nests repetition or backreferences,
 * since one judged instance could then take exponential time.
 */
export function patternHazard(pattern: string): string | null {
  if (typeof safeRegex(pattern, 'u') !== 'string') return null;
  if (/\\[1-9k]/.test(pattern) || nestsRepetition(pattern)) return `a pattern could take exponential time (${pattern})`;
  return null;
}

/** A repeated group that itself repeats or alternates: `(a+)+`, `(\w|\d)*`. */
function nestsRepetition(pattern: string): boolean {
  const bare = pattern.replace(/\\./g, 'x').replace(/\[[^\]]*\]/g, 'x');
  const inner: boolean[] = [];
  for (let i = 0; i < bare.length; i++) {
    const c = bare[i]!;
    if (c === '(') inner.push(false);
    else if (c === ')') {
      const risky = inner.pop() ?? false;
      if (risky && /^[*+{]/.test(bare.slice(i + 1))) return true;
      if (risky && inner.length) inner[inner.length - 1] = true;
    } else if ((c === '*' || c === '+' || c === '{' || c === '|') && inner.length) inner[inner.length - 1] = true;
  }
  return false;
}

/**
 * The regular expression ajv runs for `pattern`: RE2 where it can, native only for patterns
 * patternHazard let through. ajv shares compiled patterns within an instance by `toString()`, so
 * each one must print as its own pattern: a bare RE2 wrapper prints "[object Object]", and every
 * pattern after the first compiled would run as the first.
 */
export const witnessRegExp = Object.assign(
  (pattern: string, flags: string): SafeRegex => {
    const re = safeRegex(pattern, flags);
    if (typeof re === 'string') return new RegExp(pattern, flags);
    const named: SafeRegex & { toString(): string } = { test: (text) => re.test(text), toString: () => `/${pattern}/${flags}` };
    return named;
  },
  { code: 'mcp-gate witness regExp' },
);

/** Whether a property name matches a `patternProperties` key (false for a pattern that cannot compile). */
export function keyMatches(pattern: string, key: string): boolean {
  try {
    return witnessRegExp(pattern, 'u').test(key);
  } catch {
    return false;
  }
}
