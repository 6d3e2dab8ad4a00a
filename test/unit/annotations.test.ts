import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { annotations, MAX_ANNOTATIONS, type Locator } from '../../src/action/annotations.js';
import type { Report } from '../../src/report/types.js';
import { ROOT } from '../helpers/cli.js';

/** The committed example report (docs/examples), with `broken` more failed cases. */
function reportWithBrokenCases(broken: number): Report {
  const report = JSON.parse(readFileSync(join(ROOT, 'docs/examples/support-ops-rollback.report.json'), 'utf8')) as Report;
  const failed = report.candidate.caseResults.find((c) => c.status === 'failed')!;
  for (let i = 0; i < broken; i++) report.candidate.caseResults.push({ ...failed, id: `EXTRA-${i}` });
  return report;
}

describe('workflow annotations', () => {
  it('places only the annotations it shows: finding a line can mean reading a dataset', () => {
    const asked: string[] = [];
    const locate: Locator = {
      caseLine: (dataset, id) => {
        asked.push(id);
        return { file: dataset, line: 10 + asked.length };
      },
      toolLine: () => null,
    };
    const report = reportWithBrokenCases(500);
    const lines = annotations(report, locate);
    expect(lines).toHaveLength(MAX_ANNOTATIONS + 1);
    expect(lines.at(-1)).toMatch(/^::notice title=mcp-gate::\d+ more annotations left out/);
    // Errors lead: the breaking diff changes, then broken cases, up to the cap. Every case shown was
    // placed, and no case past the cap was looked up.
    const breaking = report.diff.changes.filter((c) => c.severity === 'breaking').length;
    const placed = lines.filter((l) => /^::error file=datasets\/support-ops\.cases\.yaml,line=\d+,title=mcp-gate case /.test(l));
    expect(placed).toHaveLength(MAX_ANNOTATIONS - breaking);
    expect(asked).toHaveLength(MAX_ANNOTATIONS - breaking);
  });
});
