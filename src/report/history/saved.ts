import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../base/problems.js';
import { readReport } from '../read.js';
import type { Report } from '../types.js';
import { isBundleSummaryName } from '../write.js';

/**
 * Every readable report saved in `dir`, by file name; a missing folder is an empty history, and a
 * file that is not a readable report is left out (`mcp-gate history` names those). For a run that
 * asks the history a question (how long a tool has been marked deprecated: docs/releases.md, "Deprecation").
 */
export function savedReports(dir: string): Report[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  const reports: Report[] = [];
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.json') && !isBundleSummaryName(n))
    .sort()) {
    try {
      reports.push(readReport(join(dir, name), dir));
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
    }
  }
  return reports;
}
