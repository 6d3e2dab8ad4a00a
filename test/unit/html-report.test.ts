import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as cases from '../../src/report/html/client/cases.js';
import * as dom from '../../src/report/html/client/dom.js';
import * as filters from '../../src/report/html/client/filters.js';
import * as findings from '../../src/report/html/client/findings.js';
import * as header from '../../src/report/html/client/header.js';
import * as main from '../../src/report/html/client/main.js';
import * as schemaDiff from '../../src/report/html/client/schema-diff.js';
import * as surface from '../../src/report/html/client/surface.js';
import { clientScript } from '../../src/report/html/script.js';
import { embedJson, escapeHtml, renderHtml } from '../../src/report/html/page.js';
import { orderedFindings, reportView, toolRows } from '../../src/report/html/view.js';
import { reportProblems } from '../../src/report/read.js';
import type { Finding } from '../../src/findings/types.js';
import { contractOf, obj, tool } from '../helpers/contracts.js';
import { reportOf } from '../helpers/report-of.js';

const ro = { readOnlyHint: true, openWorldHint: false };
const q = obj({ q: { type: 'string' } }, ['q']);

describe('the report view: tool surfaces aligned by name', () => {
  const report = reportOf(
    contractOf(
      tool('keep', q, { annotations: ro }),
      tool('search', q, { annotations: ro }),
      tool('gone', obj({ a: { type: 'number' } })),
      tool('tighten', q, { annotations: ro }),
    ),
    contractOf(
      tool('keep', q, { annotations: ro }),
      tool('find', q, { annotations: ro }),
      tool('wipe'),
      tool('tighten', obj({ q: { type: 'string' }, n: { type: 'integer' } }, ['q', 'n']), { annotations: ro }),
    ),
  );

  it('is a valid report to begin with', () => {
    expect(reportProblems(report)).toEqual([]);
  });

  it('gives one row per name, sorted, with a rename joined into one row', () => {
    expect(toolRows(report).map((r) => [r.key, r.status, r.baseline?.name ?? null, r.candidate?.name ?? null, r.severity])).toEqual([
      ['gone', 'removed', 'gone', null, 'breaking'],
      ['keep', 'unchanged', 'keep', 'keep', null],
      ['search', 'renamed', 'search', 'find', 'breaking'],
      ['tighten', 'changed', 'tighten', 'tighten', 'breaking'],
      ['wipe', 'added', null, 'wipe', 'dangerous'],
    ]);
  });

  it('carries the changes of both names on a rename row, and every change exactly once', () => {
    const rows = toolRows(report);
    expect(rows.find((r) => r.key === 'search')!.changes.map((c) => c.code)).toEqual(['tool-renamed', 'tool-added']);
    const view = reportView(report);
    expect(view.summary.renamedTools).toBe(1);
    expect(rows.flatMap((r) => r.changes).length + view.serverChanges.length).toBe(report.diff.changes.length);
  });

  it('compares nothing when a side could not be read: no tool shows as removed', () => {
    const down = reportOf(contractOf(tool('a'), tool('b')), contractOf());
    down.candidate = { ...down.candidate, available: false, contractHash: null };
    expect(toolRows(down).map((r) => r.status)).toEqual(['not-compared', 'not-compared']);
    expect(reportView(down).compared).toBe(false);
  });

  it('keeps changes that name no tool apart', () => {
    const before = contractOf(tool('a'));
    const after = { ...contractOf(tool('a')), server: { ...before.server, instructions: 'Call a first.' } };
    expect(reportView(reportOf(before, after)).serverChanges.map((c) => c.code)).toEqual(['instructions-changed']);
  });
});

describe('audit findings order', () => {
  const f = (code: Finding['code'], side: Finding['side'], regression: boolean): Finding => ({
    code,
    severity: 'safe',
    side,
    subject: { kind: 'server' },
    tool: null,
    message: code,
    regression,
  });
  it('puts candidate regressions first, those that hold by default before report-only ones', () => {
    const ordered = orderedFindings([
      f('description-weak', 'baseline', false),
      f('annotations-missing', 'candidate', false),
      f('description-weak', 'candidate', true),
      f('result-too-large', 'candidate', true),
    ]);
    expect(ordered.map((x) => [x.code, x.side, x.regression])).toEqual([
      ['result-too-large', 'candidate', true],
      ['description-weak', 'candidate', true],
      ['annotations-missing', 'candidate', false],
      ['description-weak', 'baseline', false],
    ]);
  });
});

describe('the HTML page', () => {
  const hostile = '</script><script>alert(1)</script><!-- & \u2028';
  const report = reportOf(contractOf(tool('a')), contractOf(tool('a'), tool(hostile, q, { description: hostile })));

  it('embeds JSON with no "<", ">" or "&" left, and reads back to the same value', () => {
    const embedded = embedJson({ text: hostile });
    expect(embedded).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(embedded)).toEqual({ text: hostile });
  });

  it('escapes text for HTML', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });

  it('is the same bytes for the same report, and its policy allows exactly its own script and style', () => {
    const html = renderHtml(report);
    expect(renderHtml(report)).toBe(html);
    expect(html).not.toContain(hostile);
    const script = html.slice(html.lastIndexOf('<script>') + '<script>'.length, html.lastIndexOf('</script>'));
    const style = html.slice(html.indexOf('<style>') + '<style>'.length, html.indexOf('</style>'));
    const hash = (text: string) => createHash('sha256').update(text).digest('base64');
    const policy = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)![1]!.replace(/&#39;/g, "'");
    expect(policy).toContain(`script-src 'sha256-${hash(script)}'`);
    expect(policy).toContain(`style-src 'sha256-${hash(style)}'`);
    expect(policy).toMatch(/^default-src 'none';/);
  });
});

describe('the page script', () => {
  it('is one self-contained browser script bundled from the client modules, ending in main()', () => {
    const script = clientScript();
    expect(script.startsWith('"use strict";(()=>{') || script.startsWith('(()=>{')).toBe(true);
    expect(script).not.toMatch(/\bimport\s*[({"']|\brequire\(|\bexport\s/);
    // What main() draws the page with: the sections, and the side-by-side schema diff.
    for (const fn of [
      main.main,
      header.renderVerdict,
      surface.renderSurface,
      cases.renderCases,
      findings.renderFindings,
      filters.renderFilters,
      schemaDiff.schemaDiff,
      dom.el,
    ]) {
      expect(script, fn.name).toContain(`function ${fn.name}(`);
    }
    expect(script.trimEnd()).toMatch(/main\(\);?\}\)\(\);$/);
  });
});

describe('schema lines for the side-by-side diff', () => {
  it('gives each line the JSON pointer of what it shows, escaping "/" and "~" in keys', () => {
    const lines = schemaDiff.jsonLines(
      { properties: { 'a/b': { type: 'string' }, 'c~d': { enum: ['x', 'y'] } }, required: ['a/b'] },
      '/inputSchema',
      0,
      null,
      true,
      [],
    );
    expect(lines.map((l) => [l.pointer, l.text.trim()])).toEqual([
      ['/inputSchema', '{'],
      ['/inputSchema/properties', '"properties": {'],
      ['/inputSchema/properties/a~1b', '"a/b": {'],
      ['/inputSchema/properties/a~1b/type', '"type": "string"'],
      ['/inputSchema/properties/a~1b', '},'],
      ['/inputSchema/properties/c~0d', '"c~d": {'],
      ['/inputSchema/properties/c~0d/enum', '"enum": ["x", "y"]'],
      ['/inputSchema/properties/c~0d', '}'],
      ['/inputSchema/properties', '},'],
      ['/inputSchema/required', '"required": ["a/b"]'],
      ['/inputSchema', '}'],
    ]);
  });
});
