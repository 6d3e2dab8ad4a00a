import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit/index.js';
import { auditResult } from '../../src/audit/result-checks.js';
import { thinnedUnderPromise } from '../../src/audit/thinned.js';
import { resultDrift } from '../../src/audit/result-drift.js';
import { InputError } from '../../src/base/problems.js';
import { loadConfig } from '../../src/config/load.js';
import { DEFAULTS } from '../../src/config/types.js';
import { CODES, findingMeta } from '../../src/findings/codes.js';
import { finding } from '../../src/findings/finding.js';
import { onTool, toolOf } from '../../src/findings/subject.js';
import type { Finding } from '../../src/findings/types.js';
import { standings } from '../../src/report/audit-highlights.js';
import type { Report } from '../../src/report/types.js';
import { contractOf, obj, tool } from '../helpers/contracts.js';
import { ROOT } from '../helpers/cli.js';

/** Findings are made like changes: one function, and every fact of a code in its one entry (docs/architecture.md). */
describe('a finding is made from its code entry', () => {
  it('takes its severity and message from the entry and the facts, and its tool from the subject', () => {
    const f = finding('input-schema-invalid', { tool: 'T', problems: null }, { side: 'candidate', subject: onTool('T', 'inputSchema') });
    expect([f.code, f.severity, f.tool, f.subject]).toEqual([
      'input-schema-invalid',
      'breaking',
      'T',
      { kind: 'tool', tool: 'T', at: ['inputSchema'] },
    ]);
    expect(f.message).toBe('"T" has no inputSchema.');
    expect(finding('server-unannotated', { tools: 3 }, { side: 'baseline' })).toMatchObject({ tool: null, subject: { kind: 'server' } });
  });

  it("is told after the case and the tool when it is about a probe's result; a resource read names its URI as the tool", () => {
    const read = auditResult(
      { caseId: 'RS-1', tool: 'memory://big', kind: 'resource', args: {}, result: {}, resultBytes: 9000, modelBytes: 9000 },
      undefined,
      'candidate',
      1024,
    );
    expect(read.map((f) => [f.code, f.severity, f.tool, f.subject])).toEqual([
      ['result-too-large', 'breaking', 'memory://big', { kind: 'resource', uri: 'memory://big' }],
    ]);
    expect(read[0]!.message).toBe('RS-1 memory://big: the resource the model reads is 9000 bytes, over the budget of 1024.');
  });

  it('every code the checks emit has a severity, a message and a noun; every judged code an action', () => {
    for (const [code, meta] of Object.entries(CODES)) {
      if ('noun' in meta) {
        expect([code, typeof meta.message, meta.noun.length]).toEqual([code, 'function', 2]);
        expect(['breaking', 'dangerous', 'safe', 'function']).toContain(typeof meta.severity === 'function' ? 'function' : meta.severity);
      }
      expect([code, 'action' in meta || 'caseFailure' in meta]).toEqual([code, true]);
    }
  });

  it('every audit finding carries a subject its tool is derived from', () => {
    const bare = { name: 'bare', inputSchema: { type: 'object' } };
    const described = tool('x', obj({ q: { type: 'string' } }), { description: 'short' });
    const { findings } = audit(
      { side: 'baseline', contract: contractOf(bare), observations: [] },
      { side: 'candidate', contract: contractOf(bare, described), observations: [] },
      DEFAULTS.audit,
    );
    expect(findings.length).toBeGreaterThan(5);
    for (const f of findings) expect([f.code, f.tool]).toEqual([f.code, toolOf(f.subject)]);
    expect(findings.filter((f) => f.code === 'description-weak').map((f) => f.subject)).toEqual([
      { kind: 'tool', tool: 'x', at: ['description'] },
    ]);
  });

  it('the tool definitions’ cost is informational: never a regression, whatever the baseline had', () => {
    const { findings } = audit(
      { side: 'baseline', contract: null, observations: [] },
      { side: 'candidate', contract: contractOf(tool('a')), observations: [] },
      DEFAULTS.audit,
    );
    const cost = findings.filter((f) => f.code === 'tool-definition-cost');
    expect(cost.map((f) => [f.side, f.regression])).toEqual([['candidate', false]]);
    expect(findingMeta('tool-definition-cost')?.informational).toBe(true);
  });
});

describe('messages made consistent', () => {
  it('a thinned result names the probe that shows it, as every finding on a probe does', () => {
    const promising = tool('get_note', obj({}), { description: 'Get a note with its full details.' });
    const observe = (structuredContent: unknown) => ({
      caseId: 'LS-note',
      tool: 'get_note',
      args: {},
      result: { structuredContent },
      resultBytes: 0,
    });
    const drift = [...resultDrift([observe({ body: 'b', title: 't' })], [observe({ title: 't' })])];
    const side = { contract: contractOf(promising), observations: [] };
    const [thinned] = thinnedUnderPromise(side, side, drift);
    expect([thinned!.code, thinned!.severity, thinned!.caseId]).toEqual(['result-thinned-description-unchanged', 'dangerous', 'LS-note']);
    expect(thinned!.message).toMatch(/^LS-note get_note: results lost 1 field \(\/structuredContent\/body\)/);
  });

  // The write-ups: the code change and the description change land together. A description rewritten
  // in the same release that still promises the whole record fails the same way; one that sends the
  // model to the tool that has it is the fix.
  it('a thinned result under a rewritten description is said when it still promises the whole record, not when it names where the rest is', () => {
    const observe = (structuredContent: unknown) => ({
      caseId: 'T-1',
      tool: 'list_tickets',
      args: {},
      result: { structuredContent },
      resultBytes: 0,
    });
    const drift = [...resultDrift([observe({ items: [{ id: 1, body: 'b' }] })], [observe({ items: [{ id: 1 }] })])];
    const sides = (before: string, after: string) =>
      thinnedUnderPromise(
        { contract: contractOf(tool('list_tickets', obj({}), { description: before }), tool('get_ticket', obj({}))), observations: [] },
        { contract: contractOf(tool('list_tickets', obj({}), { description: after }), tool('get_ticket', obj({}))), observations: [] },
        drift,
      ).map((f) => [f.code, f.tool]);
    const old = 'List tickets. Returns full ticket details.';
    expect(sides(old, 'List tickets by status, newest first. Returns full ticket details.')).toEqual([
      ['result-thinned-description-unchanged', 'list_tickets'],
    ]);
    expect(sides(old, 'List tickets by status. Thin records: call get_ticket for the full ticket details.')).toEqual([]);
    expect(sides(old, "List tickets by status. Returns each ticket's id and subject.")).toEqual([]);
  });

  // The write-ups' list tool went from the REST envelope in its text to thin records in
  // structuredContent in one release: the drift says the data moved, and the records still lost fields.
  it('records thinned while the data moved from the JSON text to structuredContent are read through the envelope', () => {
    const promising = contractOf(tool('list_tickets', obj({}), { description: 'List tickets. Returns full ticket details.' }));
    const envelope = { data: { data: [{ id: 1, subject: 's', body: 'b' }], meta: { page: 1 } }, resultCount: 1 };
    const was = {
      caseId: 'T-1',
      tool: 'list_tickets',
      args: {},
      result: { content: [{ type: 'text', text: JSON.stringify(envelope) }] },
      resultBytes: 0,
    };
    const thin = (items: unknown[]) => ({
      ...was,
      result: { content: [{ type: 'text', text: 'Found 1.' }], structuredContent: { tickets: items, page: 1 } },
    });
    const thinned = (items: unknown[]) => {
      const now = thin(items);
      const drift = [...resultDrift([was], [now])];
      expect(drift.map((f) => f.code)).toEqual(['result-content-moved']);
      return thinnedUnderPromise({ contract: promising, observations: [was] }, { contract: promising, observations: [now] }, drift).map(
        (f) => [f.code, f.message.replace(/^.*?results lost /, '').slice(0, 26)],
      );
    };
    expect(thinned([{ id: 1, subject: 's' }])).toEqual([['result-thinned-description-unchanged', '1 field (*/body) but the d']]);
    expect(thinned([{ id: 1, subject: 's', body: 'b' }])).toEqual([]);
  });

  it('Fixed and Still there count each code with its noun, one in the singular', () => {
    const report = JSON.parse(readFileSync(join(ROOT, 'docs/examples/support-ops-rollback.report.json'), 'utf8')) as Report;
    const on = (
      code: 'description-missing' | 'annotations-missing' | 'tool-name-invalid',
      side: Finding['side'],
      direction: Finding['direction'],
      t: string,
    ): Finding => ({
      ...finding(code, { tool: t }, { side, subject: onTool(t) }),
      direction,
    });
    report.audit.findings = [
      on('description-missing', 'baseline', 'fixed', 'a'),
      on('annotations-missing', 'baseline', 'fixed', 'a'),
      on('annotations-missing', 'baseline', 'fixed', 'b'),
      on('description-missing', 'candidate', 'still', 'c'),
      on('tool-name-invalid', 'candidate', 'still', 'd'),
      on('tool-name-invalid', 'candidate', 'still', 'e'),
    ];
    expect(standings(report).map((s) => s.sentence)).toEqual([
      'Fixed in this release: 2 tools without annotations, 1 tool without a description. 3 findings on 2 tools (a, b).',
      'Still there: 2 tool names outside the allowed characters, 1 tool without a description. 3 findings on 3 tools (c, d, e).',
    ]);
  });
});

describe('case failure codes are codes', () => {
  it('are in the one table, and a rule or an exception that names one is refused, pointing at case-broken', () => {
    expect(['required-tool-missing', 'probe-failed', 'expectation-failed'].map((c) => [c, CODES[c as keyof typeof CODES]?.area])).toEqual([
      ['required-tool-missing', 'cases'],
      ['probe-failed', 'cases'],
      ['expectation-failed', 'cases'],
    ]);
    const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-failure-rule-'));
    try {
      const promotion = [
        'promotion:',
        '  rules: { probe-failed: hold, case-broken: hold }',
        '  exceptions: [{ code: required-tool-missing, reason: r, expires: 2099-01-01 }]',
      ].join('\n');
      writeFileSync(
        join(dir, 'gate.config.yaml'),
        `version: 1\nprofiles:\n  a: { command: node }\nbaseline: a\ncandidate: a\n${promotion}\n`,
      );
      const problems = (() => {
        try {
          loadConfig('gate.config.yaml', {}, {}, dir);
          return [];
        } catch (error) {
          if (!(error instanceof InputError)) throw error;
          return error.problems.map((p) => `${p.path}: ${p.message}`);
        }
      })();
      expect(problems).toEqual([
        'promotion.rules.probe-failed: "probe-failed" is why a case fails, not a finding of its own: a case is judged as case-broken (or case-already-failing), so write the rule or exception for that code',
        'promotion.exceptions[0].code: "required-tool-missing" is why a case fails, not a finding of its own: a case is judged as case-broken (or case-already-failing), so write the rule or exception for that code',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
