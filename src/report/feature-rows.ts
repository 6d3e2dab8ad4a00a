import type { SideReport } from './types.js';

const SURFACE_ROWS = [
  ['prompts', 'prompts'],
  ['resources', 'resources'],
  ['templates', 'resourceTemplates'],
] as const;

/**
 * Rows for the counts beside the tools, when either side read them: a count, `unread` when a list
 * failed, `tools only` for a side without them (a snapshot written before they were read). Empty
 * when neither side has them.
 */
export function featureRows(baseline: SideReport, candidate: SideReport): [string, string, string][] {
  if (!baseline.features && !candidate.features) return [];
  const count = (side: SideReport, key: (typeof SURFACE_ROWS)[number][1]) => {
    if (!side.features) return side.available ? 'tools only' : '-';
    const list = side.features[key];
    return list === null ? 'unread' : String(list.length);
  };
  return SURFACE_ROWS.map(([label, key]) => [label, count(baseline, key), count(candidate, key)]);
}
