/// <reference lib="dom" />
import type { Finding } from '../../../findings/types.js';
import type { ReportView } from '../view.js';
import { el, section, severityBadge } from './dom.js';

export function findingRow(f: Finding): HTMLElement {
  const kind = f.side === 'baseline' ? 'baseline' : f.regression ? 'regression' : 'shared';
  const label = kind === 'regression' ? 'new on candidate' : kind === 'shared' ? 'shared' : 'baseline';
  return el('tr', { class: `finding finding-${kind}`, 'data-severity': f.severity, 'data-code': f.code },
    el('td', null, el('span', { class: `kind kind-${kind}` }, label)),
    el('td', null, severityBadge(f.severity)),
    el('td', null, el('code', null, f.code)),
    el('td', { class: 'tool-name' }, f.tool ?? ''),
    el('td', null, f.message));
}

/** Audit findings, candidate regressions first: they are what the candidate made worse. */
export function renderFindings(view: ReportView): HTMLElement {
  const regressions = view.findings.filter((f) => f.regression).length;
  if (!view.findings.length) return section('audit', 'Audit findings', el('p', { class: 'muted' }, 'No audit findings.'));
  return section('audit', 'Audit findings',
    el('p', { class: 'muted' }, `${regressions} new on the candidate; ${view.findings.length - regressions} shared with the baseline or on the baseline alone (reported, not judged).`),
    el('table', { class: 'findings' },
      el('thead', null, el('tr', null, el('th', null, ''), el('th', null, 'severity'), el('th', null, 'code'), el('th', null, 'tool'), el('th', null, 'message'))),
      el('tbody', null, view.findings.map(findingRow))));
}
