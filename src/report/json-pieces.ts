import { jsonInert } from '../base/inert.js';
import { takeToolLine } from './tool-lines.js';
import type { Report } from './types.js';

/** A list put out an entry at a time: a server's listing or the diff decides how long it is. */
interface Hole {
  entries: unknown[];
  /** The tool definitions of a side: one line each in a saved report. */
  tools: boolean;
}

/**
 * The report's JSON text (`JSON.stringify(report, null, 2)`) with each long list left out: `parts`
 * are the text around the lists, and list `holes[k]` goes between `parts[k]` and `parts[k + 1]`.
 */
interface Skeleton {
  parts: string[];
  holes: Hole[];
}

/**
 * The report with each long list replaced by `"<mark>:<n>"`, and those lists. Overwriting a key
 * keeps its place, so the skeleton's keys are in the report's order.
 */
function withHoles(report: Report, mark: string): { skeleton: unknown; lists: Hole[] } {
  const lists: Hole[] = [];
  const hole = <T>(entries: T, tools = false): T | string => {
    if (!Array.isArray(entries)) return entries;
    lists.push({ entries, tools });
    return `${mark}:${lists.length - 1}`;
  };
  const side = (s: Report['baseline']) => ({
    ...s,
    tools: hole(s.tools, true),
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

function makeSkeleton(report: Report): Skeleton {
  // A marker that cannot be confused with anything else in the text around the lists.
  for (let mark = 'mcp-gate:list'; ; mark += '!') {
    const { skeleton, lists } = withHoles(report, mark);
    const split = JSON.stringify(skeleton, null, 2).split(`"${mark}:`);
    if (split.length !== lists.length + 1) continue;
    const parts = [split[0]!];
    const holes: Hole[] = [];
    for (const part of split.slice(1)) {
      const close = part.indexOf('"');
      holes.push(lists[Number(part.slice(0, close))]!);
      parts.push(part.slice(close + 1));
    }
    return { parts, holes };
  }
}

/**
 * The skeleton is made once per report: trimReport measures it, and the writer then takes it (and
 * forgets it, as it does the tool lines). Keyed by the report object, which nothing changes between
 * the two (src/commands/run.ts sets the report stage's time only after the report is written).
 */
const skeletons = new WeakMap<Report, Skeleton>();

function skeletonOf(report: Report): Skeleton {
  let skeleton = skeletons.get(report);
  if (!skeleton) {
    skeleton = makeSkeleton(report);
    skeletons.set(report, skeleton);
  }
  return skeleton;
}

function takeSkeleton(report: Report): Skeleton {
  const skeleton = skeletons.get(report) ?? makeSkeleton(report);
  skeletons.delete(report);
  return skeleton;
}

/** The indent of the line a list starts on. */
const indentOf = (before: string): string => {
  const lastLine = before.slice(before.lastIndexOf('\n') + 1);
  return ' '.repeat(lastLine.length - lastLine.trimStart().length);
};

/**
 * A report's JSON text (two-space indent, a final newline) in inert pieces: the long lists an entry
 * at a time, so a report of tens of megabytes is never one string (docs/security.md, "The report is
 * at most 32 MiB"). Pieces break only between JSON tokens, so a filter applied piece by piece (an
 * escape, a token shape) sees each string whole. With `toolsOnOneLine`, each tool definition takes
 * one line (the saved report); without it, the text is `JSON.stringify(report, null, 2)`'s (the
 * json format).
 */
export function* jsonPieces(report: Report, options: { toolsOnOneLine: boolean }): Generator<string> {
  const { parts, holes } = takeSkeleton(report);
  yield jsonInert(parts[0]!);
  for (const [k, hole] of holes.entries()) {
    yield* listPieces(hole, options.toolsOnOneLine && hole.tools, indentOf(parts[k]!));
    yield jsonInert(parts[k + 1]!);
  }
  yield '\n';
}

/** One list as JSON.stringify(list, null, 2) would write it at `indent`, an entry per piece. */
function* listPieces(list: Hole, oneLine: boolean, indent: string): Generator<string> {
  if (list.entries.length === 0) {
    yield '[]';
    return;
  }
  const inner = `${indent}  `;
  for (const [i, entry] of list.entries.entries()) {
    // A tool's line was made once already, when trimReport measured it (report/tool-lines.ts).
    const text = oneLine ? takeToolLine(entry as object) : indented(entry).replaceAll('\n', `\n${inner}`);
    yield jsonInert(`${i === 0 ? '[\n' : ',\n'}${inner}${text}`);
  }
  yield `\n${indent}]`;
}

const indented = (entry: unknown): string => JSON.stringify(entry, null, 2) ?? 'null';

/**
 * The bytes of `JSON.stringify(report, null, 2)` with the lists in `emptied` written as `[]`: what the
 * report takes besides those lists, for trimReport. Made from the skeleton that the writer then
 * takes. The entries of a list left in (the diff's changes) are serialised here and again by the
 * writer: keeping their texts between the two would hold every entry of a list a server made long
 * in memory at once (the hostile lists of test/reliability/memory.test.ts went past 300 MB).
 */
export function bytesWithout(report: Report, emptied: ReadonlySet<unknown[]>): number {
  const { parts, holes } = skeletonOf(report);
  let bytes = 0;
  for (const [k, part] of parts.entries()) {
    bytes += Buffer.byteLength(part);
    const hole = holes[k];
    if (hole) bytes += emptied.has(hole.entries) || !hole.entries.length ? 2 : indentedListBytes(hole.entries, indentOf(part));
  }
  return bytes;
}

/** The bytes listPieces writes for a list of indented entries at `indent`. */
function indentedListBytes(entries: unknown[], indent: string): number {
  const depth = indent.length / 2 + 1;
  return entries.reduce<number>((bytes, entry) => bytes + writtenSize(entry, depth), 0) + indent.length + 2;
}

/**
 * Bytes of an entry written by listPieces with two-space indent at `depth`: `[\n` or `,\n`, its own
 * text, and the indent of each of its lines.
 */
export function writtenSize(entry: unknown, depth: number): number {
  const text = indented(entry);
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return Buffer.byteLength(text) + lines * (depth * 2) + 2;
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
