import { describe, expect, it } from 'vitest';
import { audit } from '../../src/audit/index.js';
import { auditResult } from '../../src/audit/result-checks.js';
import { DEFAULTS } from '../../src/config/types.js';
import { contractOf, obj, tool } from '../helpers/contracts.js';

const codes = (findings: { code: string }[]) => findings.map((f) => f.code).sort();
const side = (tools: Record<string, unknown>[]) => ({ side: 'baseline' as const, contract: contractOf(...tools), observations: [] });

describe('contract checks', () => {
  it('flags missing hints, descriptions, bad names and invalid input schemas', () => {
    const findings = audit(
      side([
        { name: 'bad name!', inputSchema: { type: 'object' } },
        {
          name: 'Short',
          description: 'Does it.',
          inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
          annotations: { readOnlyHint: true },
        },
        {
          name: 'Broken',
          description: 'A tool whose schema is not an object.',
          inputSchema: { type: 'string', minLength: 'x' },
          annotations: { readOnlyHint: true, openWorldHint: false },
        },
      ]),
      { side: 'candidate', contract: null, observations: [] },
      DEFAULTS.audit,
    ).findings;
    expect(codes(findings)).toEqual([
      'annotations-missing',
      'description-missing',
      'description-weak',
      'input-schema-invalid',
      'instructions-missing',
      'open-world-hint-missing',
      'parameter-description-missing',
      'tool-definition-cost',
      'tool-name-invalid',
    ]);
    expect(findings.find((f) => f.code === 'input-schema-invalid')!.message).toMatch(/root type is "string".*minLength/);
  });

  it('finds confusable tools and duplicates', () => {
    const described = { description: 'Fetch a user record by its identifier.', annotations: { readOnlyHint: true, openWorldHint: false } };
    const contract = contractOf(
      tool('get_user', obj({}), described),
      tool('getUser', obj({}), { ...described, description: 'Another getter for user records, by id.' }),
      tool('get_user', obj({}), described),
    );
    const findings = audit(
      { side: 'baseline', contract, observations: [] },
      { side: 'candidate', contract: null, observations: [] },
      DEFAULTS.audit,
    ).findings;
    expect(codes(findings).filter((c) => c !== 'tool-definition-cost')).toEqual(['confusable-tools', 'tool-name-duplicate']);
  });

  it('definition cost counts what the model reads: output schemas, annotations and _meta are reported apart, never a regression', () => {
    const input = obj({ q: { type: 'string', description: 'What to search for.' } }, ['q']);
    const plain = Array.from({ length: 20 }, (_, i) => tool(`search_${i}`, input));
    const output = {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 40 }, (_, i) => [
          `field_${i}`,
          { type: 'string', description: 'A field of the record, described at length for consumers.' },
        ]),
      ),
    };
    const withOutput = plain.map((t) => ({ ...t, outputSchema: output, annotations: { readOnlyHint: true }, _meta: { 'vendor/x': true } }));
    const result = audit(
      { side: 'baseline', contract: contractOf(...plain), observations: [] },
      { side: 'candidate', contract: contractOf(...withOutput), observations: [] },
      DEFAULTS.audit,
    );
    expect(codes(result.findings)).not.toContain('tool-definition-cost-regression');
    expect(result.cost.candidate!.totalTokens).toBe(result.cost.baseline!.totalTokens);
    expect(result.cost.candidate!.contractOnlyTokens).toBeGreaterThan(result.cost.candidate!.totalTokens);
    // The same growth in the input schemas, which the model does read, is held.
    const bigger = plain.map((t) => ({ ...t, inputSchema: { ...input, properties: { ...input.properties, ...output.properties } } }));
    const grown = audit(
      { side: 'baseline', contract: contractOf(...plain), observations: [] },
      { side: 'candidate', contract: contractOf(...bigger), observations: [] },
      DEFAULTS.audit,
    );
    expect(codes(grown.findings)).toContain('tool-definition-cost-regression');
  });

  it('marks candidate findings the baseline shares as pre-existing, and new ones as regressions', () => {
    const bare = { name: 'bare', inputSchema: { type: 'object' } };
    const result = audit(
      side([bare]),
      { side: 'candidate', contract: contractOf(bare, { ...bare, name: 'bare2' }), observations: [] },
      DEFAULTS.audit,
    );
    const candidate = result.findings.filter((f) => f.side === 'candidate' && f.code === 'annotations-missing');
    expect(candidate.map((f) => [f.tool, f.regression])).toEqual([
      ['bare', false],
      ['bare2', true],
    ]);
  });
});

describe('result checks', () => {
  const observe = (result: unknown, args: Record<string, unknown> = {}) =>
    codes(
      auditResult({ caseId: 'C', tool: 'T', args, result, resultBytes: JSON.stringify(result).length }, undefined, 'candidate', 32 * 1024),
    );

  it('recognises error shapes without isError', () => {
    expect(observe({ content: [{ type: 'text', text: 'Error: not found' }] })).toEqual(['error-not-flagged']);
    expect(observe({ content: [{ type: 'text', text: '{"status": 404, "message": "missing"}' }] })).toEqual(['error-not-flagged']);
    expect(observe({ content: [{ type: 'text', text: '{"success": false}' }] })).toEqual(['error-not-flagged']);
    expect(observe({ isError: true, content: [{ type: 'text', text: 'Error: not found' }] })).toEqual([]);
  });

  it('a full page counts as a next-page signal; a hint in the text clears it', () => {
    const items = { items: [1, 2] };
    expect(
      observe(
        {
          content: [
            { type: 'text', text: '[1,2]' },
            { type: 'text', text: JSON.stringify(items) },
          ],
          structuredContent: items,
        },
        { limit: 2 },
      ),
    ).toEqual(['pagination-hint-hidden']);
    expect(
      observe(
        {
          content: [
            { type: 'text', text: 'Showing 2; call again with page 2 for more results.' },
            { type: 'text', text: JSON.stringify(items) },
          ],
          structuredContent: items,
        },
        { limit: 2 },
      ),
    ).toEqual([]);
  });

  it('measures pretty-printed JSON waste', () => {
    const findings = auditResult(
      {
        caseId: 'C',
        tool: 'T',
        args: {},
        result: { content: [{ type: 'text', text: JSON.stringify({ a: [1, 2, 3] }, null, 2) }] },
        resultBytes: 10,
      },
      undefined,
      'candidate',
      1024,
    );
    expect(findings.map((f) => f.code)).toEqual(['result-pretty-json']);
    expect(findings[0]!.message).toMatch(/\d+ bytes of whitespace/);
  });
});
