import type { CaseFailure, RequiredTool } from './types.js';

export interface ObservedResult {
  isError: boolean;
  text: string;
  structured: unknown;
  resultBytes: number;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Paths where `actual` does not contain `expected` (objects by subset, everything else by equality). */
export function subsetMismatches(expected: unknown, actual: unknown, path = ''): { path: string; expected: unknown; actual: unknown }[] {
  if (isObject(expected)) {
    if (!isObject(actual)) return [{ path: path || '/', expected, actual }];
    return Object.entries(expected).flatMap(([key, value]) => subsetMismatches(value, actual[key], `${path}/${key}`));
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return [{ path: path || '/', expected, actual }];
    return expected.flatMap((value, i) => subsetMismatches(value, actual[i], `${path}/${i}`));
  }
  return Object.is(expected, actual) ? [] : [{ path: path || '/', expected, actual }];
}

const clip = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** Every expectation of one required tool against one observed result; an empty list means it held. */
export function checkExpectations(spec: RequiredTool, observed: ObservedResult): CaseFailure[] {
  const tool = spec.toolName;
  const fail = (message: string): CaseFailure => ({ code: 'expectation-failed', tool, message });
  const expect = spec.expect ?? {};
  const failures: CaseFailure[] = [];
  const wantError = expect.isError ?? false;
  if (observed.isError !== wantError) {
    failures.push(wantError
      ? fail(`expected isError true, but the call succeeded`)
      : { code: 'probe-failed', tool, message: `probe returned isError: ${clip(observed.text) || '(no text)'}` });
  }
  const needles = [...(spec.expectedOutputContains !== undefined ? [spec.expectedOutputContains] : []), ...(expect.contains ?? [])];
  for (const needle of needles) {
    if (!observed.text.includes(needle)) failures.push(fail(`expected output to contain ${JSON.stringify(needle)}; got ${JSON.stringify(clip(observed.text))}`));
  }
  if (expect.matches !== undefined && !new RegExp(expect.matches).test(observed.text)) {
    failures.push(fail(`expected output to match /${expect.matches}/; got ${JSON.stringify(clip(observed.text))}`));
  }
  if (expect.structured !== undefined) {
    const mismatches = subsetMismatches(expect.structured, observed.structured);
    if (mismatches.length) {
      const shown = mismatches.slice(0, 3).map((m) => `${m.path}: expected ${JSON.stringify(m.expected)}, got ${JSON.stringify(m.actual) ?? 'nothing'}`);
      failures.push(fail(`structuredContent differs: ${shown.join('; ')}${mismatches.length > 3 ? ` (+${mismatches.length - 3} more)` : ''}`));
    }
  }
  if (expect.maxResultBytes !== undefined && observed.resultBytes > expect.maxResultBytes) {
    failures.push(fail(`result is ${observed.resultBytes} bytes, over expect.maxResultBytes ${expect.maxResultBytes}`));
  }
  return failures;
}
