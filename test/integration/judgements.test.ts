import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildContract } from '../../src/contract/normalize.js';
import { DEFAULTS } from '../../src/config/types.js';
import { decide } from '../../src/decide/decide.js';
import { collectSignals } from '../../src/decide/signals.js';
import { diffContracts } from '../../src/diff/index.js';
import { ROOT } from '../helpers/cli.js';

// docs/judgements.md: consecutive published releases, recorded, with a reviewer's verdict and the gate's.
const table = readFileSync(join(ROOT, 'docs/judgements.md'), 'utf8');
const rows = [...table.matchAll(/^\| (\w+) \| `([^`]+)` \| (\S+) → (\S+) \| (\w+)[^|]* \| (\w+) \| (.+) \|$/gm)].map(
  ([, id, pkg, before, after, reviewer, gate]) => ({
    id: id!,
    pkg: pkg!,
    before: before!,
    after: after!,
    reviewer: reviewer!,
    gate: gate!,
  }),
);

const contract = (pkg: string, version: string) => {
  const file = join(ROOT, 'test/fixtures/releases', `${pkg.replace(/^@/, '').replace('/', '__')}@${version}.json`);
  const recorded = JSON.parse(readFileSync(file, 'utf8')) as {
    serverInfo?: { name?: string; version?: string };
    instructions?: string;
    tools: unknown[];
  };
  const server = {
    name: recorded.serverInfo?.name ?? null,
    version: recorded.serverInfo?.version ?? null,
    protocolVersion: null,
    instructions: recorded.instructions ?? null,
  };
  return buildContract(server, recorded.tools, { pages: 1, durationMs: 0, errors: [] });
};

describe('judgements on published releases (docs/judgements.md)', () => {
  it('the table has every row the recordings support, from at least six servers', () => {
    expect(rows.length).toBe(48);
    expect(new Set(rows.map((r) => r.pkg)).size).toBeGreaterThanOrEqual(6);
  });

  it.each(rows.map((r) => [r.id, r] as const))('%s: the gate gives the verdict its row says', (_, row) => {
    const changes = diffContracts(contract(row.pkg, row.before), contract(row.pkg, row.after));
    const decision = decide(collectSignals(changes, [], []), { ...DEFAULTS.promotion, rules: {}, exceptions: [] }, '2026-11-23');
    expect(decision.verdict).toBe(row.gate);
  });

  it('a release against itself is Promote with no change, for every recorded release', () => {
    for (const row of rows) {
      const same = contract(row.pkg, row.after);
      expect(diffContracts(same, contract(row.pkg, row.after))).toEqual([]);
    }
  });

  it('counts agreement with the reviewer, so the figure in the docs stays true', () => {
    const agree = rows.filter((r) => r.reviewer === r.gate).length;
    expect(table).toContain(`(${agree} of ${rows.length} rows agree today)`);
  });
});
