import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reportProblems } from '../../src/report/read.js';
import type { Report } from '../../src/report/types.js';
import type { Change } from '../../src/findings/types.js';
import { ROOT, runCli } from '../helpers/cli.js';

/**
 * An input closed to undeclared arguments is held by policy; live, the gate asks the candidate
 * whether it refuses one (docs/verdicts.md, "Confirmed live"), on a real SDK server pair
 * (test/fixtures/servers/closed-server.mjs) that writes down every tools/call it receives. A closing
 * the server does not enforce refuses no call, and is not held.
 */
const SERVER = join(ROOT, 'test/fixtures/servers/closed-server.mjs');
const UNDECLARED = 'mcp_gate_undeclared';

let dir: string;
let calls: string;

const called = (release: string) =>
  (existsSync(calls) ? readFileSync(calls, 'utf8').split('\n').filter(Boolean) : []).filter((line) => line.startsWith(`${release} `));

async function gate(
  candidate: string,
  limits: { witnessCalls?: number } = {},
  extra: string[] = [],
): Promise<{ code: number | null; report: Report }> {
  const profile = (release: string) => `  ${release}: { command: node, args: [${SERVER}, ${release}, ${calls}] }`;
  writeFileSync(
    join(dir, 'gate.config.yaml'),
    [
      'version: 1',
      'profiles:',
      profile('baseline'),
      profile(candidate),
      'baseline: baseline',
      `candidate: ${candidate}`,
      ...(limits.witnessCalls === undefined ? [] : ['limits:', `  witnessCalls: ${limits.witnessCalls}`]),
      ...extra,
      '',
    ].join('\n'),
  );
  rmSync(calls, { force: true });
  const result = await runCli(['run', '--format', 'json', '--quiet'], { cwd: dir, timeoutMs: 60_000 });
  expect(result.code, result.stderr).not.toBe(3);
  const report = JSON.parse(result.stdout) as Report;
  expect(reportProblems(report)).toEqual([]);
  return { code: result.code, report };
}

/** A reader's dataset of one case that calls `tool` with `args` (YAML flow text). */
const writeCase = (file: string, id: string, tool: string, args: string) =>
  writeFileSync(
    join(dir, file),
    [
      'role: reader',
      'cases:',
      `  - id: ${id}`,
      `    userTask: Call ${tool}.`,
      '    requiredTools:',
      `      - toolName: ${tool}`,
      `        probeArguments: ${args}`,
      '',
    ].join('\n'),
  );

const closingOf = (report: Report, tool: string): Change => {
  const found = report.diff.changes.filter((c) => c.tool === tool && c.code.startsWith('input-closed'));
  expect(found, tool).toHaveLength(1);
  return found[0]!;
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-gate-closed-'));
  calls = join(dir, 'calls.log');
});

describe('an input closed to undeclared arguments, asked live', () => {
  let report: Report;
  let code: number | null;
  beforeAll(async () => {
    ({ report, code } = await gate('candidate'));
  }, 60_000);

  it('a closing zod lists and does not enforce: the candidate answers a call with an undeclared argument, so it is not held', () => {
    const search = closingOf(report, 'Docs.Search');
    expect([search.code, search.severity]).toEqual(['input-closed', 'safe']);
    expect(search.witness!.instance).toMatchObject({ [UNDECLARED]: true });
    expect(search.witness!.live).toMatchObject({ outcome: 'refuted', candidate: { kind: 'result' } });
    expect(search.message).toMatch(/no call that worked is refused, so it is not held/);
    expect(search.message).toMatch(
      /Sent live: the candidate answered the call \{"query":".*","mcp_gate_undeclared":true\} without an error/,
    );
    // The probe went to both sides, the undeclared argument in it.
    for (const side of ['candidate', 'baseline'])
      expect(called(side).filter((line) => line.startsWith(`${side} Docs.Search `) && line.includes(UNDECLARED))).toHaveLength(1);
  });

  it('a tool whose every call fails on its way to another host, on both sides alike: past the input, so not held', () => {
    const health = closingOf(report, 'Cluster.Health');
    expect([health.code, health.severity, health.witness!.live!.outcome]).toEqual(['input-closed', 'safe', 'same-failure']);
    expect(health.witness!.live!.candidate).toMatchObject({ kind: 'error', text: expect.stringContaining('Health error: fetch failed') });
    expect(health.message).toMatch(/Sent live: both sides took the call \{"mcp_gate_undeclared":true\} and failed at the same work/);
    expect(called('candidate')).toContain(`candidate Cluster.Health {"${UNDECLARED}":true}`);
  });

  it('a tool whose every call fails for want of a key shows nothing: held as before', () => {
    const vault = closingOf(report, 'Vault.List');
    expect([vault.code, vault.severity, vault.witness!.live!.outcome]).toEqual(['input-closed', 'dangerous', 'unconfirmed']);
    expect(vault.message).toMatch(/Sent live, the call \{"mcp_gate_undeclared":true\}: not confirmed/);
  });

  it('a refusal written as data, naming the undeclared argument, shows nothing: held', () => {
    const lint = closingOf(report, 'Docs.Lint');
    // The baseline takes any key (additionalProperties: {}): the probe takes the place of the spot check's own witness.
    expect(lint.witness!.instance).toMatchObject({ [UNDECLARED]: true });
    expect([lint.code, lint.severity, lint.witness!.live!.outcome]).toEqual(['input-closed', 'dangerous', 'unconfirmed']);
    expect(lint.witness!.live!.note).toBe("the candidate's answer names the undeclared argument");
  });

  it('a closing the SDK enforces: refused as invalid input where the baseline answered, held with its evidence', () => {
    const strict = closingOf(report, 'Docs.Strict');
    expect([strict.code, strict.severity]).toEqual(['input-closed', 'dangerous']);
    expect(strict.witness!.live).toMatchObject({
      outcome: 'confirmed',
      candidate: { kind: 'error', validation: true },
      baseline: { kind: 'result' },
    });
    expect(strict.message).toMatch(/Confirmed live: the candidate refused the call .* as invalid input/);
    const held = report.decision.reasons.find((r) => r.code === 'input-closed');
    expect(held?.tools).toEqual(['Docs.Batch', 'Docs.Lint', 'Docs.Strict', 'Notes.Delete', 'Vault.List']);
  });

  it('an object closed inside the arguments, on paper: the probe sends the undeclared argument in it, answered, so not held', () => {
    const filter = closingOf(report, 'Docs.Filter');
    expect(filter.subject).toMatchObject({ at: ['inputSchema', 'properties', 'filter', 'additionalProperties'] });
    expect([filter.code, filter.severity, filter.witness!.live!.outcome]).toEqual(['input-closed', 'safe', 'refuted']);
    // The optional object is built for the probe, and the undeclared argument goes in it, not beside it.
    const probe = filter.witness!.instance as { filter?: Record<string, unknown> };
    expect(probe).not.toHaveProperty(UNDECLARED);
    expect(probe.filter).toMatchObject({ tag: expect.any(String), [UNDECLARED]: true });
    expect(filter.message).toMatch(/now lists "filter" in its input as closed to undeclared arguments/);
    expect(called('candidate').filter((line) => line.startsWith('candidate Docs.Filter ') && line.includes(UNDECLARED))).toHaveLength(1);
  });

  it("a list's items closed, and enforced: the probe sends the undeclared argument in the first item, refused, held with its evidence", () => {
    const batch = closingOf(report, 'Docs.Batch');
    expect(batch.subject).toMatchObject({ at: ['inputSchema', 'properties', 'pages', 'items', 'additionalProperties'] });
    expect([batch.code, batch.severity, batch.witness!.live!.outcome]).toEqual(['input-closed', 'dangerous', 'confirmed']);
    const probe = batch.witness!.instance as { pages: Record<string, unknown>[] };
    expect(probe.pages[0]).toMatchObject({ id: expect.any(String), [UNDECLARED]: true });
    expect(batch.message).toMatch(/Confirmed live: the candidate refused the call .* as invalid input/);
    expect(batch.witness!.live).toMatchObject({ candidate: { kind: 'error', validation: true }, baseline: { kind: 'result' } });
  });

  it('a tool the gate may not call stays held, and says why', () => {
    const remove = closingOf(report, 'Notes.Delete');
    expect([remove.code, remove.witness!.live!.outcome]).toEqual(['input-closed', 'not-called']);
    expect(remove.message).toMatch(/Not sent live: on the candidate, Notes\.Delete is not read-only/);
    expect(called('candidate').filter((line) => line.startsWith('candidate Notes.Delete '))).toEqual([]);
    expect(code).toBe(1); // Docs.Get's new required argument rolls back
  });
});

describe('closings and the witness budget', () => {
  it("a closing's probe is sent after every break's witness: with one call to spend, the break gets it", async () => {
    const { report } = await gate('candidate', { witnessCalls: 1 });
    const get = report.diff.changes.find((c) => c.tool === 'Docs.Get' && c.code === 'required-argument-added');
    expect(get?.witness?.live?.outcome).toBe('confirmed');
    for (const tool of ['Docs.Search', 'Cluster.Health', 'Docs.Strict', 'Vault.List', 'Docs.Lint', 'Docs.Filter', 'Docs.Batch']) {
      const closing = closingOf(report, tool);
      expect([closing.code, closing.witness!.live!.outcome]).toEqual(['input-closed', 'not-called']);
      expect(closing.witness!.live!.note).toMatch(/limits\.witnessCalls \(1\) was spent/);
    }
  });

  it('a release whose closings the server does not enforce is held only for those it cannot tell', async () => {
    const { report, code } = await gate('candidate-paper');
    expect(code).toBe(2);
    expect(report.diff.changes.map((c) => [c.tool, c.code, c.severity])).toEqual([
      ['Cluster.Health', 'input-closed', 'safe'],
      ['Docs.Filter', 'input-closed', 'safe'],
      ['Docs.Lint', 'input-closed', 'dangerous'],
      ['Docs.Search', 'input-closed', 'safe'],
      ['Vault.List', 'input-closed', 'dangerous'],
    ]);
    expect(report.decision.reasons.map((r) => [r.code, r.tools])).toEqual([['input-closed', ['Docs.Lint', 'Vault.List']]]);
  });

  it('an exception written for a closing still matches it once it is let go: nothing stale, nothing held', async () => {
    const exceptions = ['Docs.Search', 'Cluster.Health', 'Docs.Filter', 'Docs.Lint', 'Vault.List'].map(
      (tool) => `    - { code: input-closed, tool: ${tool}, reason: closed on purpose, expires: 2099-12-31 }`,
    );
    const { report, code } = await gate('candidate-paper', {}, ['promotion:', '  exceptions:', ...exceptions]);
    expect(report.decision.reasons).toEqual([]);
    expect([code, report.decision.verdict]).toEqual([0, 'Promote']);
  });

  it("on a case's call: the probe is the call the case made, with the undeclared argument added", async () => {
    writeCase('closed.cases.yaml', 'READ-search', 'Docs.Search', '{ query: tokens }');
    const { report } = await gate('candidate-paper', {}, ['datasets: [closed.cases.yaml]']);
    const search = closingOf(report, 'Docs.Search');
    expect([search.severity, search.witness!.live!.outcome, search.witness!.live!.case]).toEqual(['safe', 'refuted', 'READ-search']);
    expect(search.message).toMatch(
      /It was sent on the arguments of case "READ-search", which both sides answered without an error, with "mcp_gate_undeclared": true\.$/,
    );
    expect(called('candidate-paper')).toEqual(
      expect.arrayContaining([
        'candidate-paper Docs.Search {"query":"tokens"}',
        `candidate-paper Docs.Search {"query":"tokens","${UNDECLARED}":true}`,
      ]),
    );
  });

  it("on a case's call, a closing inside the arguments: the undeclared argument goes in the case's own object", async () => {
    writeCase('filter.cases.yaml', 'READ-filter', 'Docs.Filter', '{ query: tokens, filter: { tag: api } }');
    const { report } = await gate('candidate-paper', {}, ['datasets: [filter.cases.yaml]']);
    const filter = closingOf(report, 'Docs.Filter');
    expect([filter.severity, filter.witness!.live!.outcome, filter.witness!.live!.case]).toEqual(['safe', 'refuted', 'READ-filter']);
    expect(filter.message).toMatch(/with "mcp_gate_undeclared": true added in "filter"\.$/);
    expect(called('candidate-paper')).toEqual(
      expect.arrayContaining([`candidate-paper Docs.Filter {"query":"tokens","filter":{"tag":"api","${UNDECLARED}":true}}`]),
    );
  });

  it('with no witness calls, every closing is held as before', async () => {
    const { report, code } = await gate('candidate-paper', { witnessCalls: 0 });
    expect(code).toBe(2);
    expect(report.decision.reasons.map((r) => [r.code, r.tools])).toEqual([
      ['input-closed', ['Cluster.Health', 'Docs.Filter', 'Docs.Lint', 'Docs.Search', 'Vault.List']],
    ]);
  });
});
