import type { Contract } from '../../src/contract/types.js';
import { diffContracts } from '../../src/diff/index.js';
import { summarize } from '../../src/diff/summary.js';
import type { Finding } from '../../src/findings/types.js';
import type { Report, SideReport } from '../../src/report/types.js';

const side = (profile: string, contract: Contract): SideReport => ({
  profile,
  transport: 'snapshot',
  available: true,
  error: null,
  server: contract.server,
  contractHash: contract.hash,
  toolCount: contract.tools.length,
  tools: contract.tools,
  discovery: contract.discovery,
  stderr: { tail: '', droppedBytes: 0 },
  ...(contract.features && { features: contract.features }),
  cases: { total: 0, passed: 0, failed: 0, skipped: 0, passRate: null },
  caseResults: [],
});

/** A schema-valid report of two inline contracts, diffed by the real diff; no cases, no decision logic. */
export function reportOf(
  before: Contract,
  after: Contract,
  extra: { findings?: Finding[]; startedAt?: string; profiles?: [string, string] } = {},
): Report {
  const changes = diffContracts(before, after);
  const [b, c] = extra.profiles ?? ['before', 'after'];
  return {
    schemaVersion: 1,
    generatedBy: { name: 'mcp-gate', version: 'test' },
    startedAt: extra.startedAt ?? '2026-01-01T00:00:00.000Z',
    finishedAt: extra.startedAt ?? '2026-01-01T00:00:00.000Z',
    config: { file: null, datasets: [], roles: [] },
    baseline: side(b, before),
    candidate: side(c, after),
    diff: { summary: summarize(changes), changes },
    audit: { findings: extra.findings ?? [], cost: { baseline: null, candidate: null } },
    decision: { verdict: changes.some((x) => x.severity === 'breaking') ? 'Rollback' : 'Promote', reasons: [], exceptionsApplied: [] },
    timing: { totalMs: 0, stages: { connect: 0, discover: 0, diff: 0, cases: 0, audit: 0, decide: 0, report: 0 } },
  };
}
