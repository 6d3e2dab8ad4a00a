import { jsonInert } from '../inert.js';
import { redactShapes } from '../secrets.js';
import { closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { takeToolLine } from './tool-lines.js';
import type { Report } from './types.js';

const stamp = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
const safe = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, '_');

/**
 * `<dir>/<UTC yyyyMMddTHHmmssZ>-<baseline>-to-<candidate>.json`, with a suffix if that name is taken.
 * A server of a bundle puts its name first: `<stamp>-<server>-<baseline>-to-<candidate>.json`.
 */
export function reportFileName(dir: string, report: Report): string {
  return freeName(
    dir,
    `${stamp(report.startedAt)}-${report.server ? `${safe(report.server)}-` : ''}${safe(report.baseline.profile)}-to-${safe(report.candidate.profile)}`,
  );
}

function freeName(dir: string, base: string): string {
  for (let n = 1; ; n++) {
    const candidate = join(dir, `${base}${n === 1 ? '' : `-${n}`}.json`);
    if (!existsSync(candidate)) return candidate;
  }
}

/** Writes the report atomically, under a name no other writer holds (see writeAtomically). */
export function writeReport(dir: string, report: Report): string {
  return writeAtomically(dir, () => reportFileName(dir, report), reportPieces(report));
}

/** The name of a bundle summary (a report's name always has `-to-`): readers of a reports dir skip it. */
export const isBundleSummaryName = (name: string): boolean => /^\d{8}T\d{6}Z-bundle(-\d+)?\.json$/.test(name);

/** A bundle summary: `<dir>/<UTC yyyyMMddTHHmmssZ>-bundle.json`, written the same way. */
export function writeBundleSummary(dir: string, summary: { startedAt: string }): string {
  return writeAtomically(dir, () => freeName(dir, `${stamp(summary.startedAt)}-bundle`), [`${JSON.stringify(summary, null, 2)}\n`]);
}

/**
 * The text goes to a temp file in the same directory (exclusive create, fsync), and is published
 * under its final name by a hard link, which fails when the name exists: two runs in the same
 * second never overwrite each other, and a reader never sees half a report. Where links are not
 * supported, the final name is reserved by an exclusive create and the temp file renamed onto it.
 * The temp file is removed on every path, a full disk included.
 */
function writeAtomically(dir: string, name: () => string, pieces: Iterable<string>): string {
  mkdirSync(dir, { recursive: true });
  for (;;) {
    const target = name();
    const temp = `${target}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`;
    try {
      const fd = openSync(temp, 'wx');
      try {
        // Every byte of every piece, or an error (a single write may stop short on a full disk).
        for (const piece of pieces) writeFileSync(fd, piece);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      if (publish(temp, target)) return target;
    } finally {
      rmSync(temp, { force: true });
    }
  }
}

/** Puts `temp` at `target` unless `target` exists; false when another writer took the name first. */
function publish(temp: string, target: string): boolean {
  try {
    linkSync(temp, target);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV') throw error;
  }
  try {
    closeSync(openSync(target, 'wx'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  renameSync(temp, target);
  return true;
}

/**
 * The report as JSON, indented, except that each tool definition takes one line: the definitions
 * are most of a large report, and indenting every schema doubled its size and the time to write it.
 */
export const reportText = (report: Report): string => [...reportPieces(report)].join('');

/**
 * The report's text in pieces, each made of whole lines, made inert and redacted one at a time:
 * the file is written piece by piece, so the whole text (12 MB at 5,000 tools a side) is never held
 * in memory, nor its inert, redacted and encoded copies (issue 32: peak RSS at 5,000 tools). Each
 * piece starts after a line break, and no pattern of `jsonInert` or `redactShapes` spans one, so
 * the pieces joined are exactly the whole text made inert and redacted.
 */
/** About how long a piece of tool lines is: long enough that writing it costs one call, short enough to hold. */
const PIECE_CHARS = 256 * 1024;

function* reportPieces(report: Report): Generator<string> {
  // A marker that cannot be confused with anything else in the text around the tool lists.
  let mark = 'mcp-gate:tools';
  let skeleton: string;
  for (;;) {
    skeleton = JSON.stringify(
      { ...report, baseline: { ...report.baseline, tools: `${mark}:0` }, candidate: { ...report.candidate, tools: `${mark}:1` } },
      null,
      2,
    );
    if (skeleton.split(`"${mark}:`).length === 3) break;
    mark += '!';
  }
  const safe = (text: string) => redactShapes(jsonInert(text));
  // Text after the last line break yielded, carried into the next piece.
  let pending = '';
  let from = 0;
  for (const [side, tools] of [report.baseline.tools, report.candidate.tools].entries()) {
    const at = skeleton.indexOf(`"${mark}:${side}"`);
    const before = skeleton.slice(from, at);
    from = at + mark.length + 4;
    if (!tools.length) {
      pending += `${before}[]`;
      continue;
    }
    const indent = ' '.repeat(at - skeleton.lastIndexOf('\n', at) - 1 - '"tools": '.length);
    yield safe(`${pending}${before}[\n`);
    let lines = '';
    for (const [i, tool] of tools.entries()) {
      lines += `${indent}  ${takeToolLine(tool)}${i < tools.length - 1 ? ',' : ''}\n`;
      if (lines.length >= PIECE_CHARS) {
        yield safe(lines);
        lines = '';
      }
    }
    if (lines) yield safe(lines);
    pending = `${indent}]`;
  }
  yield safe(`${pending}${skeleton.slice(from)}\n`);
}
