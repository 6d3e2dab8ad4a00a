/** One thing wrong with an input file, precise enough to fix without reading the code. */
export interface Problem {
  file: string;
  line: number | null;
  /** Dotted path of the field, e.g. `profiles.candidate.args`; empty for the whole file. */
  path: string;
  message: string;
}

export const formatProblem = (p: Problem): string => `${p.file}${p.line ? `:${p.line}` : ''}: ${p.path ? `${p.path}: ` : ''}${p.message}`;

/** Bad input that stops the gate before it decides anything (exit 3). Carries every problem at once. */
export class InputError extends Error {
  constructor(readonly problems: Problem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'InputError';
  }
}

/** Dotted form of a path; segments that are not plain identifiers are bracketed. */
export const dotted = (segments: (string | number)[]): string =>
  segments
    .map((s, i) => (typeof s === 'number' ? `[${s}]` : /^[A-Za-z_$][\w$-]*$/.test(s) ? `${i ? '.' : ''}${s}` : `[${JSON.stringify(s)}]`))
    .join('');
