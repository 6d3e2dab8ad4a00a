import { bytesWithout, writtenSize } from './json-pieces.js';
import { toolLine } from './tool-lines.js';
import type { Report, ReportTrim } from './types.js';

/** The most bytes a report (its JSON, as written) may take: past it, its longest lists are trimmed. */
export const MAX_REPORT_BYTES = 32 * 1024 * 1024;

/** `depth`: the indent its entries are written at; `line`: each entry is written on one line at depth 3 (tools). */
type Trimmable = { at: string; list: unknown[]; set: (kept: unknown[]) => void; depth: number; line?: true };

/** The lists a server decides the length of, and which are not what the verdict rests on. */
function trimmable(report: Report): Trimmable[] {
  const out: Trimmable[] = [];
  for (const side of ['baseline', 'candidate'] as const) {
    const features = report[side].features;
    if (features) {
      for (const key of ['prompts', 'resources', 'resourceTemplates'] as const) {
        const list = features[key];
        if (list) out.push({ at: `/${side}/features/${key}`, list, set: (kept) => (features[key] = kept as never), depth: 4 });
      }
    }
    const sideReport = report[side];
    out.push({ at: `/${side}/tools`, list: sideReport.tools, set: (kept) => (sideReport.tools = kept as never), depth: 3, line: true });
  }
  return out;
}

/**
 * The report within `maxBytes`: when whole it would be larger, the lists a server's listing makes
 * long (its tools and features, as the report repeats them) are cut to the same number of bytes
 * each, keeping their first entries, and `trimmed` says what was cut. Contract hashes, the diff, the audit and
 * the decision are kept whole: the verdict does not change. Each entry is measured alone, so the
 * whole report is never written out in memory to learn its size. The tool lines and the text around
 * the lists are what the writer then takes (report/tool-lines.ts, report/json-pieces.ts).
 */
export function trimReport(report: Report, maxBytes = MAX_REPORT_BYTES): Report {
  const lists = trimmable(report);
  // A tool is written on one line (report/json-pieces.ts): measured as that line, which the writer reuses.
  const sizes = lists.map((l) =>
    l.list.map((entry) => (l.line ? Buffer.byteLength(toolLine(entry as object)) + l.depth * 2 + 2 : writtenSize(entry, l.depth))),
  );
  const listBytes = sizes.reduce((sum, s) => sum + s.reduce((a, b) => a + b, 0), 0);
  const rest = bytesWithout(report, new Set(lists.map((l) => l.list))) + 2;
  if (rest + listBytes <= maxBytes) return report;
  // One cap for every list, the largest that fits: short lists stay whole, long ones are cut alike.
  const totals = sizes.map((s) => s.reduce((a, b) => a + b, 0));
  const budget = Math.max(0, maxBytes - rest - 64 * 1024);
  const fits = (cap: number) => totals.reduce((sum, t) => sum + Math.min(t, cap), 0) <= budget;
  let [low, high] = [0, Math.max(0, ...totals)];
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid;
  }
  const cut: ReportTrim['lists'] = [];
  for (const [i, l] of lists.entries()) {
    let room = Math.min(totals[i]!, low);
    let kept = 0;
    while (kept < l.list.length && sizes[i]![kept]! <= room) room -= sizes[i]![kept++]!;
    if (kept < l.list.length) {
      cut.push({ at: l.at, kept, of: l.list.length });
      l.set(l.list.slice(0, kept));
    }
  }
  const trimmed: ReportTrim = {
    maxBytes,
    note: `The report would have taken about ${rest + listBytes} bytes, past its bound of ${maxBytes}: the lists below keep their first entries only. The contract hashes, the diff, the audit and the decision are whole.`,
    lists: cut,
  };
  return { ...report, trimmed };
}
