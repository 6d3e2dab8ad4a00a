import { readFileSync } from 'node:fs';
import { reportProblems } from '../../src/report/read.js';
import type { Report } from '../../src/report/types.js';

export function readReportFile(path: string): Report {
  const report = JSON.parse(readFileSync(path, 'utf8')) as Report;
  const problems = reportProblems(report);
  if (problems.length) throw new Error(`report ${path} does not validate:\n${problems.join('\n')}`);
  return report;
}

export { withoutVolatile as stable } from '../../src/report/volatile.js';
