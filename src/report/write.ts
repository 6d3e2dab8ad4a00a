import { jsonInert } from '../inert.js';
import { redactShapes } from '../secrets.js';
import { writeNewFileAtomic } from '../atomic-write.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
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

/** Writes the report atomically, under a name no other writer holds (see writeNewFileAtomic). */
export function writeReport(dir: string, report: Report): string {
  return writeNewFileAtomic(() => reportFileName(dir, report), reportText(report));
}

/** The name of a bundle summary (a report's name always has `-to-`): readers of a reports dir skip it. */
export const isBundleSummaryName = (name: string): boolean => /^\d{8}T\d{6}Z-bundle(-\d+)?\.json$/.test(name);

/** A bundle summary: `<dir>/<UTC yyyyMMddTHHmmssZ>-bundle.json`, written the same way. */
export function writeBundleSummary(dir: string, summary: { startedAt: string }): string {
  return writeNewFileAtomic(() => freeName(dir, `${stamp(summary.startedAt)}-bundle`), `${JSON.stringify(summary, null, 2)}\n`);
}

/**
 * The report as JSON, indented, except that each tool definition takes one line: the definitions
 * are most of a large report, and indenting every schema doubled its size and the time to write it.
 */
export function reportText(report: Report): string {
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
  [report.baseline.tools, report.candidate.tools].forEach((tools, side) => {
    const at = skeleton.indexOf(`"${mark}:${side}"`);
    const indent = ' '.repeat(at - skeleton.lastIndexOf('\n', at) - 1 - '"tools": '.length);
    const list = tools.length ? `[\n${tools.map((t) => `${indent}  ${JSON.stringify(t)}`).join(',\n')}\n${indent}]` : '[]';
    skeleton = `${skeleton.slice(0, at)}${list}${skeleton.slice(at + mark.length + 4)}`;
  });
  return `${redactShapes(jsonInert(skeleton))}\n`;
}
