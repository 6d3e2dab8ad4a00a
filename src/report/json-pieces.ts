import { jsonInert } from '../base/inert.js';
import { takeToolLine } from './tool-lines.js';
import type { Report } from './types.js';

/** A list put out an entry at a time: a server's listing or the diff decides how long it is. */
interface LongList {
  entries: unknown[];
  /** Each entry on one line (tool definitions in a saved report), or indented like the rest. */
  oneLine: boolean;
}

/**
 * The report with each long list replaced by `"<mark>:<n>"`, and those lists. Overwriting a key
 * keeps its place, so the skeleton's keys are in the report's order.
 */
function withHoles(report: Report, mark: string, toolsOnOneLine: boolean): { skeleton: unknown; lists: LongList[] } {
  const lists: LongList[] = [];
  const hole = <T>(entries: T, oneLine = false): T | string => {
    if (!Array.isArray(entries)) return entries;
    lists.push({ entries, oneLine });
    return `${mark}:${lists.length - 1}`;
  };
  const side = (s: Report['baseline']) => ({
    ...s,
    tools: hole(s.tools, toolsOnOneLine),
    ...(s.features && {
      features: {
        ...s.features,
        prompts: hole(s.features.prompts),
        resources: hole(s.features.resources),
        resourceTemplates: hole(s.features.resourceTemplates),
      },
    }),
  });
  const skeleton = {
    ...report,
    baseline: side(report.baseline),
    candidate: side(report.candidate),
    ...(report.diff && { diff: { ...report.diff, changes: hole(report.diff.changes) } }),
  };
  return { skeleton, lists };
}

/**
 * A report's JSON text (two-space indent, a final newline) in inert pieces: the long lists an
 * entry at a time, so a report of tens of megabytes is never one string (issue 28 §8). Pieces
 * break only between JSON tokens, so a filter applied piece by piece (an escape, a token shape)
 * sees each string whole. With `toolsOnOneLine`, each tool definition takes one line (the saved
 * report); without it, the text is `JSON.stringify(report, null, 2)`'s (the json format).
 */
export function* jsonPieces(report: Report, options: { toolsOnOneLine: boolean }): Generator<string> {
  // A marker that cannot be confused with anything else in the text around the lists.
  for (let mark = 'mcp-gate:list'; ; mark += '!') {
    const { skeleton, lists } = withHoles(report, mark, options.toolsOnOneLine);
    const parts = JSON.stringify(skeleton, null, 2).split(`"${mark}:`);
    if (parts.length !== lists.length + 1) continue;
    let before = parts[0]!;
    yield jsonInert(before);
    for (const part of parts.slice(1)) {
      const close = part.indexOf('"');
      const lastLine = before.slice(before.lastIndexOf('\n') + 1);
      yield* listPieces(lists[Number(part.slice(0, close))]!, ' '.repeat(lastLine.length - lastLine.trimStart().length));
      before = part.slice(close + 1);
      yield jsonInert(before);
    }
    yield '\n';
    return;
  }
}

/** One list as JSON.stringify(list, null, 2) would write it at `indent`, an entry per piece. */
function* listPieces(list: LongList, indent: string): Generator<string> {
  if (list.entries.length === 0) {
    yield '[]';
    return;
  }
  const inner = `${indent}  `;
  for (const [i, entry] of list.entries.entries()) {
    // A tool's line was made once already, when trimReport measured it (report/tool-lines.ts).
    const text = (list.oneLine ? takeToolLine(entry as object) : JSON.stringify(entry, null, 2)?.replaceAll('\n', `\n${inner}`)) ?? 'null';
    yield jsonInert(`${i === 0 ? '[\n' : ',\n'}${inner}${text}`);
  }
  yield `\n${indent}]`;
}

/** Pieces joined into batches of about this many characters: few writes, and never the whole text at once. */
const BATCH = 1024 * 1024;

/** The pieces joined into batches of about BATCH characters, in order. */
export function* batched(pieces: Iterable<string>): Generator<string> {
  let batch: string[] = [];
  let size = 0;
  for (const piece of pieces) {
    batch.push(piece);
    size += piece.length;
    if (size >= BATCH) {
      yield batch.join('');
      [batch, size] = [[], 0];
    }
  }
  if (batch.length) yield batch.join('');
}
