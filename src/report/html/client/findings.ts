/// <reference lib="dom" />
import type { Finding } from '../../../findings/types.js';
import type { ReportView } from '../view.js';
import { breakable, cappedBody, el, section, severityBadge } from './dom.js';

function findingRow(f: Finding): HTMLElement {
  const kind = f.side === 'baseline' ? 'baseline' : f.regression ? 'regression' : 'shared';
  const label = kind === 'regression' ? 'new on candidate' : kind === 'shared' ? 'shared' : 'baseline';
  return el(
    'tr',
    { class: `finding finding-${kind}`, 'data-severity': f.severity, 'data-code': f.code },
    el('td', null, el('span', { class: `kind kind-${kind}` }, label)),
    el('td', null, severityBadge(f.severity)),
    el('td', null, el('code', null, f.code)),
    el('td', { class: 'tool-name' }, breakable(f.tool ?? '')),
    el('td', null, f.message),
  );
}

function findingTable(findings: Finding[]): HTMLElement {
  return el(
    'table',
    { class: 'findings' },
    el(
      'thead',
      null,
      el(
        'tr',
        null,
        el('th', null, ''),
        el('th', null, 'severity'),
        el('th', null, 'code'),
        el('th', null, 'tool'),
        el('th', null, 'message'),
      ),
    ),
    cappedBody(findings, findingRow, 100, 5),
  );
}

/**
 * Audit findings, candidate regressions first: they are what the candidate made worse. The rest
 * (shared with the baseline, or on the baseline alone) is folded and built when opened.
 */
export function renderFindings(view: ReportView): HTMLElement {
  if (!view.findings.length) return section('audit', 'Audit findings', el('p', { class: 'muted' }, 'No audit findings.'));
  const regressions = view.findings.filter((f) => f.regression);
  const others = view.findings.filter((f) => !f.regression);
  const folded = el(
    'details',
    { class: 'other-findings' },
    el('summary', null, `${others.length} shared with the baseline or on the baseline alone (reported, not judged)`),
  );
  folded.addEventListener('toggle', () => {
    if ((folded as HTMLDetailsElement).open && folded.childElementCount === 1) folded.append(findingTable(others));
  });
  return section(
    'audit',
    'Audit findings',
    regressions.length ? findingTable(regressions) : el('p', { class: 'muted' }, 'No regressions: the candidate added no audit finding.'),
    others.length ? folded : null,
  );
}
