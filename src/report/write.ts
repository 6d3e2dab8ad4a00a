import { redactShapes } from '../secrets.js';
import { closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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

/** Writes the report atomically, under a name no other writer holds (see writeAtomically), a piece at a time. */
export function writeReport(dir: string, report: Report): string {
  return writeAtomically(
    dir,
    () => reportFileName(dir, report),
    (fd) => writePieces(fd, reportPieces(report)),
  );
}

/** The name of a bundle summary (a report's name always has `-to-`): readers of a reports dir skip it. */
export const isBundleSummaryName = (name: string): boolean => /^\d{8}T\d{6}Z-bundle(-\d+)?\.json$/.test(name);

/** A bundle summary: `<dir>/<UTC yyyyMMddTHHmmssZ>-bundle.json`, written the same way. */
export function writeBundleSummary(dir: string, summary: { startedAt: string }): string {
  const text = `${JSON.stringify(summary, null, 2)}\n`;
  return writeAtomically(
    dir,
    () => freeName(dir, `${stamp(summary.startedAt)}-bundle`),
    (fd) => writeFileSync(fd, text),
  );
}

/**
 * The text goes to a temp file in the same directory (exclusive create, fsync), and is published
 * under its final name by a hard link, which fails when the name exists: two runs in the same
 * second never overwrite each other, and a reader never sees half a report. Where links are not
 * supported, the final name is reserved by an exclusive create and the temp file renamed onto it.
 * The temp file is removed on every path, a full disk included.
 */
function writeAtomically(dir: string, name: () => string, write: (fd: number) => void): string {
  mkdirSync(dir, { recursive: true });
  for (;;) {
    const target = name();
    const temp = `${target}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`;
    try {
      const fd = openSync(temp, 'wx');
      try {
        write(fd); // every byte, or an error (a single write may stop short on a full disk)
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
