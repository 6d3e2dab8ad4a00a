import { describe, expect, it } from 'vitest';
import { buildContract } from '../../src/contract/normalize.js';
import { SchemaWork } from '../../src/contract/schema-work.js';
import type { Contract, ContractTool } from '../../src/contract/types.js';
import { diffSchemas, type WalkMemo } from '../../src/diff/schemas.js';
import { consecutiveReleases } from '../helpers/releases.js';
import { syntheticTool } from '../fixtures/synthetic/tools.mjs';
import { sampled, sweep } from '../helpers/property.js';

// A release-wide change is walked once (src/diff/schemas.ts, WalkMemo): each other tool of the
// family gets the changes made again under its own name. Held here to what walking it would give.

const server = { name: 's', version: '1', protocolVersion: null, instructions: null };
const contract = (tools: unknown[]): Contract => buildContract(server, tools, { pages: 1, durationMs: 0, errors: [] });

/** Every tool a recorded release changed, with its successor: consecutive versions of each package, both ways. */
function recordedPairs(): [ContractTool, ContractTool][] {
  const built = new Map<unknown[], Contract>();
  const contractOf = (tools: unknown[]) => built.get(tools) ?? built.set(tools, contract(tools)).get(tools)!;
  const pairs: [ContractTool, ContractTool][] = [];
  for (const [older, newer] of consecutiveReleases()) {
    const after = new Map(contractOf(newer).tools.map((t) => [t.name, t]));
    for (const t of contractOf(older).tools) {
      const successor = after.get(t.name);
      if (successor && successor.hash !== t.hash) pairs.push([t, successor]);
    }
  }
  return pairs;
}

/** The same definition under another name, its schemas copies (not the same objects). */
const renamed = (t: ContractTool, name: string): ContractTool => ({ ...structuredClone(t), name });

/** The same definition with every object's keys the other way round. */
const reversed = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(reversed)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value)
            .reverse()
            .map(([k, v]) => [k, reversed(v)]),
        )
      : value;

/**
 * A family, diffed in turn with one memo as diffContracts does: the pair, a copy of it under another
 * name, and a copy served with its keys the other way round (the same schemas to a validator, but a
 * change carries the values as they were served, so it is walked on its own).
 */
function family(pair: [ContractTool, ContractTool]) {
  const walks: WalkMemo = new Map();
  const work = new SchemaWork();
  const members = [
    pair,
    pair.map((t) => renamed(t, `${t.name}~copy`)) as typeof pair,
    pair.map((t) => ({ ...(reversed(t) as ContractTool), name: `${t.name}~reversed` })) as typeof pair,
  ];
  return { walks, work, changes: members.map(([b, a]) => diffSchemas(b, a, work, walks)), members };
}

/** Each member alone: a memo and a count of its own. */
function alone(members: [ContractTool, ContractTool][]) {
  const works = members.map(() => new SchemaWork());
  return { changes: members.map(([b, a], i) => diffSchemas(b, a, works[i], new Map())), visited: works.reduce((n, w) => n + w.visited, 0) };
}

describe('a release-wide change is walked once', () => {
  sweep(
    'changed tools of the recorded releases (600, spread over them all), copied twice (once with its keys reversed): the same changes and the same count as walking each',
    () => {
      const all = recordedPairs();
      expect(all.length).toBeGreaterThan(6_000);
      const pairs = sampled(all, 600);
      let walkedOnce = 0;
      for (const pair of pairs) {
        const run = family(pair);
        const each = alone(run.members);
        // As text: the values a change carries keep the order their keys were served in.
        expect(JSON.stringify(run.changes), pair[0].name).toBe(JSON.stringify(each.changes));
        // The run's budget is spent as if every member had been walked.
        expect(run.work.visited, pair[0].name).toBe(each.visited);
        if (run.walks.size > 0) walkedOnce++;
        for (const [i, changes] of run.changes.entries()) for (const c of changes) expect(c.tool).toBe(run.members[i]![0].name);
      }
      // Most changed tools are walked; those whose walks were kept were walked once for the pair and its copy.
      expect(walkedOnce).toBeGreaterThan(pairs.length / 2);
    },
  );

  it('the synthetic family of the bench: one walk for each of the four drifts, not one for each tool', () => {
    const work = new SchemaWork();
    const walks: WalkMemo = new Map();
    const tools = Array.from({ length: 400 }, (_, i) => [syntheticTool(i), syntheticTool(i, i % 20 === 0 ? 1 + ((i / 20) % 4) : 0)]);
    const [before, after] = [contract(tools.map(([b]) => b)), contract(tools.map(([, a]) => a))];
    const changed = before.tools.flatMap((t, i) =>
      t.hash === after.tools[i]!.hash ? [] : [[t, after.tools[i]!] as [ContractTool, ContractTool]],
    );
    expect(changed).toHaveLength(20);
    const changes = changed.map(([b, a]) => diffSchemas(b, a, work, walks));
    // Three drifts of the input schema, and the fourth's (it drops read-only): the same schemas, walked once too.
    expect(walks.size).toBe(4);
    expect(changes).toEqual(changed.map(([b, a]) => diffSchemas(b, a, new SchemaWork(), new Map())));
    expect(changes.flat().map((c) => c.tool)).toEqual(
      changes
        .flat()
        .map((c) => c.tool)
        .sort(),
    );
  });

  it('a walk cut short by a bound is not kept: each member is walked again, and held the same', () => {
    // A change past the walk's depth (64 levels): the walk says it could not read it (isUnread).
    const nested = (n: number, maxLength: number): Record<string, unknown> =>
      n === 0 ? { type: 'string', maxLength } : { type: 'object', properties: { a: nested(n - 1, maxLength) } };
    const [b, a] = [contract([{ name: 't', inputSchema: nested(70, 5) }]), contract([{ name: 't', inputSchema: nested(70, 9) }])];
    const walks: WalkMemo = new Map();
    const work = new SchemaWork();
    const members = [0, 1, 2].map((k): [ContractTool, ContractTool] => [renamed(b.tools[0]!, `t${k}`), renamed(a.tools[0]!, `t${k}`)]);
    const changes = members.map(([x, y]) => diffSchemas(x, y, work, walks));
    expect(changes[0]!.map((c) => c.message).join(' ')).toContain('deeper than 64 levels');
    expect(walks.size).toBe(0);
    expect(changes).toEqual(members.map(([x, y]) => diffSchemas(x, y, new SchemaWork(), new Map())));
    expect(work.visited).toBe(alone(members).visited);
  });
});
