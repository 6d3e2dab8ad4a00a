/// <reference lib="dom" />
// Browser code of the HTML report, bundled into the page's one script (client/index.ts, ../script.ts).
//
// Every string from the report reaches the page as a text node or an attribute value set with
// setAttribute: never through innerHTML, so server-provided text cannot become markup. Both go
// through inertLayout, so a bidirectional control or a zero-width character shows as its escape
// (`\u{202E}`), as in every other format, instead of reordering or hiding what is around it.
import { inertLayout } from '../../../base/inert.js';
import type { Severity } from '../../../findings/codes.js';
import type { ViewTool } from '../view.js';

export type Child = Node | string | null | undefined | false;
export type Attributes = Record<string, string | null | undefined>;

/** An element with attributes and children; strings become text nodes. */
export function el(tag: string, attributes: Attributes | null, ...children: (Child | Child[])[]): HTMLElement {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {}))
    if (value !== null && value !== undefined) node.setAttribute(name, inertLayout(value));
  for (const child of children.flat())
    if (child !== null && child !== undefined && child !== false) node.append(typeof child === 'string' ? inertLayout(child) : child);
  return node;
}

/**
 * A name or a JSON pointer that may wrap only after its separators (`.`, `/`, `_`, `-`, `:`), never
 * inside a word: text nodes with a <wbr> after each separator. With `overflow-wrap: break-word` on
 * the element (not `anywhere`), a column is at least as wide as the longest part, so names stay
 * readable in a narrow table.
 */
export function breakable(text: string): (string | HTMLElement)[] {
  const parts = text.split(/(?<=[./_:-])/);
  return parts.flatMap((part, i) => (i === parts.length - 1 ? [part] : [part, document.createElement('wbr')]));
}

export function severityBadge(severity: Severity): HTMLElement {
  return el('span', { class: `sev sev-${severity}` }, severity);
}

/** Risk badges from a tool's effective annotations; a hint left to the spec default says so on hover. */
export function riskBadges(tool: ViewTool): HTMLElement[] {
  const a = tool.effectiveAnnotations;
  const defaulted = tool.defaultedHints ?? [];
  const note = (hints: string[]) => {
    const from = hints.filter((h) => (defaulted as string[]).includes(h));
    return from.length ? `from the spec default of ${from.join(' and ')}` : 'declared by the server';
  };
  const badges: HTMLElement[] = [];
  if (!a.readOnlyHint && a.destructiveHint)
    badges.push(
      el(
        'span',
        { class: 'risk risk-destructive', 'data-badge': 'destructive', title: `destructive: ${note(['readOnlyHint', 'destructiveHint'])}` },
        'destructive',
      ),
    );
  if (a.readOnlyHint)
    badges.push(
      el('span', { class: 'risk risk-read-only', 'data-badge': 'read-only', title: `read-only: ${note(['readOnlyHint'])}` }, 'read-only'),
    );
  if (a.openWorldHint)
    badges.push(
      el(
        'span',
        { class: 'risk risk-open-world', 'data-badge': 'open-world', title: `open-world: ${note(['openWorldHint'])}` },
        'open-world',
      ),
    );
  return badges;
}

/** A value as short JSON for a table cell: at most `limit` characters. */
export function shortJson(value: unknown, limit: number): string {
  if (value === null || value === undefined) return '—';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

/**
 * A table body that shows the first `limit` rows and a button for the rest, so a report with
 * thousands of findings or changes still lays out quickly.
 */
export function cappedBody<T>(items: T[], row: (item: T) => HTMLElement, limit: number, columns: number): HTMLElement {
  const body = el('tbody', null, items.slice(0, limit).map(row));
  if (items.length > limit) {
    const button = el('button', { type: 'button', class: 'more' }, `show ${items.length - limit} more`);
    const holder = el('tr', { class: 'more-row' }, el('td', { colspan: String(columns) }, button));
    button.addEventListener('click', () => holder.replaceWith(...items.slice(limit).map(row)));
    body.append(holder);
  }
  return body;
}

export function section(id: string, title: string, ...children: (Child | Child[])[]): HTMLElement {
  return el('section', { id }, el('h2', null, title), ...children);
}
