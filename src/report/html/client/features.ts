/// <reference lib="dom" />
import type { FeatureRow, ReportView } from '../view.js';
import { el, section } from './dom.js';

const KIND_LABEL: Record<FeatureRow['kind'], string> = {
  capability: 'capability',
  prompt: 'prompt',
  template: 'resource template',
  resource: 'resource',
};

/** What the server offers beside its tools, side by side: capabilities, prompts, templates, resources. */
export function renderFeatures(view: ReportView): HTMLElement | null {
  if (!view.features) return null;
  const changed = view.features.filter((r) => r.status !== 'unchanged').length;
  const cell = (text: string | null, side: string) => el('td', { 'data-side': side, class: text === null ? 'absent' : null }, text ?? '—');
  return section(
    'features',
    `Beside the tools (${view.features.length}, ${changed} differ)`,
    el(
      'table',
      { class: 'features' },
      el(
        'thead',
        null,
        el('tr', null, el('th', null, 'kind'), el('th', null, 'baseline'), el('th', null, 'candidate'), el('th', null, 'status')),
      ),
      el(
        'tbody',
        null,
        view.features.map((row) =>
          el(
            'tr',
            { 'data-status': row.status },
            el('td', null, KIND_LABEL[row.kind]),
            cell(row.baseline, 'baseline'),
            cell(row.candidate, 'candidate'),
            el('td', { class: `status-${row.status}` }, row.status),
          ),
        ),
      ),
    ),
  );
}
