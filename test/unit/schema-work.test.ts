import { describe, expect, it } from 'vitest';
import { DEFAULT_SCHEMA_LIMITS, expandedSize, SchemaWork } from '../../src/contract/schema-work.js';
import { diffContracts } from '../../src/diff/index.js';
import { contractOf, fanOut, obj, tool } from '../helpers/contracts.js';

const codes = (changes: { code: string; severity: string; message: string }[]) => changes.map((c) => [c.code, c.severity]);

describe('schema work: what a walk would cost, and the budget that bounds it', () => {
  it('measures a fan-out by its paths, in a pass over its text', () => {
    let ticks = 0;
    const work = new SchemaWork(undefined, () => ticks++);
    expect(expandedSize(fanOut(30, 'string'), work)).toBeGreaterThan(2 ** 30);
    // 500 levels: 2^500 paths, read in one pass of a few thousand nodes (a tick every 2,048 read).
    expect(expandedSize(fanOut(500, 'string'), work)).toBeGreaterThan(2 ** 500);
    expect(ticks).toBeGreaterThan(0);
    expect(ticks).toBeLessThan(10);
    // Measuring spends nothing from the run's budget: it is linear in the text.
    expect(work.visited).toBe(0);
    // A cycle is counted once where it closes; a plain schema is its own size.
    expect(expandedSize({ $defs: { n: { properties: { next: { $ref: '#/$defs/n' } } } }, $ref: '#/$defs/n' })).toBeLessThan(10);
    expect(expandedSize(obj({ q: { type: 'string' } }))).toBe(4);
  });

  it('a changed fan-out schema is held as too complex, with the figure, and not walked or searched', () => {
    const work = new SchemaWork();
    const changes = diffContracts(
      contractOf(tool('bomb', fanOut(30, 'string'))),
      contractOf(tool('bomb', fanOut(30, 'integer'))),
      undefined,
      work,
    );
    expect(codes(changes)).toEqual([['schema-changed', 'dangerous']]);
    expect(changes[0]!.path).toBe('/inputSchema');
    expect(changes[0]!.message).toContain('too complex to compare');
    expect(changes[0]!.message).toMatch(/cost [\d,]{13,} schema nodes/);
    expect(changes[0]!.message).toContain('limits.schemaNodesPerTool (20,000)');
    expect(work.visited).toBe(0);
  });

  it('under the budget the same schema is walked; an unchanged one is never measured', () => {
    const small = diffContracts(contractOf(tool('t', fanOut(4, 'string'))), contractOf(tool('t', fanOut(4, 'integer'))));
    expect(small.map((c) => c.code)).toContain('input-type-changed');
    const work = new SchemaWork({ perTool: 100, perRun: 1000 });
    const same = diffContracts(
      contractOf(tool('t', fanOut(30, 'string'), { description: 'one' })),
      contractOf(tool('t', fanOut(30, 'string'), { description: 'two' })),
      undefined,
      work,
    );
    expect(same.map((c) => c.code)).not.toContain('schema-changed');
  });

  it("past the run's budget, what is left is not compared, and says so", () => {
    const work = new SchemaWork({ perTool: 5000, perRun: 1000 });
    const tools = (leaf: string) => ['a', 'b', 'c'].map((n) => tool(n, fanOut(8, leaf)));
    const changes = diffContracts(contractOf(...tools('string')), contractOf(...tools('integer')), null, work);
    const held = changes.filter((c) => c.message.includes('limits.schemaNodesPerRun'));
    expect(held.length).toBeGreaterThan(0);
    expect(held.map((c) => c.code)).toEqual(held.map(() => 'schema-changed'));
    expect(changes.some((c) => c.tool === 'a' && c.code === 'input-type-changed')).toBe(true);
  });

  it('a walk that outlives its deadline ends there: the tick throws, and the walk does not swallow it', () => {
    class Late extends Error {}
    const work = new SchemaWork({ perTool: 1e12, perRun: 1e12 }, () => {
      if (work.visited > 3000) throw new Late();
    });
    expect(() =>
      diffContracts(contractOf(tool('bomb', fanOut(30, 'string'))), contractOf(tool('bomb', fanOut(30, 'integer'))), null, work),
    ).toThrow(Late);
  });

  it('alternatives that lead back into themselves through `$ref: "#"` are compared to a bound: no stack overflow, and held', () => {
    // Each alternative merges the root, whose anyOf brings the alternatives back: the comparison
    // once recursed until the stack ran out (the run ended, exit 3), or multiplied for minutes.
    const loop = (other: string, type: string) => ({
      type: 'object',
      anyOf: [
        { $ref: '#', required: ['x'] },
        { $ref: '#', required: [other] },
      ],
      properties: { x: { type: 'string' }, [other]: { type } },
    });
    const work = new SchemaWork();
    const changes = diffContracts(contractOf(tool('a', loop('y', 'string'))), contractOf(tool('a', loop('z', 'integer'))), undefined, work);
    expect(changes.some((c) => c.code === 'schema-changed' && c.message.includes('lead back into themselves 2 times'))).toBe(true);
    // Bounded: the walk's own nodes within a few tools' budgets, witness searches included.
    expect(work.visited).toBeLessThan(2 * DEFAULT_SCHEMA_LIMITS.perTool);
  });
});
