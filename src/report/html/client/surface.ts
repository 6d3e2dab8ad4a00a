/// <reference lib="dom" />
import type { Change } from '../../../findings/types.js';
import type { ReportView, ToolRow, ViewTool } from '../view.js';
import { breakable, cappedBody, el, riskBadges, section, severityBadge, shortJson } from './dom.js';
import { schemaDiff } from './schema-diff.js';

/** What the search box and the filters work on: one entry per tool row. */
export interface SurfaceItem {
  element: HTMLElement;
  /** Lower-cased names, titles and descriptions of both sides. */
  text: string;
  /** The row's worst severity, or 'none': what the severity toggles act on. */
  severity: string;
}

/**
 * One change. The list of all changes names the tool; a tool's own list shows the values before
 * and after instead.
 */
function changeRow(change: Change, all: boolean): HTMLElement {
  return el(
    'tr',
    { class: 'change', 'data-severity': change.severity, 'data-code': change.code },
    el('td', null, severityBadge(change.severity)),
    el('td', null, el('code', null, change.code)),
    all ? el('td', { class: 'tool-name' }, breakable(change.tool ?? '(server)')) : null,
    el('td', null, el('code', { class: 'path' }, breakable(change.path || '/'))),
    el('td', { class: 'message' }, change.message),
    all
      ? null
      : el(
          'td',
          { class: 'before-after' },
          el('span', { class: 'before' }, shortJson(change.before, 160)),
          ' → ',
          el('span', { class: 'after' }, shortJson(change.after, 160)),
        ),
  );
}

export function changeTable(changes: Change[], all: boolean): HTMLElement {
  return el(
    'table',
    { class: `changes${all ? ' all' : ''}` },
    el(
      'thead',
      null,
      el(
        'tr',
        null,
        el('th', null, 'severity'),
        el('th', null, 'code'),
        all ? el('th', null, 'tool') : null,
        el('th', null, 'path'),
        el('th', null, 'message'),
        all ? null : el('th', null, 'before → after'),
      ),
    ),
    cappedBody(changes, (c) => changeRow(c, all), 200, 5),
  );
}

function toolCell(tool: ViewTool | null, side: 'baseline' | 'candidate'): HTMLElement {
  if (!tool) return el('div', { class: `cell cell-${side} absent` }, '—');
  return el(
    'div',
    { class: `cell cell-${side}`, 'data-tool': tool.name },
    el('span', { class: 'tool-name' }, breakable(tool.name)),
    ' ',
    riskBadges(tool),
  );
}

function statusLabel(status: ToolRow['status']): string {
  return {
    added: '+ added',
    removed: '− removed',
    renamed: '→ renamed',
    changed: '~ changed',
    unchanged: '',
    'not-compared': '? not compared',
  }[status];
}

/** The details of one tool, built when the row is first opened: 1,000 closed rows stay cheap. */
function toolDetails(row: ToolRow): HTMLElement {
  const b = row.baseline;
  const c = row.candidate;
  const text = (label: string, get: (t: ViewTool) => string | null) => {
    const before = b ? get(b) : null;
    const after = c ? get(c) : null;
    if (before === after) return before ? el('p', { class: 'tool-text' }, el('strong', null, `${label}: `), before) : null;
    return el(
      'div',
      { class: 'columns tool-text' },
      el('p', null, el('strong', null, `${label} (baseline): `), before ?? '—'),
      el('p', null, el('strong', null, `${label} (candidate): `), after ?? '—'),
    );
  };
  return el(
    'div',
    { class: 'tool-details' },
    text('title', (t) => t.title ?? null),
    text('description', (t) => t.description ?? null),
    row.changes.length
      ? changeTable(row.changes, false)
      : el(
          'p',
          { class: 'muted' },
          row.status === 'unchanged'
            ? 'No change.'
            : row.status === 'not-compared'
              ? 'Not compared: the other side could not be read.'
              : 'The definition changed in fields the gate does not judge.',
        ),
    hintTable(b, c),
    schemaDiff('Input schema', '/inputSchema', b?.inputSchema ?? null, c?.inputSchema ?? null, row.changes),
    schemaDiff('Output schema', '/outputSchema', b?.outputSchema ?? null, c?.outputSchema ?? null, row.changes),
  );
}

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/** Each side's effective hints, a defaulted one marked, a hint that differs highlighted. */
function hintTable(b: ViewTool | null, c: ViewTool | null): HTMLElement {
  const hint = (t: ViewTool | null, h: (typeof HINTS)[number]) =>
    t ? `${String(t.effectiveAnnotations[h])}${(t.defaultedHints ?? []).includes(h) ? ' (default)' : ''}` : '—';
  return el(
    'table',
    { class: 'hints' },
    el(
      'thead',
      null,
      el(
        'tr',
        null,
        el('th', null, 'effective hints'),
        HINTS.map((h) => el('th', null, h)),
      ),
    ),
    el(
      'tbody',
      null,
      (['baseline', 'candidate'] as const).map((side) =>
        el(
          'tr',
          null,
          el('th', null, side),
          HINTS.map((h) => el('td', { class: hint(b, h) === hint(c, h) ? null : 'differs' }, hint(side === 'baseline' ? b : c, h))),
        ),
      ),
    ),
  );
}

/** Baseline and candidate tool surfaces side by side, one expandable row per tool. */
export function renderSurface(view: ReportView): { element: HTMLElement; items: SurfaceItem[] } {
  const items: SurfaceItem[] = view.rows.map((row) => {
    const summary = el(
      'summary',
      { class: 'tool-summary' },
      el('span', { class: `status status-${row.status}` }, statusLabel(row.status)),
      toolCell(row.baseline, 'baseline'),
      toolCell(row.candidate, 'candidate'),
      el(
        'span',
        { class: 'tool-changes' },
        row.severity ? severityBadge(row.severity) : null,
        row.changes.length ? ` ${row.changes.length} change${row.changes.length === 1 ? '' : 's'}` : '',
      ),
    );
    const details = el(
      'details',
      { class: 'tool', id: `tool-${row.key}`, 'data-key': row.key, 'data-status': row.status, 'data-severity': row.severity ?? 'none' },
      summary,
    );
    details.addEventListener('toggle', () => {
      if ((details as HTMLDetailsElement).open && details.childElementCount === 1) details.append(toolDetails(row));
    });
    const words = [row.baseline, row.candidate].flatMap((t) => (t ? [t.name, t.title ?? '', t.description ?? ''] : []));
    return { element: details, text: words.join('\n').toLowerCase(), severity: row.severity ?? 'none' };
  });
  const b = view.sides.baseline;
  const c = view.sides.candidate;
  const element = section(
    'tools',
    'Tool surfaces',
    el(
      'div',
      { class: 'tool-head' },
      el('span', null, ''),
      el('span', null, `baseline: ${b.profile} (${b.toolCount})`),
      el('span', null, `candidate: ${c.profile} (${c.toolCount})`),
      el('span', null, 'changes'),
    ),
    el(
      'div',
      { class: 'tool-list' },
      items.map((i) => i.element),
    ),
    el(
      'p',
      { id: 'no-tools', class: 'muted', hidden: '' },
      'No tool matches the search and filters. Unchanged tools are hidden until "unchanged tools" is pressed.',
    ),
  );
  return { element, items };
}
