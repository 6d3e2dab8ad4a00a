/// <reference lib="dom" />
import { protocolLabel } from '../../protocol-label.js';
import type { ReportView, SideView } from '../view.js';
import { passRateText } from '../../case-tally.js';
import { naturalCompare } from '../../natural-order.js';
import { el, section } from './dom.js';

/** The verdict, what the release fixed, broke and left, its reasons and any approvals: what a reader needs first. */
export function renderVerdict(view: ReportView): HTMLElement {
  const { decision } = view;
  const b = view.sides.baseline;
  const c = view.sides.candidate;
  return el(
    'header',
    { class: `verdict verdict-${decision.verdict}` },
    el('p', { class: 'kicker' }, 'mcp-gate contract promotion'),
    el(
      'h1',
      null,
      el('span', { id: 'verdict', 'data-verdict': decision.verdict }, decision.verdict),
      el('span', { class: 'route' }, ` ${b.profile} → ${c.profile}`),
    ),
    // Fix first: what the release fixed, broke and left, before the reasons.
    view.standings.length
      ? el(
          'ul',
          { id: 'standings' },
          view.standings.map((s) => el('li', { class: `standing standing-${s.kind}`, 'data-standing': s.kind }, s.sentence)),
        )
      : null,
    decision.reasons.length
      ? el(
          'ul',
          { id: 'reasons' },
          decision.reasons.map((r) =>
            el(
              'li',
              { 'data-code': r.code },
              el('span', { class: `action action-${r.action}` }, r.action),
              ' ',
              el('code', null, r.code),
              ` ${r.message}`,
              toolsNotNamed(r.message, r.tools ?? []),
            ),
          ),
        )
      : el('p', { id: 'reasons' }, 'No finding asks for Hold or Rollback.'),
    view.restsOn ? el('p', { id: 'rests-on', class: 'rests-on' }, view.restsOn) : null,
    decision.exceptionsApplied.length
      ? el(
          'ul',
          { class: 'approvals' },
          decision.exceptionsApplied.map((e) =>
            el('li', null, `approved: ${e.code}${e.tool ? ` on ${e.tool}` : ''} until ${e.expires} (${e.reason})`),
          ),
        )
      : null,
  );
}

/** The most tool names a reason shows; the rest are a count. */
const MAX_NAMED = 12;

/**
 * A reason's tools, when its message does not already name them (most messages name the first few
 * and count the rest): each tool once, at most MAX_NAMED, in natural order, then how many more.
 */
function toolsNotNamed(message: string, tools: string[]): HTMLElement | null {
  if (!tools.length || tools.some((t) => message.includes(t))) return null;
  const sorted = [...tools].sort(naturalCompare);
  const more = sorted.length - MAX_NAMED;
  return el('span', { class: 'muted reason-tools' }, ` (${sorted.slice(0, MAX_NAMED).join(', ')}${more > 0 ? `, and ${more} more` : ''})`);
}

/** Both profiles: server identity, contract hash, tool count and case totals. */
export function renderProfiles(view: ReportView): HTMLElement {
  const sides: [string, SideView][] = [
    ['baseline', view.sides.baseline],
    ['candidate', view.sides.candidate],
  ];
  const rows: [string, (s: SideView) => string | HTMLElement][] = [
    ['profile', (s) => `${s.profile} (${s.transport})`],
    ['server', (s) => (s.server.name ? `${s.server.name} ${s.server.version ?? ''}`.trim() : s.available ? 'unknown' : 'unavailable')],
    ['protocol', (s) => protocolLabel(s.server) || '—'],
    ['contract hash', (s) => el('code', { class: 'hash', 'data-hash': s.contractHash ?? '' }, s.contractHash ?? '—')],
    ['tools', (s) => String(s.toolCount)],
    ['cases passed', (s) => `${passRateText(s.cases)}, ${s.cases.failed} failed`],
  ];
  const errors = sides
    .filter(([, s]) => s.error)
    .map(([label, s]) =>
      el(
        'div',
        { class: 'side-error' },
        el('p', null, el('strong', null, `${label} unavailable (${s.error!.phase}): `), s.error!.message),
        s.fallback
          ? el(
              'p',
              { class: 'fallback' },
              el('strong', null, `Baseline fallback used (${s.fallback.kind}): `),
              s.fallback.kind === 'empty'
                ? 'the candidate was compared with an empty server, not with the release in production.'
                : `the candidate was compared with its contract in the saved report ${s.fallback.report ?? '?'}, not with the release in production.`,
            )
          : null,
        s.stderr?.tail ? el('details', null, el('summary', null, 'stderr tail'), el('pre', null, s.stderr.tail)) : null,
      ),
    );
  return section(
    'profiles',
    'Profiles',
    el(
      'table',
      { class: 'profiles' },
      el('thead', null, el('tr', null, el('th', null, ''), el('th', null, 'baseline'), el('th', null, 'candidate'))),
      el(
        'tbody',
        null,
        rows.map(([label, get]) =>
          el(
            'tr',
            null,
            el('th', null, label),
            sides.map(([side, s]) => el('td', { 'data-side': side }, get(s))),
          ),
        ),
      ),
    ),
    errors,
    (view.notes ?? []).map((note) => el('p', { class: 'run-note' }, el('strong', null, 'Note: '), note)),
  );
}

/** The diff summary as counts; each number carries data-summary for scripts and tests. */
export function renderSummary(view: ReportView): HTMLElement {
  const s = view.summary;
  const tile = (key: string, label: string, value: number, tone: string) =>
    el(
      'div',
      { class: `tile${value ? ` tone-${tone}` : ''}` },
      el('span', { class: 'count', 'data-summary': key }, String(value)),
      el('span', { class: 'label' }, label),
    );
  return section(
    'summary',
    'Diff',
    el(
      'div',
      { class: 'tiles' },
      tile('addedTools', 'tools added', s.addedTools, 'safe'),
      tile('removedTools', 'tools removed', s.removedTools, 'breaking'),
      tile('renamedTools', 'of them renamed', s.renamedTools, 'breaking'),
      tile('schemaBreakages', 'schema breakages', s.schemaBreakages, 'breaking'),
      tile('readOnlyHintRegressions', 'read-only regressions', s.readOnlyHintRegressions, 'breaking'),
      tile('addedDestructiveTools', 'new destructive tools', s.addedDestructiveTools, 'dangerous'),
    ),
    el(
      'p',
      { class: 'muted' },
      'Changes: ',
      el('span', { 'data-summary': 'breaking' }, String(view.severityCounts.breaking)),
      ' breaking, ',
      el('span', { 'data-summary': 'dangerous' }, String(view.severityCounts.dangerous)),
      ' dangerous, ',
      el('span', { 'data-summary': 'safe' }, String(view.severityCounts.safe)),
      ' safe.',
      view.cost?.baseline && view.cost.candidate
        ? ` Tool definitions: about ${view.cost.baseline.totalTokens} → ${view.cost.candidate.totalTokens} tokens.`
        : null,
    ),
  );
}
