import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import type { Report } from '../../src/report/types.js';

/**
 * Tools the gate must never call, consent or not (src/contract/callable.ts), on a real SDK server
 * (test/fixtures/servers/untrustworthy-server.mjs) that writes down every call it gets: Files.Read
 * listed twice (read-only, then destructive), and Files.Peek with readOnlyHint and destructiveHint
 * both true, and read-only Cache.Show beside its destructive look-alike twins (cache.show,
 * Cache.Sh<U+200B>ow, "Cache.Show "). Clock.Now, plainly read-only, is the control: it is called, so
 * the log can be trusted.
 * Every profile allows side effects, the strongest consent there is.
 */
const SERVER = join(ROOT, 'test/fixtures/servers/untrustworthy-server.mjs');

let dir: string;
let calls: string;
const called = () => (existsSync(calls) ? readFileSync(calls, 'utf8').split('\n').filter(Boolean) : []);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-gate-never-called-'));
  calls = join(dir, 'calls.log');
  mkdirSync(join(dir, 'datasets'));
  writeFileSync(
    join(dir, 'gate.config.yaml'),
    [
      'version: 1',
      'profiles:',
      `  a: { command: node, args: [${SERVER}, ${calls}], allowSideEffects: true }`,
      `  b: { command: node, args: [${SERVER}, ${calls}], allowSideEffects: true }`,
      'baseline: a',
      'candidate: b',
      'datasets: [datasets/probes.cases.yaml]',
      '',
    ].join('\n'),
  );
  const probe = (id: string, tool: string) => [
    `  - id: ${id}`,
    `    userTask: Use ${tool}.`,
    '    sideEffects: allowed',
    '    requiredTools:',
    `      - toolName: ${tool}`,
    '        probeArguments: {}',
  ];
  writeFileSync(
    join(dir, 'datasets/probes.cases.yaml'),
    [
      'role: probes',
      'cases:',
      ...probe('read', 'Files.Read'),
      ...probe('peek', 'Files.Peek'),
      ...probe('show', 'Cache.Show'),
      ...probe('twin', 'cache.show'),
      ...probe('clock', 'Clock.Now'),
      '',
    ].join('\n'),
  );
});

/** The reason written as a comment just above a tool's commented-out case, its wrapped lines joined. */
function reasonAbove(text: string, tool: string): string {
  const lines = text.split('\n').map((line) => line.trim());
  const at = lines.indexOf(`# - id: recorded.${tool}`);
  const from = lines
    .slice(0, at)
    .map((line) => line.startsWith('# not recorded:'))
    .lastIndexOf(true);
  return at < 0 || from < 0
    ? ''
    : lines
        .slice(from, at)
        .map((line) => line.replace(/^# /, ''))
        .join(' ');
}

describe('a tool listed twice, or with hints that contradict each other, is never called', () => {
  it('record writes why in the dataset, where the case would have been, and calls only the control', async () => {
    const result = await runCli(['record', '--profile', 'a', '-o', 'recorded.cases.yaml'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(new Set(called())).toEqual(new Set(['Clock.Now']));
    const text = readFileSync(join(dir, 'recorded.cases.yaml'), 'utf8');
    expect(reasonAbove(text, 'Files.Read')).toMatch(/^not recorded: Files\.Read is listed more than once in tools\/list, /);
    expect(reasonAbove(text, 'Files.Peek')).toMatch(
      /^not recorded: Files\.Peek has hints that contradict each other \(readOnlyHint: true with destructiveHint: true\), /,
    );
    expect(reasonAbove(text, 'Cache.Show')).toMatch(/^not recorded: Cache\.Show has a look-alike twin in tools\/list /);
    expect(text).toMatch(/^ {2}- id: recorded\.Clock\.Now$/m);
  }, 30_000);

  it('run skips the cases that target them, says why in the probe and in a finding, and still decides', async () => {
    const result = await runCli(['run', '--format', 'json', '--quiet'], { cwd: dir, timeoutMs: 30_000 });
    expect(result.code, result.stderr).not.toBe(3);
    expect(new Set(called())).toEqual(new Set(['Clock.Now']));
    const report = JSON.parse(result.stdout) as Report;
    const byId = new Map(report.candidate.caseResults.map((c) => [c.id, c]));
    expect(byId.get('read')!.status).toBe('skipped');
    expect(byId.get('read')!.probes[0]!.reason).toMatch(/^Files\.Read is listed more than once in tools\/list/);
    expect(byId.get('peek')!.status).toBe('skipped');
    expect(byId.get('peek')!.probes[0]!.reason).toMatch(/^Files\.Peek has hints that contradict each other/);
    for (const id of ['show', 'twin']) {
      expect(byId.get(id)!.status).toBe('skipped');
      expect(byId.get(id)!.probes[0]!.reason).toMatch(/^(Cache\.Show|cache\.show) has a look-alike twin in tools\/list \(.*"Cache\.Show "/);
    }
    expect(report.candidate.discovery.lookalikes).toEqual([['Cache.Show', 'Cache.Show ', 'Cache.Sh\u200bow', 'cache.show']]);
    expect(byId.get('clock')!.status).toBe('passed');
    const findings = report.audit.findings.filter((f) => f.side === 'candidate').map((f) => [f.code, f.tool]);
    expect(findings).toContainEqual(['tool-name-duplicate', 'Files.Read']);
    expect(findings).toContainEqual(['tool-name-duplicate', 'Cache.Show']);
    expect(findings).toContainEqual(['tool-hints-contradict', 'Files.Peek']);
  }, 30_000);
});
