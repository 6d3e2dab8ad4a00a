import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/types.js';
import { ROOT, runCli } from '../helpers/cli.js';

/**
 * Witnesses sent on a case's call (cases/witness-grounds.ts), on test/fixtures/servers/grounds-server.mjs:
 * `read_file` reads only `notes.txt`, so a witness built from the schemas alone (`path: "x"`) fails
 * on both sides and shows nothing. The dataset's case reads `notes.txt`, which both sides answer:
 * the witness goes out on that call, changed only at its own argument.
 */
const CONFIG = join(ROOT, 'test/fixtures/servers/grounds.config.yaml');

async function gate(candidate: string, config = CONFIG) {
  const result = await runCli(['run', '-c', config, '--candidate', candidate, '--format', 'json', '--quiet'], { timeoutMs: 60_000 });
  const report = JSON.parse(result.stdout) as Report;
  const changes = report.diff.changes
    .filter((c) => c.code !== 'description-reworded')
    .map((c) => [c.code, c.severity, c.witness?.status, c.witness?.live?.outcome, c.witness?.live?.case]);
  return { code: result.code, report, changes };
}

/** The same config without its dataset: the witnesses go out as the search built them. */
function withoutCases(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-grounds-'));
  const config = join(dir, 'gate.config.yaml');
  writeFileSync(
    config,
    readFileSync(CONFIG, 'utf8')
      .replaceAll('../../..', ROOT)
      .replace(/^datasets:.*\n/m, ''),
  );
  return config;
}

describe('a witness sent on the call a case made', () => {
  it('a removed argument the candidate now ignores: the same call answers as if it were not sent, a Rollback', async () => {
    const { code, report, changes } = await gate('v2-ignores');
    expect(changes).toEqual([['input-option-ignored', 'breaking', 'probe', 'ignored', 'READ-notes']]);
    const message = report.diff.changes[0]!.message;
    expect(message).toContain('"read_file" no longer reads argument "head"');
    expect(message).toContain('It was sent on the arguments of case "READ-notes", which both sides answered without an error');
    expect([report.decision.verdict, code]).toEqual(['Rollback', 1]);
  });

  it('a removed argument the candidate still reads: its answer changes with it, so it is held, as before', async () => {
    const { code, report, changes } = await gate('v2-unlisted');
    expect(changes).toEqual([['input-property-removed', 'dangerous', 'probe', 'refuted', 'READ-notes']]);
    expect([report.decision.verdict, code]).toEqual(['Hold', 2]);
  });

  it("a narrowed type: the witness reaches the reading and is confirmed, where the search's own path fails on both sides", async () => {
    const grounded = await gate('v2-whole');
    expect(grounded.changes).toEqual([['input-type-changed', 'breaking', 'found', 'confirmed', 'READ-notes']]);
    expect(grounded.report.diff.changes[0]!.message).toContain('Confirmed live: the candidate refused this call as invalid input');
    const alone = await gate('v2-whole', withoutCases());
    expect(alone.changes).toEqual([['input-type-changed', 'breaking', 'found', 'unconfirmed', undefined]]);
    expect(alone.report.diff.changes[0]!.witness!.live!.note).toBe(
      'the baseline answered the same call with an error too, so it shows no call that worked',
    );
  });

  it('without the case, the ignored argument shows nothing live: held, as before', async () => {
    const { code, report, changes } = await gate('v2-ignores', withoutCases());
    expect(changes).toEqual([['input-property-removed', 'dangerous', 'probe', 'unconfirmed', undefined]]);
    expect([report.decision.verdict, code]).toEqual(['Hold', 2]);
  });
});
