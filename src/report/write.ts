import { redactShapes } from '../base/secrets.js';
import { writeNewFileAtomic } from '../base/atomic-write.js';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { batched, jsonPieces } from './json-pieces.js';
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

/** Writes the report atomically, under a name no other writer holds (see writeNewFileAtomic), a piece at a time. */
export function writeReport(dir: string, report: Report): string {
  return writeNewFileAtomic(
    () => reportFileName(dir, report),
    (fd) => writePieces(fd, reportPieces(report)),
  );
}

/** The name of a bundle summary (a report's name always has `-to-`): readers of a reports dir skip it. */
export const isBundleSummaryName = (name: string): boolean => /^\d{8}T\d{6}Z-bundle(-\d+)?\.json$/.test(name);

/** A bundle summary: `<dir>/<UTC yyyyMMddTHHmmssZ>-bundle.json`, written the same way. */
export function writeBundleSummary(dir: string, summary: { startedAt: string }): string {
  return writeNewFileAtomic(() => freeName(dir, `${stamp(summary.startedAt)}-bundle`), `${JSON.stringify(summary, null, 2)}\n`);
}

/** Writes the pieces in order at the file's position, each batch whole (writeFileSync loops over short writes). */
function writePieces(fd: number, pieces: Iterable<string>): void {
  for (const batch of batched(pieces)) writeFileSync(fd, batch);
}

/**
 * The report as JSON, indented, except that each tool definition takes one line: the definitions
 * are most of a large report, and indenting every schema doubled its size and the time to write it.
 */
export function reportText(report: Report): string {
  return [...reportPieces(report)].join('');
}

/** The saved report's pieces: inert, and rid of token shapes a piece at a time (pieces break only between JSON tokens). */
const reportPieces = function* (report: Report): Generator<string> {
  for (const piece of jsonPieces(report, { toolsOnOneLine: true })) yield redactShapes(piece);
};
