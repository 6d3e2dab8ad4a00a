import { RE2JS } from 're2js';

/**
 * Regular expressions that come from outside (a server's schema `pattern` and `patternProperties`,
 * a dataset's `expect.matches`) run on RE2 (re2js, a pure-JavaScript port): matching takes time
 * linear in the input, so no pattern and text can pin the gate's CPU (`^(\w+\s?)+$` against
 * `aaa…a!` takes seconds per character with a backtracking engine). RE2 has no lookaround and no
 * backreferences; such a pattern is reported as one the gate cannot run.
 */
export interface SafeRegex {
  test(text: string): boolean;
}

const FLAGS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, s: RE2JS.DOTALL, m: RE2JS.MULTILINE };
const compiled = new Map<string, SafeRegex | string>();

/**
 * A pattern with no unbounded repetition (`*`, `+`, `{n,}`) and no repeated group cannot backtrack
 * more than linearly: `severity P[0-9]`. Such a one runs on the native engine, which costs nothing to
 * start (RE2's first compile takes some milliseconds); any other runs on RE2.
 */
function boundedByShape(pattern: string): boolean {
  const bare = pattern.replace(/\\./g, 'x').replace(/\[[^\]]*\]/g, 'x');
  return !/[*+]|\{\d*,\d*\}|\)\{/.test(bare) && !/\\[1-9k]/.test(pattern);
}

/** The compiled pattern, or why RE2 cannot run it. Cached: schemas repeat their patterns. */
export function safeRegex(pattern: string, flags = ''): SafeRegex | string {
  const key = `${flags}/${pattern}`;
  let found = compiled.get(key);
  if (found === undefined && boundedByShape(pattern)) {
    try {
      found = new RegExp(pattern, flags.replace(/[^imsu]/g, ''));
    } catch {
      // not valid for the native engine: RE2 says why below
    }
  }
  if (found === undefined) {
    try {
      const re = RE2JS.compile(
        pattern,
        [...flags].reduce((n, f) => n | (FLAGS[f] ?? 0), 0),
      );
      found = { test: (text: string) => re.matcher(text).find() };
    } catch (error) {
      found = (error as Error).message.replace(/^error parsing regexp: /, '');
    }
    if (compiled.size > 10_000) compiled.clear();
    compiled.set(key, found);
  }
  return found;
}

/**
 * For ajv's `code.regExp`: patterns in a server's output schema, checked against what its tools
 * return. One RE2 cannot run accepts everything: the gate does not check what it cannot run safely.
 */
export const ajvRegExp = Object.assign(
  (pattern: string, flags: string): SafeRegex & { toString(): string } => {
    // Compiled on first use: ajv asks for every pattern when it compiles a schema, most are never tested.
    let re: SafeRegex | null = null;
    return {
      test: (text: string) => {
        if (!re) {
          const compiled = safeRegex(pattern, flags);
          re = typeof compiled === 'string' ? { test: () => true } : compiled;
        }
        return re.test(text);
      },
      // ajv shares compiled patterns by their string: without this every one reads "[object Object]",
      // and each schema's patterns would all run as the first one compiled.
      toString: () => `/${pattern}/${flags}`,
    };
  },
  { code: 'mcp-gate safe-regex (RE2)' },
);

/** A text (a tool's or an argument's name, from a server) matched as itself inside a pattern we write. */
export const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
