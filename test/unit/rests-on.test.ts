import { describe, expect, it } from 'vitest';
import { renderCheckRun } from '../../src/report/check-run.js';
import { reportView } from '../../src/report/html/view.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderText } from '../../src/report/text.js';
import type { Report } from '../../src/report/types.js';
import { contractOf, tool } from '../helpers/contracts.js';
import { reportOf } from '../helpers/report-of.js';

// A Promote or a Hold of a run where no case called a tool rests on the listed contracts alone: a
// release that changes only what a tool returns passes unseen (docs/judgements.md, FJ10), and every
// format says so beside the verdict.
const SENTENCE = 'This rests on the listed contracts alone: no case called a tool';
const same = contractOf(tool('search'));
const promote = reportOf(same, same);
const formats = (report: Report) => ({
  text: renderText(report),
  markdown: renderMarkdown(report),
  checkRun: (JSON.parse(renderCheckRun(report)) as { output: { summary: string } }).output.summary,
  html: reportView(report).restsOn ?? '',
});

describe('what a verdict rests on', () => {
  it('a Promote and a Hold with no case run say, in every format, that results were not compared', () => {
    const hold: Report = { ...promote, decision: { ...promote.decision, verdict: 'Hold' } };
    for (const report of [promote, hold]) for (const text of Object.values(formats(report))) expect(text).toContain(SENTENCE);
  });

  it('is not said where a case ran on the candidate, nor of a Rollback, nor where a side could not be read', () => {
    const ran: Report = {
      ...promote,
      candidate: { ...promote.candidate, cases: { total: 1, passed: 1, failed: 0, skipped: 0, passRate: 1 } },
    };
    const rollback: Report = { ...promote, decision: { ...promote.decision, verdict: 'Rollback' } };
    const down: Report = { ...promote, candidate: { ...promote.candidate, available: false } };
    for (const report of [ran, rollback, down]) for (const text of Object.values(formats(report))) expect(text).not.toContain(SENTENCE);
  });

  it('a skipped case (a snapshot side) called nothing, so it is said', () => {
    const skipped: Report = {
      ...promote,
      candidate: { ...promote.candidate, cases: { total: 2, passed: 0, failed: 0, skipped: 2, passRate: null } },
    };
    expect(formats(skipped).markdown).toContain(SENTENCE);
  });
});
