/// <reference lib="dom" />
import type { ReportView } from '../view.js';
import { renderCases } from './cases.js';
import { renderFeatures } from './features.js';
import { el, section } from './dom.js';
import { renderFilters } from './filters.js';
import { renderFindings } from './findings.js';
import { renderProfiles, renderSummary, renderVerdict } from './header.js';
import { changeTable, renderSurface } from './surface.js';

/** Reads the embedded report view and builds the page; marks <html data-rendered> when done. */
export function main(): void {
  const app = document.getElementById('app')!;
  let view: ReportView;
  try {
    view = JSON.parse(document.getElementById('report-data')!.textContent ?? '') as ReportView;
  } catch (error) {
    app.replaceChildren(el('p', { class: 'side-error' }, `This page's embedded report could not be read: ${String(error)}`));
    return;
  }
  // Unchanged tools are embedded once (see packView).
  for (const row of view.rows) if (row.status === 'unchanged') row.candidate = row.baseline;
  const surface = renderSurface(view);
  const allChanges = view.rows.flatMap((r) => r.changes).concat(view.serverChanges);
  const rank = { breaking: 0, dangerous: 1, safe: 2 };
  allChanges.sort((a, b) => rank[a.severity] - rank[b.severity]);
  app.replaceChildren(
    renderVerdict(view),
    el(
      'main',
      null,
      renderProfiles(view),
      renderSummary(view),
      renderFilters(view, surface.items),
      section(
        'changes',
        'Changes',
        allChanges.length
          ? changeTable(allChanges, true)
          : el(
              'p',
              { class: 'muted' },
              view.compared ? 'The two contracts are the same.' : 'Not compared: a side could not be read (see Profiles).',
            ),
      ),
      surface.element,
      renderFeatures(view),
      renderCases(view),
      renderFindings(view),
    ),
    el(
      'footer',
      null,
      `${view.generatedBy.name} ${view.generatedBy.version}; run ${view.startedAt} to ${view.finishedAt}`,
      view.config?.datasets.length ? `; datasets ${view.config.datasets.join(', ')}` : '',
    ),
  );
  document.title = `${view.decision.verdict}: ${view.sides.baseline.profile} → ${view.sides.candidate.profile} · mcp-gate`;
  document.documentElement.dataset.rendered = 'true';
}
