import { toolDeprecation } from '../../contract/deprecation.js';
import type { Report } from '../types.js';

/**
 * When the saved reports first show each of `tools` marked deprecated, on either side of a run of
 * the same server (`server` of a bundle, or none): the earliest run's start, as an ISO time. Tools
 * no saved report shows marked are absent. Pure; the order of `reports` does not matter.
 */
export function deprecatedSince(reports: Report[], tools: readonly string[], server: string | undefined): Map<string, string> {
  const wanted = new Set(tools);
  const since = new Map<string, string>();
  for (const report of reports) {
    if ((report.server ?? undefined) !== server) continue;
    for (const side of [report.baseline, report.candidate]) {
      for (const tool of side.tools ?? []) {
        if (!wanted.has(tool.name) || !toolDeprecation({ ...tool, extra: tool.extra ?? {} })) continue;
        const earlier = since.get(tool.name);
        if (earlier === undefined || report.startedAt < earlier) since.set(tool.name, report.startedAt);
      }
    }
  }
  return since;
}
