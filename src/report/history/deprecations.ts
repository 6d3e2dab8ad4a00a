import { deprecatedArguments, deprecatedPromptArguments, promptDeprecation, toolDeprecation } from '../../contract/deprecation.js';
import type { Subject } from '../../findings/subject.js';
import type { Report, SideReport } from '../types.js';

/** Whether one side of a saved report shows `subject` (a tool, a tool's argument, a prompt or its argument) marked. */
function markedIn(side: SideReport, subject: Subject): boolean {
  if (subject.kind === 'tool') {
    const saved = (side.tools ?? []).find((t) => t.name === subject.tool);
    if (!saved) return false;
    const tool = { ...saved, extra: saved.extra ?? {} };
    if (subject.at.length === 0) return toolDeprecation(tool) !== null;
    const [root, properties, argument] = subject.at;
    return root === 'inputSchema' && properties === 'properties' && argument !== undefined && deprecatedArguments(tool).includes(argument);
  }
  if (subject.kind === 'prompt') {
    const prompt = (side.features?.prompts ?? []).find((p) => p.name === subject.prompt);
    if (!prompt) return false;
    return subject.argument === undefined
      ? promptDeprecation(prompt) !== null
      : deprecatedPromptArguments({ ...prompt, arguments: prompt.arguments ?? [] }).includes(subject.argument);
  }
  return false;
}

/**
 * When the saved reports first show each of `removed` (by key: decide/deprecation-window.ts) marked
 * deprecated, on either side of a run of the same server (`server` of a bundle, or none): the
 * earliest run's start, as an ISO time. What no saved report shows marked is absent. Pure; the
 * order of `reports` does not matter.
 */
export function deprecatedSince(reports: Report[], removed: ReadonlyMap<string, Subject>, server: string | undefined): Map<string, string> {
  const since = new Map<string, string>();
  for (const report of reports) {
    if ((report.server ?? undefined) !== server) continue;
    for (const side of [report.baseline, report.candidate]) {
      for (const [key, subject] of removed) {
        if (!markedIn(side, subject)) continue;
        const earlier = since.get(key);
        if (earlier === undefined || report.startedAt < earlier) since.set(key, report.startedAt);
      }
    }
  }
  return since;
}
