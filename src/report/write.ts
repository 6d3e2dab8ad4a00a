import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Report } from './types.js';

const stamp = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
const safe = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, '_');

/**
 * `<dir>/<UTC yyyyMMddTHHmmssZ>-<baseline>-to-<candidate>.json`, with a suffix if that name is taken.
 * A server of a bundle puts its name first: `<stamp>-<server>-<baseline>-to-<candidate>.json`.
 */
export function reportFileName(dir: string, report: Report): string {
  return freeName(dir, `${stamp(report.startedAt)}-${report.server ? `${safe(report.server)}-` : ''}${safe(report.baseline.profile)}-to-${safe(report.candidate.profile)}`);
}

function freeName(dir: string, base: string): string {
  for (let n = 1; ; n++) {
    const candidate = join(dir, `${base}${n === 1 ? '' : `-${n}`}.json`);
    if (!existsSync(candidate)) return candidate;
  }
}

/**
 * Writes the report atomically: a temp file in the same directory, fsync, then rename. A reader
 * (or a crash) never sees half a report. The exclusive create of the temp file also keeps two
 * runs in the same second from taking the same final name.
 */
export function writeReport(dir: string, report: Report): string {
  return writeAtomically(dir, () => reportFileName(dir, report), `${JSON.stringify(report, null, 2)}\n`);
}

/** The name of a bundle summary (a report's name always has `-to-`): readers of a reports dir skip it. */
export const isBundleSummaryName = (name: string): boolean => /^\d{8}T\d{6}Z-bundle(-\d+)?\.json$/.test(name);

/** A bundle summary: `<dir>/<UTC yyyyMMddTHHmmssZ>-bundle.json`, written the same way. */
export function writeBundleSummary(dir: string, summary: { startedAt: string }): string {
  return writeAtomically(dir, () => freeName(dir, `${stamp(summary.startedAt)}-bundle`), `${JSON.stringify(summary, null, 2)}\n`);
}

function writeAtomically(dir: string, name: () => string, text: string): string {
  mkdirSync(dir, { recursive: true });
  for (;;) {
    const target = name();
    const temp = `${target}.${process.pid}.tmp`;
    const fd = openSync(temp, 'wx');
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (existsSync(target)) {
      rmSync(temp, { force: true });
      continue; // another run took this name between the check and now
    }
    renameSync(temp, target);
    return target;
  }
}
