/// <reference lib="dom" />
import type { Change } from '../../../findings/types.js';
import { el, severityBadge } from './dom.js';
import { escapeSegment } from '../../../base/json-pointer.js';

/** One printed line of a JSON value, with the JSON pointer of what it shows. */
export interface JsonLine {
  pointer: string;
  depth: number;
  text: string;
  /** The compact JSON of a leaf value, to compare with the other side; null for brackets. */
  leaf: string | null;
}

/** Pretty-prints a value line by line. Arrays of scalars stay on one line: they compare as one value. */
export function jsonLines(value: unknown, pointer: string, depth: number, key: string | null, last: boolean, out: JsonLine[]): JsonLine[] {
  const prefix = key === null ? '' : `${JSON.stringify(key)}: `;
  const comma = last ? '' : ',';
  const segment = (name: string | number) => `${pointer}/${escapeSegment(name)}`;
  const isScalarArray = Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object');
  if (value !== null && typeof value === 'object' && !isScalarArray) {
    const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
    const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
    if (!entries.length) {
      out.push({ pointer, depth, text: `${prefix}${open}${close}${comma}`, leaf: `${open}${close}` });
      return out;
    }
    out.push({ pointer, depth, text: `${prefix}${open}`, leaf: null });
    entries.forEach(([name, child], i) =>
      jsonLines(child, segment(name), depth + 1, Array.isArray(value) ? null : String(name), i === entries.length - 1, out),
    );
    out.push({ pointer, depth, text: `${close}${comma}`, leaf: null });
    return out;
  }
  const compact = Array.isArray(value)
    ? `[${value.map((v) => JSON.stringify(v)).join(', ')}]`
    : JSON.stringify(value === undefined ? null : value);
  out.push({ pointer, depth, text: `${prefix}${compact}${comma}`, leaf: compact });
  return out;
}

/** The changes whose path covers a pointer: the path itself or anything under it. */
function changesAt(pointer: string, changes: Change[]): Change[] {
  return changes.filter((c) => c.path !== '' && (pointer === c.path || pointer.startsWith(`${c.path}/`)));
}

/**
 * One schema (`/inputSchema` or `/outputSchema`) of both sides, side by side. Lines under a path
 * the gate flagged carry that change's severity; other lines present on one side only, or with
 * another value, are marked as plain differences.
 */
export function schemaDiff(title: string, base: string, before: unknown, after: unknown, changes: Change[]): HTMLElement {
  const linesOf = (value: unknown) => (value === null || value === undefined ? [] : jsonLines(value, base, 0, null, true, []));
  const left = linesOf(before);
  const right = linesOf(after);
  const leaves = (lines: JsonLine[]) => new Map(lines.map((l) => [l.pointer, l.leaf]));
  const column = (lines: JsonLine[], other: Map<string, string | null>, side: 'baseline' | 'candidate', empty: boolean) => {
    if (empty)
      return el('div', { class: 'json json-empty' }, side === 'baseline' ? '(no schema on the baseline)' : '(no schema on the candidate)');
    return el(
      'div',
      { class: 'json' },
      lines.map((line) => {
        const flagged = changesAt(line.pointer, changes);
        const worst = flagged.find((c) => c.severity === 'breaking') ?? flagged.find((c) => c.severity === 'dangerous') ?? flagged[0];
        const mark = !other.has(line.pointer)
          ? side === 'baseline'
            ? 'del'
            : 'ins'
          : line.leaf !== null && other.get(line.pointer) !== line.leaf
            ? 'mod'
            : '';
        const classes = ['line', mark, worst ? `flag flag-${worst.severity}` : ''].filter(Boolean).join(' ');
        return el(
          'div',
          { class: classes, 'data-pointer': line.pointer, title: worst ? `${worst.severity}: ${worst.code}` : null },
          '  '.repeat(line.depth),
          line.text,
        );
      }),
    );
  };
  const flaggedHere = changes.filter((c) => c.path === base || c.path.startsWith(`${base}/`));
  return el(
    'div',
    { class: 'schema-diff' },
    el(
      'h4',
      null,
      title,
      flaggedHere.length ? ' ' : null,
      flaggedHere.length
        ? severityBadge(
            flaggedHere.find((c) => c.severity === 'breaking')?.severity ??
              flaggedHere.find((c) => c.severity === 'dangerous')?.severity ??
              'safe',
          )
        : null,
    ),
    before === null && after === null
      ? el('p', { class: 'muted' }, 'Neither side declares one.')
      : el(
          'div',
          { class: 'columns' },
          el('div', null, el('div', { class: 'side-label' }, 'baseline'), column(left, leaves(right), 'baseline', !left.length)),
          el('div', null, el('div', { class: 'side-label' }, 'candidate'), column(right, leaves(left), 'candidate', !right.length)),
        ),
  );
}
