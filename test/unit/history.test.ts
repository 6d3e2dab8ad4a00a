import { describe, expect, it } from 'vitest';
import { historyRuns, shortHash } from '../../src/report/history/runs.js';
import { render } from '../../src/report/formats.js';
import type { Report } from '../../src/report/types.js';
import { contractOf, tool } from '../helpers/contracts.js';
import { reportOf } from '../helpers/report-of.js';

const at = (minute: number, tools: string[], unavailable = false): Report => {
  const report = reportOf(contractOf(tool('a')), contractOf(...tools.map((t) => tool(t))), {
    startedAt: `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`,
  });
  if (unavailable) report.candidate = { ...report.candidate, available: false, contractHash: null };
  return report;
};

describe('history runs', () => {
  it('orders by start time, ties by file name, and marks drift only where both hashes are known', () => {
    const runs = historyRuns([
      { file: 'e.json', report: at(4, ['a', 'b']), page: null },
      { file: 'b.json', report: at(1, ['a']), page: null },
      { file: 'a.json', report: at(1, ['a']), page: null },
      { file: 'c.json', report: at(2, ['a', 'b']), page: null },
      { file: 'd.json', report: at(3, ['a'], true), page: null },
    ]);
    expect(runs.map((r) => [r.file, r.drift])).toEqual([
      ['a.json', null],
      ['b.json', false],
      ['c.json', true],
      ['d.json', null], // the candidate was unavailable: nothing to compare
      ['e.json', null],
    ]);
    expect(runs.map((r) => r.addedTools)).toEqual([0, 0, 1, 0, 1]);
  });

  it('judges drift against the previous run of the same pair, not of another candidate or server', () => {
    const of = (minute: number, tools: string[], candidate: string, server?: string): Report => {
      const report = at(minute, tools);
      report.candidate = { ...report.candidate, profile: candidate };
      return server ? { ...report, server } : report;
    };
    const runs = historyRuns([
      { file: '1.json', report: of(1, ['a'], 'pr'), page: null },
      { file: '2.json', report: of(2, ['a', 'b'], 'pr-safe'), page: null },
      { file: '3.json', report: of(3, ['a'], 'pr'), page: null },
      { file: '4.json', report: of(4, ['a', 'b'], 'pr', 'billing'), page: null },
      { file: '5.json', report: of(5, ['a', 'c'], 'pr'), page: null },
    ]);
    expect(runs.map((r) => [r.file, r.drift])).toEqual([
      ['1.json', null],
      ['2.json', null], // the first run of baseline -> pr-safe
      ['3.json', false], // the run before is another pair's
      ['4.json', null], // another server of a bundle
      ['5.json', true],
    ]);
  });

  it('marks drift when only the prompts or resources changed, and never against a report without them', async () => {
    const { buildFeatures } = await import('../../src/contract/features.js');
    const withPrompts = (minute: number, prompts: string[] | null) => {
      const report = at(minute, ['a']);
      if (prompts) {
        const features = buildFeatures(
          { capabilities: { prompts: {} }, prompts: prompts.map((name) => ({ name })), resources: [], resourceTemplates: [] },
          [],
        );
        report.candidate = { ...report.candidate, features };
      }
      return report;
    };
    const runs = historyRuns([
      { file: 'a.json', report: withPrompts(1, null), page: null },
      { file: 'b.json', report: withPrompts(2, ['p']), page: null },
      { file: 'c.json', report: withPrompts(3, ['p']), page: null },
      { file: 'd.json', report: withPrompts(4, ['p', 'q']), page: null },
    ]);
    expect(runs.map((r) => [r.file, r.drift])).toEqual([
      ['a.json', null],
      ['b.json', false], // an older report without prompts: the tools alone are compared
      ['c.json', false],
      ['d.json', true],
    ]);
  });

  it('shortens hashes for tables and says when there are no runs', () => {
    expect(shortHash('sha256:0123456789abcdef')).toBe('0123456789ab');
    expect(shortHash(null)).toBe('-');
    expect(render('history', { dir: 'reports', runs: [], unreadable: [] }, 'text')).toBe('No readable reports in reports.\n');
  });

  it('escapes profile names and files in the HTML page', () => {
    const report = at(1, ['a']);
    report.candidate = { ...report.candidate, profile: '<img src=x onerror=alert(1)>' };
    const html = render(
      'history',
      {
        dir: 'reports',
        runs: historyRuns([{ file: '<b>.json', report, page: null }]),
        unreadable: [{ file: '"x".json', problems: ['<script>'] }],
      },
      'html',
    );
    expect(html).not.toMatch(/<img|<b>|<script/);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it("has the report page's policy, without its script: one Content-Security-Policy for every page", () => {
    const policyOf = (html: string) =>
      /http-equiv="Content-Security-Policy" content="([^"]*)"/
        .exec(html)![1]!
        .replace(/&#39;/g, "'")
        .replace(/'sha256-[^']+'/g, 'HASH')
        .split('; ');
    const history = policyOf(render('history', { dir: 'reports', runs: [], unreadable: [] }, 'html'));
    const report = policyOf(render('report', at(1, ['a']), 'html'));
    expect(history).toEqual(report.filter((directive) => !directive.startsWith('script-src')));
    expect(history).toEqual(["default-src 'none'", 'style-src HASH', "base-uri 'none'", "form-action 'none'"]);
  });
});
