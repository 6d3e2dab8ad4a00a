/// <reference lib="dom" />
import type { CaseResult } from '../../../cases/types.js';
import type { ReportView } from '../view.js';
import { breakable, el, section } from './dom.js';

function bytes(n: number | null): string {
  return n === null ? '' : n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KiB`;
}

/** One side of one case: the outcome, every failure reason, and each probe with its result size. */
function caseCell(result: CaseResult | null, side: string): HTMLElement {
  if (!result) return el('td', { 'data-side': side, class: 'absent' }, '—');
  return el(
    'td',
    { 'data-side': side, 'data-status': result.status },
    el(
      'span',
      { class: `outcome outcome-${result.status}` },
      result.status === 'passed' ? 'pass' : result.status === 'failed' ? 'fail' : 'skipped',
    ),
    result.regression === false
      ? el('span', { class: 'kind kind-shared', title: 'The baseline fails this case the same way: reported, not judged' }, 'baseline too')
      : null,
    result.failures.length
      ? el(
          'ul',
          { class: 'failures' },
          result.failures.map((f) => el('li', null, el('code', null, f.code), ` ${f.message}`)),
        )
      : null,
    result.probes.length
      ? el(
          'ul',
          { class: 'probes' },
          result.probes.map((p) =>
            el(
              'li',
              null,
              el('span', { class: 'tool-name' }, breakable(p.tool)),
              ': ',
              p.status === 'called'
                ? `${bytes(p.resultBytes)}${p.isError ? ', isError' : ''}`
                : `${p.status}${p.reason ? ` (${p.reason})` : ''}`,
            ),
          ),
        )
      : null,
  );
}

export function renderCases(view: ReportView): HTMLElement {
  if (!view.cases.length) return section('cases', 'Case results', el('p', { class: 'muted' }, 'No frozen cases were replayed.'));
  return section(
    'cases',
    'Case results',
    el(
      'table',
      { class: 'cases' },
      el('thead', null, el('tr', null, el('th', null, 'case'), el('th', null, 'baseline'), el('th', null, 'candidate'))),
      el(
        'tbody',
        null,
        view.cases.map((row) =>
          el(
            'tr',
            { 'data-case': row.id },
            el('th', null, row.id, row.role ? el('div', { class: 'muted' }, row.role) : null),
            caseCell(row.baseline, 'baseline'),
            caseCell(row.candidate, 'candidate'),
          ),
        ),
      ),
    ),
  );
}
