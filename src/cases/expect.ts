import { safeRegex } from '../base/safe-regex.js';
import type { CaseFailure, RequiredTool } from './types.js';
import { isObject, setMember } from '../base/json-object.js';
import { escapeSegment, pointerMatcher, pointerOf } from '../base/json-pointer.js';

export interface ObservedResult {
  isError: boolean;
  text: string;
  structured: unknown;
  resultBytes: number;
}

/** One place where the result does not contain what the case expects; `undefined` where a side has nothing. */
export interface Mismatch {
  /** JSON pointer (RFC 6901) into the result: `/items/0/id`; the empty pointer is the whole result. */
  path: string;
  expected: unknown;
  actual: unknown;
}

/**
 * Where `actual` fails to contain `expected`, each place named by its JSON pointer. An object
 * contains another when it has each of its keys, with a value that contains the expected one: keys
 * only in `actual` are fine. In arrays every item counts: the same length, item by item. Any other
 * value must be equal. The walk follows `expected` (the dataset's) and never goes deeper into
 * `actual` (the server's) than `expected` does.
 */
export function subsetMismatches(expected: unknown, actual: unknown, at: readonly (string | number)[] = []): Mismatch[] {
  const missing = (key: string | number, item: unknown): Mismatch => ({ path: pointerOf([...at, key]), expected: item, actual: undefined });
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const found = expected.flatMap((item, i) => (i < actual.length ? subsetMismatches(item, actual[i], [...at, i]) : [missing(i, item)]));
    const extra = actual
      .slice(expected.length)
      .map((item, i) => ({ path: pointerOf([...at, expected.length + i]), expected: undefined, actual: item }));
    return [...found, ...extra];
  }
  if (isObject(expected) && isObject(actual)) {
    return Object.entries(expected).flatMap(([key, item]) =>
      Object.hasOwn(actual, key) ? subsetMismatches(item, actual[key], [...at, key]) : [missing(key, item)],
    );
  }
  const bothPlain = !Array.isArray(expected) && !isObject(expected);
  return bothPlain && expected === actual ? [] : [{ path: pointerOf(at), expected, actual }];
}

/** A copy of `value` without what `volatile` matches (JSON pointers, `*` for any key or index). */
export function withoutVolatile(value: unknown, volatile: (pointer: string) => boolean, pointer = ''): unknown {
  if (Array.isArray(value)) return value.map((item, i) => withoutVolatile(item, volatile, `${pointer}/${i}`));
  if (!isObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const child = `${pointer}/${escapeSegment(key)}`;
    if (!volatile(child)) setMember(copy, key, withoutVolatile(item, volatile, child));
  }
  return copy;
}

/** How a probe-failed message for an answer flagged isError starts; cases/regression.ts reads it back. */

const clip = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max)}…` : text);
/** A value of a mismatch as the message quotes it: JSON, bounded; `nothing` where a side has none. */
const quoted = (value: unknown) => (value === undefined ? 'nothing' : clip(JSON.stringify(value)));

/** Every expectation of one required tool against one observed result; an empty list means it held. */
export function checkExpectations(spec: RequiredTool, observed: ObservedResult): CaseFailure[] {
  const tool = spec.toolName;
  const fail = (check: string, message: string): CaseFailure => ({ code: 'expectation-failed', tool, message, check });
  const expect = spec.expect ?? {};
  const failures: CaseFailure[] = [];
  const wantError = expect.isError ?? false;
  if (observed.isError !== wantError) {
    failures.push(
      wantError
        ? fail('isError', `expected isError true, but the call succeeded`)
        : { code: 'probe-failed', tool, message: `probe returned isError: ${clip(observed.text) || '(no text)'}`, check: 'isError' },
    );
  }
  const needles = [...(spec.expectedOutputContains !== undefined ? [spec.expectedOutputContains] : []), ...(expect.contains ?? [])];
  for (const needle of needles) {
    if (!observed.text.includes(needle))
      failures.push(
        fail(`contains:${needle}`, `expected output to contain ${JSON.stringify(needle)}; got ${JSON.stringify(clip(observed.text))}`),
      );
  }
  const matcher = expect.matches === undefined ? null : safeRegex(expect.matches);
  // The dataset loader refused a pattern RE2 cannot run, so `matcher` is a SafeRegex here.
  if (expect.matches !== undefined && matcher !== null && typeof matcher !== 'string' && !matcher.test(observed.text)) {
    failures.push(fail('matches', `expected output to match /${expect.matches}/; got ${JSON.stringify(clip(observed.text))}`));
  }
  if (expect.structured !== undefined) {
    // `volatile` holds here too: a pid or a timestamp frozen by hand is not a failure of the case.
    const volatile = pointerMatcher(spec.volatile ?? []);
    const [wanted, got] = spec.volatile?.length
      ? [withoutVolatile(expect.structured, volatile), withoutVolatile(observed.structured, volatile)]
      : [expect.structured, observed.structured];
    const mismatches = subsetMismatches(wanted, got);
    if (mismatches.length) {
      const shown = mismatches.slice(0, 3).map((m) => `${clip(m.path || '/')}: expected ${quoted(m.expected)}, got ${quoted(m.actual)}`);
      failures.push(
        fail(
          'structured',
          `structuredContent differs: ${shown.join('; ')}${mismatches.length > 3 ? ` (+${mismatches.length - 3} more)` : ''}`,
        ),
      );
    }
  }
  if (expect.resultBudgetBytes !== undefined && observed.resultBytes > expect.resultBudgetBytes) {
    failures.push(
      fail('resultBudgetBytes', `result is ${observed.resultBytes} bytes, over expect.resultBudgetBytes ${expect.resultBudgetBytes}`),
    );
  }
  return failures;
}
