/// <reference lib="dom" />
import type { ReportView } from '../view.js';
import { el } from './dom.js';
import type { SurfaceItem } from './surface.js';

/**
 * Severity toggles and a text search over tools. A severity toggle hides every change, tool row and
 * finding of that severity through one class on <body> (cheap with 1,000 tools); "unchanged" hides
 * tools without changes, and starts pressed off: a reader comes for what changed, and 1,000
 * unchanged rows would bury it. The search matches names, titles and descriptions on either side.
 */
export function renderFilters(view: ReportView, items: SurfaceItem[]): HTMLElement {
  const counter = el('span', { id: 'tool-count', class: 'muted' });
  // Visibility is worked out from the data, not read back from layout: reading layout between
  // writes would lay out the page once per row.
  const update = (query: string) => {
    let shown = 0;
    // Unchanged tools the search would show but the "unchanged" toggle hides: the counter names them.
    let unchanged = 0;
    for (const item of items) {
      const hidden = query !== '' && !item.text.includes(query);
      if (item.element.hidden !== hidden) item.element.hidden = hidden;
      if (hidden) continue;
      if (!document.body.classList.contains(`hide-${item.severity}`)) shown++;
      else if (item.severity === 'none') unchanged++;
    }
    counter.textContent = `${shown} of ${items.length} tools shown${unchanged ? ` (${unchanged} unchanged hidden)` : ''}`;
    document.getElementById('no-tools')?.toggleAttribute('hidden', shown > 0);
  };
  const search = el('input', {
    id: 'search',
    type: 'search',
    placeholder: 'search tools',
    'aria-label': 'search tools by name or description',
  }) as HTMLInputElement;
  search.addEventListener('input', () => update(search.value.trim().toLowerCase()));
  const toggle = (key: string, label: string, shown = true) => {
    if (!shown) document.body.classList.add(`hide-${key}`);
    const button = el(
      'button',
      { type: 'button', class: `filter filter-${key}`, 'data-filter': key, 'aria-pressed': String(shown) },
      label,
    );
    button.addEventListener('click', () => {
      const hide = document.body.classList.toggle(`hide-${key}`);
      button.setAttribute('aria-pressed', String(!hide));
      update(search.value.trim().toLowerCase());
    });
    return button;
  };
  const c = view.severityCounts;
  const unchanged = view.rows.filter((r) => r.severity === null).length;
  const bar = el(
    'div',
    { id: 'filters', role: 'toolbar', 'aria-label': 'filters' },
    el('span', { class: 'muted' }, 'show:'),
    toggle('breaking', `breaking (${c.breaking})`),
    toggle('dangerous', `dangerous (${c.dangerous})`),
    toggle('safe', `safe (${c.safe})`),
    toggle('none', `unchanged tools (${unchanged})`, false),
    search,
    counter,
  );
  update('');
  // The headers below stick under the bar: tell them its height, which changes when it wraps.
  new ResizeObserver(() => document.documentElement.style.setProperty('--sticky-top', `${bar.offsetHeight}px`)).observe(bar);
  // Once the page holds the tool list: a report whose tools are all unchanged says why none is shown.
  queueMicrotask(() => update(search.value.trim().toLowerCase()));
  return bar;
}
