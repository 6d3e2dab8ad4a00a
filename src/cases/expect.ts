import { atomizeChangeset, diff } from 'json-diff-ts';
import { safeRegex } from '../base/safe-regex.js';
import type { CaseFailure, RequiredTool } from './types.js';
import { isObject } from '../base/json-object.js';
import { escapeSegment, pointerMatcher } from '../base/json-pointer.js';

export interface ObservedResult {
  isError: boolean;
  text: string;
  structured: unknown;
  resultBytes: number;
}

/**
 * Where `actual` fails to contain `expected`: json-diff-ts gives the structural delta, and our rule
 * reads it as a subset check. Keys only in `actual` are fine; in arrays, every element counts.
 */
export function subsetMismatches(expected: unknown, actual: unknown): { path: string; expected: unknown; actual: unknown }[] {
  if (!isObject(actual)) return [{ path: '$', expected, actual }];
  return atomizeChangeset(diff(expected as Record<string, unknown>, actual))
    .filter((c) => c.type !== 'ADD' || /\[\d+\]/.test(c.path))
    .map((c) => ({
      path: c.path,
      expected: c.type === 'ADD' ? undefined : c.type === 'REMOVE' ? c.value : c.oldValue,
      actual: c.type === 'REMOVE' ? undefined : c.value,
    }));
}

/** A copy of `value` without what `volatile` matches (JSON pointers, `*` for any key or index). */
export function withoutVolatile(value: unknown, volatile: (pointer: string) => boolean, pointer = ''): unknown {
  if (Array.isArray(value)) return value.map((item, i) => withoutVolatile(item, volatile, `${pointer}/${i}`));
  if (!isObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const child = `${pointer}/${escapeSegment(key)}`;
    if (!volatile(child)) copy[key] = withoutVolatile(item, volatile, child);
  }
  return copy;
}

const clip = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max)}…` : text);

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
        : { code: 'probe-failed', tool, message: `probe returned isError: ${clip(observed.text) || '(no text)'}` },
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
      const shown = mismatches
        .slice(0, 3)
        .map((m) => `${m.path}: expected ${JSON.stringify(m.expected)}, got ${JSON.stringify(m.actual) ?? 'nothing'}`);
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
