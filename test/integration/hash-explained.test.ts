import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildContract } from '../../src/contract/normalize.js';
import { diffContracts } from '../../src/diff/index.js';
import { ROOT } from '../helpers/cli.js';

// Every recorded pair of docs/judgements.md (the held-out rows too) whose release files are in
// test/fixtures/releases/: a tool whose contract hash moved has at least one change naming it.
const table = readFileSync(join(ROOT, 'docs/judgements.md'), 'utf8');
const pairs = [...table.matchAll(/^\| (\w+) \| `([^`]+)` \| (\S+) → (\S+) \|/gm)].map(([, id, pkg, before, after]) => ({
  id: id!,
  pkg: pkg!,
  before: before!,
  after: after!,
}));
const file = (pkg: string, version: string) => `${pkg.replace(/^@/, '').replace('/', '__')}@${version}.json`;
const recorded = new Set(readdirSync(join(ROOT, 'test/fixtures/releases')));

const contract = (pkg: string, version: string) => {
  const raw = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/releases', file(pkg, version)), 'utf8')) as { tools: unknown[] };
  return buildContract({ name: null, version: null, protocolVersion: null, instructions: null }, raw.tools, {
    pages: 1,
    durationMs: 0,
    errors: [],
  });
};

describe('every move of a tool hash is explained by a change', () => {
  it('on each recorded pair, a tool both sides list whose hash differs is named by at least one change', () => {
    const usable = pairs.filter((p) => recorded.has(file(p.pkg, p.before)) && recorded.has(file(p.pkg, p.after)));
    expect(usable.length).toBe(882);
    const silent: string[] = [];
    const residual = new Map<string, number>();
    for (const pair of usable) {
      const [before, after] = [contract(pair.pkg, pair.before), contract(pair.pkg, pair.after)];
      // Without the witness search: it only adds changes to tools already named.
      const changes = diffContracts(before, after, null);
      const named = new Set(changes.map((c) => c.tool));
      const hashes = new Map(after.tools.map((t) => [t.name, t.hash]));
      for (const tool of before.tools) {
        const hash = hashes.get(tool.name);
        if (hash !== undefined && hash !== tool.hash && !named.has(tool.name)) silent.push(`${pair.id} ${tool.name}`);
      }
      for (const c of changes.filter((c) => c.code === 'tool-definition-changed'))
        for (const field of (c.after as { fields: string[] }).fields)
          residual.set(`${pair.id} ${field}`, (residual.get(`${pair.id} ${field}`) ?? 0) + 1);
    }
    expect(silent).toEqual([]);
    // Icons, _meta, execution and the annotations are each named by their own code; what is left is
    // a schema written another way (`required` reordered, zod 4's integer bounds, `items: {}`, an
    // `anyOf` of bare types as a type list): 30 tools of HO9, one output schema of FE4, 9 input
    // schemas of FF32, one input schema of FI16 and one output schema of FI31; an enum's values
    // sorted (244 country codes), 4 input schemas of FN30; a nested `anyOf` reordered, 3 input
    // schemas of FQ14; an `anyOf`'s alternatives reordered, a one-value enum spelled `const`, one
    // input schema of FU9.
    expect(Object.fromEntries(residual)).toEqual({
      'HO9 inputSchema': 30,
      'FE4 outputSchema': 1,
      'FF32 inputSchema': 9,
      'FI16 inputSchema': 1,
      'FI31 outputSchema': 1,
      'FN30 inputSchema': 4,
      'FQ14 inputSchema': 3,
      'FU9 inputSchema': 1,
    });
  });
});
