import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reportProblems } from '../../src/report/read.js';
import type { Report } from '../../src/report/types.js';
import type { Change } from '../../src/findings/types.js';
import { ROOT, runCli } from '../helpers/cli.js';

/**
 * A break's witness sent to the live servers (docs/verdicts.md, "Confirmed live"), on a real SDK server pair
 * (test/fixtures/servers/witness-server.mjs) that writes down every tools/call it receives, before
 * the SDK validates it. Its tools, by what the candidate changes:
 * - Notes.Search: `limit` listed required with a default (zod's output view): answered without it;
 * - Notes.Count: `scope` listed required, its default dropped from the listing: answered without it;
 * - Notes.List: `sort` listed with a default the server does not fill in: refused without it;
 * - Notes.Get: `revision` required, no default: refused by the SDK ("Input validation error");
 * - Page.Snapshot: `selector` required, but every call fails on both sides: no browser;
 * - Vault.Read: `profile` listed required, its listed default dropped; the server still falls back
 *   to it, and both sides fail with an error that names it;
 * - Notes.Delete (no hints: destructive), Notes.Peek (contradicting hints), Web.Fetch (open-world
 *   by default): each gains a required argument, and none may be called without consent.
 */
const SERVER = join(ROOT, 'test/fixtures/servers/witness-server.mjs');

let dir: string;
let calls: string;

/** The calls the fixture received, per release, in order: `candidate Notes.Get {"id":"x"}`. */
const called = (release?: string) =>
  (existsSync(calls) ? readFileSync(calls, 'utf8').split('\n').filter(Boolean) : []).filter(
    (line) => release === undefined || line.startsWith(`${release} `),
  );

function writeConfig(options: { sideEffects?: boolean; witnessCalls?: number; snapshot?: string } = {}): void {
  const profile = (release: string) =>
    `  ${release}: { command: node, args: [${SERVER}, ${release}, ${calls}]${options.sideEffects ? ', allowSideEffects: true' : ''} }`;
  writeFileSync(
    join(dir, 'gate.config.yaml'),
    [
      'version: 1',
      'profiles:',
      profile('baseline'),
      profile('candidate'),
      profile('candidate-default'),
      ...(options.snapshot ? [`  frozen: { transport: snapshot, path: ${options.snapshot} }`] : []),
      `baseline: ${options.snapshot ? 'frozen' : 'baseline'}`,
      'candidate: candidate',
      ...(options.witnessCalls === undefined ? [] : ['limits:', `  witnessCalls: ${options.witnessCalls}`]),
      '',
    ].join('\n'),
  );
}

async function gate(args: string[] = []): Promise<{ code: number | null; report: Report; stderr: string }> {
  rmSync(calls, { force: true });
  const result = await runCli(['run', '--format', 'json', '--quiet', ...args], { cwd: dir, timeoutMs: 60_000 });
  expect(result.code, result.stderr).not.toBe(3);
  const report = JSON.parse(result.stdout) as Report;
  // The JSON report, with `live` in it, is a valid report.
  expect(reportProblems(report)).toEqual([]);
  return { code: result.code, report, stderr: result.stderr };
}

const changeOf = (report: Report, tool: string): Change => {
  const found = report.diff.changes.filter((c) => c.tool === tool && c.witness);
  expect(found, tool).toHaveLength(1);
  return found[0]!;
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-gate-witness-live-'));
  calls = join(dir, 'calls.log');
});

describe('witnesses sent to the live servers', () => {
  let report: Report;
  beforeAll(async () => {
    writeConfig();
    ({ report } = await gate());
  }, 60_000);

  it('a required argument with a default that the candidate fills in: refuted live, held, not rolled back', () => {
    const search = changeOf(report, 'Notes.Search');
    expect([search.code, search.severity]).toEqual(['required-argument-added-with-default', 'dangerous']);
    expect(search.witness!.instance).toEqual({ query: 'x' });
    expect(search.witness!.live).toMatchObject({ outcome: 'refuted', candidate: { kind: 'result', text: '0 notes match "x" (limit 20)' } });
    expect(search.message).toMatch(/Refuted live: the candidate answered this call without an error \("0 notes match/);
  });

  it('a break the listing claims and the candidate does not make: refuted live, capped at Hold', () => {
    const count = changeOf(report, 'Notes.Count');
    expect([count.code, count.severity, count.witness!.live!.outcome]).toEqual(['required-argument-added', 'dangerous', 'refuted']);
    expect(count.message).toMatch(/so it is held, not rolled back\.$/);
    // The live answer contradicts "now refused": the sentence keeps to what the schemas claim.
    expect(count.message).not.toMatch(/was accepted and is now refused/);
    expect(count.message).toMatch(
      /`\{\}` is refused by the candidate's schema \(must have required property 'scope'\); the baseline's accepted it\./,
    );
  });

  it('a new required argument the SDK refuses and the baseline answered: confirmed live, a Rollback', () => {
    const get = changeOf(report, 'Notes.Get');
    expect([get.code, get.severity]).toEqual(['required-argument-added', 'breaking']);
    expect(get.witness!.live).toMatchObject({
      outcome: 'confirmed',
      candidate: { kind: 'error', validation: true },
      baseline: { kind: 'result' },
    });
    // The witness was chosen by the candidate's schema: the baseline's answer to it is not kept.
    expect(get.witness!.live!.baseline!.text).toBeUndefined();
    expect(JSON.stringify(report)).not.toContain('note x: (empty)');
    expect(get.witness!.live!.candidate!.text).toMatch(/Input validation error: Invalid arguments for tool Notes\.Get/);
    expect(get.message).toMatch(
      /Confirmed live: the candidate refused this call as invalid input \("MCP error -32602: Input validation error/,
    );
    expect(report.decision.verdict).toBe('Rollback');
  });

  it('a default the candidate lists but does not fill in: confirmed live, so it is required-argument-added', () => {
    const list = changeOf(report, 'Notes.List');
    expect([list.code, list.severity, list.witness!.live!.outcome]).toEqual(['required-argument-added', 'breaking', 'confirmed']);
    expect(list.message).toMatch(
      /^"Notes\.List" now requires argument "sort"\. It declares a default, but the candidate does not fill it in: /,
    );
    expect(report.decision.reasons.find((r) => r.code === 'required-argument-added')!.tools).toContain('Notes.List');
  });

  it('a tool that fails for another reason (no browser): unconfirmed, and the break stands', () => {
    const page = changeOf(report, 'Page.Snapshot');
    expect([page.code, page.severity]).toEqual(['required-argument-added', 'breaking']);
    expect(page.witness!.live).toMatchObject({
      outcome: 'unconfirmed',
      note: "the candidate's error does not read as input validation",
      candidate: { kind: 'error', text: 'no browser: Chrome is not installed on this machine' },
    });
    expect(page.witness!.live!.candidate!.validation).toBeUndefined();
  });

  it('a dropped default the candidate still fills in: the same error on both sides names it, so it is held (FK17)', () => {
    const vault = changeOf(report, 'Vault.Read');
    expect([vault.code, vault.severity]).toEqual(['required-argument-added', 'dangerous']);
    expect(vault.witness!.instance).toEqual({ id: 'x' });
    expect(vault.witness!.live).toMatchObject({
      outcome: 'default-kept',
      candidate: { kind: 'error', text: 'No vault profile: primary' },
      baseline: { kind: 'error', text: 'No vault profile: primary' },
    });
    expect(vault.message).toMatch(
      /which names "primary", the default the baseline declared for it: the candidate still fills it in, so it is held, not rolled back\.$/,
    );
    expect(vault.message).not.toMatch(/was accepted and is now refused/);
    // Page.Snapshot's same error on both sides names no default: its break stands.
    expect(changeOf(report, 'Page.Snapshot').witness!.live!.outcome).toBe('unconfirmed');
  });

  it('a destructive, a contradicting and an open-world tool are never called, and say why', () => {
    const notes = Object.fromEntries(
      ['Notes.Delete', 'Notes.Peek', 'Web.Fetch'].map((tool) => [tool, changeOf(report, tool).witness!.live]),
    );
    expect(notes['Notes.Delete']).toEqual({
      outcome: 'not-called',
      note: expect.stringMatching(/^on the candidate, Notes\.Delete is not read-only \(it declares no readOnlyHint/),
    });
    expect(notes['Notes.Peek']).toEqual({
      outcome: 'not-called',
      note: expect.stringMatching(/^on the candidate, Notes\.Peek has hints that contradict each other/),
    });
    expect(notes['Web.Fetch']).toEqual({
      outcome: 'not-called',
      note: expect.stringMatching(/^on the candidate, Web\.Fetch may reach outside systems \(it declares no openWorldHint/),
    });
    for (const tool of ['Notes.Delete', 'Notes.Peek', 'Web.Fetch']) expect(called().join('\n')).not.toContain(` ${tool} `);
  });

  it('sends each witness once to each side, in the changes order', () => {
    const sent = [
      'Notes.Count {}',
      'Notes.Get {"id":"x"}',
      'Notes.List {"folder":"x"}',
      'Notes.Search {"query":"x"}',
      'Page.Snapshot {"url":"x"}',
      'Vault.Read {"id":"x"}',
    ];
    expect(called('candidate')).toEqual(sent.map((s) => `candidate ${s}`));
    expect(called('baseline')).toEqual(sent.map((s) => `baseline ${s}`));
  });

  it('text and markdown say which witnesses were confirmed live, and how', async () => {
    const saved = join(dir, 'saved.report.json');
    writeFileSync(saved, JSON.stringify(report));
    const text = await runCli(['show', saved, '--format', 'text'], { cwd: dir });
    const markdown = await runCli(['show', saved, '--format', 'markdown'], { cwd: dir });
    for (const out of [text.stdout, markdown.stdout]) {
      expect(out).toMatch(/Notes\.Get.*Confirmed live: the candidate refused this call as invalid input/);
      expect(out).toMatch(/Notes\.Search.*Refuted live/);
    }
  });
});

describe('live refutation decides', () => {
  it('a release whose only change is a required argument with a default the server fills in is a Hold (exit 2)', async () => {
    writeConfig();
    const { code, report } = await gate(['--candidate', 'candidate-default']);
    expect([code, report.decision.verdict]).toEqual([2, 'Hold']);
    expect(report.diff.changes.map((c) => [c.code, c.witness?.live?.outcome])).toEqual([
      ['required-argument-added-with-default', 'refuted'],
    ]);
  }, 60_000);

  it('the server gated against itself: Promote, no change, no call', async () => {
    writeConfig();
    const { code, report } = await gate(['--candidate', 'baseline']);
    expect([code, report.decision.verdict, report.diff.changes.length]).toEqual([0, 'Promote', 0]);
    expect(called()).toEqual([]);
  }, 60_000);
});

describe('a baseline read from a snapshot', () => {
  it('is not called: the candidate alone can refute a break, never confirm one', async () => {
    writeConfig();
    const snapshot = join(dir, 'baseline.contract.json');
    const written = await runCli(['snapshot', '--profile', 'baseline', '-o', snapshot], { cwd: dir });
    expect(written.code, written.stderr).toBe(0);
    writeConfig({ snapshot });
    const { report } = await gate();
    expect(called('baseline')).toEqual([]);
    expect(changeOf(report, 'Notes.Count').witness!.live!.outcome).toBe('refuted');
    expect(changeOf(report, 'Notes.Get').witness!.live).toMatchObject({
      outcome: 'unconfirmed',
      note: 'no live baseline to show it accepted the same call',
    });
    expect(changeOf(report, 'Notes.Get').severity).toBe('breaking');
  }, 60_000);
});

describe('consent and budget', () => {
  it('with side effects allowed on the profiles, the destructive and open-world tools are called; contradicting hints never', async () => {
    writeConfig({ sideEffects: true });
    const { report } = await gate();
    expect(changeOf(report, 'Notes.Delete').witness!.live!.outcome).toBe('confirmed');
    expect(changeOf(report, 'Web.Fetch').witness!.live!.outcome).toBe('confirmed');
    expect(changeOf(report, 'Notes.Peek').witness!.live!.outcome).toBe('not-called');
    expect(called('candidate')).toContain('candidate Notes.Delete {"id":"x"}');
    expect(called().join('\n')).not.toContain(' Notes.Peek ');
  }, 60_000);

  it('limits.witnessCalls bounds the witnesses sent; past it, the rest say so', async () => {
    writeConfig({ witnessCalls: 2 });
    const { report } = await gate();
    expect(called('candidate')).toEqual(['candidate Notes.Count {}', 'candidate Notes.Get {"id":"x"}']);
    expect(changeOf(report, 'Notes.Search').witness!.live).toEqual({
      outcome: 'not-called',
      note: 'limits.witnessCalls (2) was spent on earlier witnesses',
    });
    // Not called, a break with a default stays held; refuted before, it stays a Hold now.
    expect(changeOf(report, 'Notes.Count').witness!.live!.outcome).toBe('refuted');
  }, 60_000);

  it('limits.witnessCalls: 0 sends none, and the report says nothing of live calls', async () => {
    writeConfig({ witnessCalls: 0 });
    const { report } = await gate();
    expect(called()).toEqual([]);
    expect(report.diff.changes.filter((c) => c.witness?.live)).toEqual([]);
    expect(changeOf(report, 'Notes.Count').severity).toBe('breaking');
  }, 60_000);
});
