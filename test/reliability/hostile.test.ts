import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, runCli, type CliResult } from '../helpers/cli.js';
import { processesMatching } from '../helpers/processes.js';
import { reportProblems } from '../../src/report/read.js';
import type { Report } from '../../src/report/types.js';
import { settles } from '../helpers/settle.js';

/**
 * Hostile servers (test/fixtures/servers/hostile-server.mjs), one fault per mode, each a real
 * process over real stdio, gated by the built CLI. Each profile carries `--tag=<profile>-hostile`,
 * so a test can prove that no process of its own outlived the gate.
 * Every test here is listed in test/reliability/README.md.
 */
const CONFIG = join(ROOT, 'test/fixtures/servers/hostile.config.yaml');
const tagOf = (profile: string) => `--tag=${profile}-hostile`;
/** Per test: well under vitest's own timeout, so a hang fails as a hang, with the gate's stderr. */
const CLI_TIMEOUT_MS = 20_000;
const TEST_TIMEOUT_MS = 25_000;

const started: string[] = [];

async function gate(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runCli([...args, '-c', CONFIG, '--format', 'json', '--quiet'], { timeoutMs: CLI_TIMEOUT_MS, env });
}

/** Environment overrides that add a `flood` profile: http-flood-server.mjs in `mode`, started on `port`. */
const floodProfile = (port: number, mode: 'flood' | 'huge-result', tag: string): Record<string, string> => ({
  MCPGATE_PROFILES__FLOOD__TRANSPORT: 'http',
  MCPGATE_PROFILES__FLOOD__URL: `http://127.0.0.1:${port}/mcp`,
  MCPGATE_PROFILES__FLOOD__COMMAND: 'node',
  MCPGATE_PROFILES__FLOOD__ARGS: `[http-flood-server.mjs, "${port}", ${mode}, "${tag}"]`,
});

/** `mcp-gate run` with `candidate` (and the well-behaved `ok` baseline unless told otherwise). */
function run(candidate: string, options: { baseline?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  const baseline = options.baseline ?? 'ok';
  started.push(baseline, candidate);
  return gate(['run', '--baseline', baseline, '--candidate', candidate], options.env);
}

function reportOf(result: CliResult): Report {
  let report: Report;
  try {
    report = JSON.parse(result.stdout) as Report;
  } catch {
    throw new Error(
      `stdout is not a JSON report (exit ${result.code}):\n${result.stdout.slice(0, 500)}\nstderr:\n${result.stderr.slice(0, 2000)}`,
    );
  }
  expect(reportProblems(report)).toEqual([]);
  return report;
}

/** Processes of `profile` still alive. A killed process may need a moment (this machine's, measured) to disappear from ps. */
async function leftovers(profile: string): Promise<string[]> {
  await settles(() => processesMatching(tagOf(profile)).length === 0);
  return processesMatching(tagOf(profile));
}

async function expectNoLeftovers(...profiles: string[]): Promise<void> {
  for (const profile of profiles) expect(await leftovers(profile), `processes of profile "${profile}" outlived the gate`).toEqual([]);
}

const codes = (report: Report) => report.decision.reasons.map((r) => r.code);
const violations = (report: Report) => report.candidate.discovery.errors.map((e) => e.message).join('\n');
const candidateFailures = (report: Report) => report.candidate.caseResults.flatMap((c) => c.failures);

// If the gate leaks a fixture, end it here (by pid, only processes carrying our own tags), so one
// failing test does not leave servers running for the rest of the suite. The test has already failed.
afterEach(() => {
  for (const profile of started.splice(0)) {
    for (const line of processesMatching(tagOf(profile))) {
      const pid = Number(line.trim().split(/\s+/)[0]);
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
});

describe('a hostile candidate cannot hang, crash or fool the gate', { timeout: TEST_TIMEOUT_MS }, () => {
  it('answers with text on which a dataset regex backtracks for minutes: matched on RE2 at once, a verdict (Rollback, case-broken)', async () => {
    started.push('ok', 'redos');
    const result = await gate([
      'run',
      '--baseline',
      'ok',
      '--candidate',
      'redos',
      '--dataset',
      join(ROOT, 'test/fixtures/servers/hostile-redos.cases.yaml'),
    ]);
    expect(result.code, result.stderr).toBe(1);
    const report = reportOf(result);
    expect(report.baseline.caseResults[0]!.status).toBe('passed');
    expect(report.candidate.caseResults[0]!.failures.map((f) => f.check)).toEqual(['matches']);
    expect(report.decision.reasons.map((r) => r.code)).toEqual(['case-broken']);
    await expectNoLeftovers('ok', 'redos');
  });

  it("nests a tool's schema 20,000 levels deep: a verdict, never exit 3, the tool compared by its digest", async () => {
    const result = await run('deep-schema');
    expect([1, 2], result.stderr).toContain(result.code);
    const report = reportOf(result);
    expect(report.candidate.discovery.errors.map((e) => e.message)).toContain(
      'tool "alpha" nests more than 256 levels deep; it is compared by its digest only.',
    );
    expect(report.diff.changes.filter((c) => c.tool === 'alpha').map((c) => c.code)).toContain('schema-changed');
    await expectNoLeftovers('ok', 'deep-schema');
  });

  it("starts a grandchild that leaves the process group: found by the run's mark in its environment and killed when the gate ends", async () => {
    const result = await run('escape');
    expect(result.code, result.stderr).toBe(0);
    await expectNoLeftovers('ok', 'escape');
  });

  it('declares prompts and resources, then fails their lists: each a protocol-violation (Hold), each list unknown, never "removed"', async () => {
    const result = await run('features-fail', { env: { MCPGATE_LIMITS__MAX_PAGES: '20' } });
    expect(result.code, result.stderr).toBe(2);
    const report = reportOf(result);
    const features = report.candidate.features!;
    expect([features.prompts, features.resources]).toEqual([null, null]);
    // The endless template pages stop at limits.maxPages: what was read is kept, and the rest said.
    expect(features.resourceTemplates).toHaveLength(20);
    expect(report.decision.reasons.map((r) => r.code)).toEqual(['protocol-violation']);
    const messages = report.candidate.discovery.errors.map((e) => e.message);
    expect(messages).toEqual([
      expect.stringMatching(/^the server declares the prompts capability, but prompts\/list failed: .*prompt store offline/),
      expect.stringMatching(
        /^the server declares the resources capability, but resources\/list failed: resources\/list page 1 has no "resources" array/,
      ),
      'resources/templates/list still had more pages after limits.maxPages (20); the rest were not read.',
    ]);
    // What could be read is compared: two new capabilities and the 20 templates read, all safe.
    const counts = new Map<string, number>();
    for (const c of report.diff.changes) counts.set(c.code, (counts.get(c.code) ?? 0) + 1);
    expect([...counts].sort()).toEqual([
      ['capability-added', 2],
      ['resource-template-added', 20],
    ]);
    await expectNoLeftovers('ok', 'features-fail');
  });

  it('pages under the message cap that add up past limits.maxSideBytes: the session ends there, Rollback', async () => {
    const result = await run('many-tools', { env: { MCPGATE_LIMITS__MAX_SIDE_BYTES: '150000' } });
    expect(result.code, result.stderr).toBe(1);
    const report = reportOf(result);
    expect(report.candidate.error?.message).toContain('the server sent more than limits.maxSideBytes (150000 bytes) over the run');
    await expectNoLeftovers('ok', 'many-tools');
  });

  it('endless 8 MiB pages with the default limits: cut at the 64 MiB side budget, Rollback', async () => {
    const result = await run('fat-pages', {
      env: { MCPGATE_LIMITS__MAX_MESSAGE_BYTES: '16777216', MCPGATE_LIMITS__MAX_TOOLS: '10000', MCPGATE_LIMITS__MAX_PAGES: '100' },
    });
    expect(result.code, result.stderr).toBe(1);
    expect(reportOf(result).candidate.error?.message).toContain(
      'the server sent more than limits.maxSideBytes (67108864 bytes) over the run',
    );
    await expectNoLeftovers('ok', 'fat-pages');
  });

  it('over streamable HTTP, answers a call with ~20 MB: dropped at limits.maxResultBytes (result-too-large), the session goes on', async () => {
    const { freePort } = await import('../helpers/http.js');
    const port = await freePort();
    const tag = `--tag=http-huge-${process.pid}`;
    const env = {
      ...floodProfile(port, 'huge-result', tag),
      MCPGATE_CASES__CONCURRENCY: '1',
      MCPGATE_LIMITS__MAX_MESSAGE_BYTES: '67108864',
    };
    started.push('ok');
    const result = await gate(
      ['run', '--baseline', 'ok', '--candidate', 'flood', '--dataset', join(ROOT, 'test/fixtures/servers/hostile-two-probes.cases.yaml')],
      env,
    );
    expect(result.code, result.stderr).toBe(1);
    const report = reportOf(result);
    const [alpha, beta] = report.candidate.caseResults;
    expect(alpha!.failures).toEqual([expect.objectContaining({ code: 'result-too-large', tool: 'alpha' })]);
    expect(alpha!.failures[0]!.message).toContain('exceeded limits.maxResultBytes (1048576 bytes)');
    expect(beta!.status).toBe('passed'); // the same session answered the next call
    expect(report.candidate.error).toBeNull();
    const { processesMatching } = await import('../helpers/processes.js');
    expect(processesMatching(tag)).toEqual([]);
  });

  it('over streamable HTTP, answers tools/list with one endless data: line: cut off at limits.maxMessageBytes, Rollback, no process left', async () => {
    const { freePort } = await import('../helpers/http.js');
    const port = await freePort();
    const tag = `--tag=http-flood-${process.pid}`;
    const env = floodProfile(port, 'flood', tag);
    started.push('ok');
    const result = await gate(['run', '--baseline', 'ok', '--candidate', 'flood'], env);
    expect(result.code, result.stderr).toBe(1);
    const report = reportOf(result);
    expect(report.candidate.error?.message).toContain('exceeded limits.maxMessageBytes (1048576 bytes)');
    expect(report.decision.reasons.map((r) => r.code)).toContain('candidate-unavailable');
    const { processesMatching } = await import('../helpers/processes.js');
    expect(processesMatching(tag)).toEqual([]);
  });

  it('answers a call with structuredContent nested 20,000 levels: the probe fails with the reason, a verdict, never exit 3', async () => {
    const result = await run('deep-result');
    expect(result.code, result.stderr).toBe(1);
    const report = reportOf(result);
    expect(report.candidate.caseResults[0]!.failures.map((f) => f.message)).toEqual([
      'probe result unreadable: the result nests more than 256 levels deep; it was not read',
    ]);
    await expectNoLeftovers('ok', 'deep-result');
  });

  it('exits at once with a message on stderr: Rollback (candidate-unavailable), the message in the report', async () => {
    const result = await run('exit-at-once');
    expect(result.code).toBe(1);
    const report = reportOf(result);
    expect(report.decision.verdict).toBe('Rollback');
    expect(codes(report)).toEqual(['candidate-unavailable']);
    expect(report.candidate.available).toBe(false);
    expect(report.candidate.error).toMatchObject({ phase: 'initialize' });
    expect(report.candidate.error!.message).toContain('exited with code 1');
    expect(report.candidate.stderr.tail).toContain('cannot open /var/lib/hostile/state.db');
    expect(report.candidate.cases).toMatchObject({ total: 1, passed: 0 });
    await expectNoLeftovers('ok', 'exit-at-once');
  });

  it('never answers initialize: Rollback (candidate-unavailable) after timeouts.startupMs', async () => {
    const result = await run('no-initialize');
    expect(result.code).toBe(1);
    const report = reportOf(result);
    expect(codes(report)).toEqual(['candidate-unavailable']);
    expect(report.candidate.error).toMatchObject({ phase: 'initialize' });
    expect(report.candidate.error!.message).toContain('timeouts.startupMs');
    await expectNoLeftovers('ok', 'no-initialize');
  });

  it('answers initialize with protocolVersion 1999-01-01: Rollback (candidate-unavailable)', async () => {
    const result = await run('bad-protocol');
    expect(result.code).toBe(1);
    const report = reportOf(result);
    expect(codes(report)).toEqual(['candidate-unavailable']);
    expect(report.candidate.error).toMatchObject({ phase: 'initialize' });
    expect(report.candidate.error!.message).toContain('1999-01-01');
    await expectNoLeftovers('ok', 'bad-protocol');
  });

  it('writes garbage to stdout before and between messages: tolerated, Hold (protocol-violation)', async () => {
    const result = await run('garbage');
    expect(result.code).toBe(2);
    const report = reportOf(result);
    expect(report.decision.verdict).toBe('Hold');
    expect(report.decision.reasons.find((r) => r.code === 'protocol-violation')).toMatchObject({ action: 'hold' });
    expect(violations(report)).toContain('non-JSON-RPC line');
    // The real messages between the garbage still got through: tools listed, probe answered.
    expect(report.candidate.toolCount).toBe(2);
    expect(report.candidate.cases).toMatchObject({ total: 1, passed: 1 });
    await expectNoLeftovers('ok', 'garbage');
  });

  it('lists 100,000 tools in pages: reading stops at limits.maxTools, Hold (protocol-violation)', async () => {
    const result = await run('many-tools');
    expect(result.code).toBe(2);
    const report = reportOf(result);
    expect(report.decision.reasons.find((r) => r.code === 'protocol-violation')).toMatchObject({ action: 'hold' });
    expect(violations(report)).toContain('limits.maxTools (1000)');
    expect(report.candidate.toolCount).toBe(1000);
    expect(report.candidate.discovery.pages).toBe(2); // not 100: the gate stopped asking
    await expectNoLeftovers('ok', 'many-tools');
  });

  it('sends one ~20 MB tools/list page: cut off at limits.maxMessageBytes, Rollback (candidate-unavailable)', async () => {
    // Cut by its size, not by time: the config's short request timeout (for the hang tests) would
    // turn a machine slow to build 20 MB into a timeout, so this test gives the request room.
    const result = await run('huge-page', { env: { MCPGATE_TIMEOUTS__REQUEST_MS: '15000' } });
    expect(result.code).toBe(1);
    const report = reportOf(result);
    expect(codes(report)).toEqual(['candidate-unavailable']);
    expect(report.candidate.error).toMatchObject({ phase: 'tools/list' });
    expect(report.candidate.error!.message).toContain('limits.maxMessageBytes (1048576 bytes)');
    expect(report.candidate.toolCount).toBe(0);
    await expectNoLeftovers('ok', 'huge-page');
  });

  it('lists duplicate tool names (the second alpha destructive): Hold (protocol-violation), first definition kept', async () => {
    const result = await run('duplicate-tools');
    expect(result.code).toBe(2);
    const report = reportOf(result);
    expect(report.decision.reasons.find((r) => r.code === 'protocol-violation')).toMatchObject({ action: 'hold' });
    expect(report.candidate.discovery.errors.filter((e) => e.message.includes('listed more than once')).map((e) => e.tool)).toEqual([
      'alpha',
      'beta',
    ]);
    expect(report.candidate.toolCount).toBe(2);
    expect(report.candidate.tools.find((t) => t.name === 'alpha')!.effectiveAnnotations.readOnlyHint).toBe(true);
    await expectNoLeftovers('ok', 'duplicate-tools');
  });

  it('ships input schemas with $ref cycles: discovery, diff and replay finish; new optional arguments are not a rollback', async () => {
    const result = await run('ref-cycle');
    expect([0, 2]).toContain(result.code);
    const report = reportOf(result);
    expect(report.decision.verdict).not.toBe('Rollback');
    expect(report.candidate.available).toBe(true);
    expect(
      report.diff.changes
        .filter((c) => c.code === 'input-property-added')
        .map((c) => c.path)
        .sort(),
    ).toEqual(['/inputSchema/properties/filter', '/inputSchema/properties/loop', '/inputSchema/properties/self']);
    expect(report.candidate.cases).toMatchObject({ total: 1, passed: 1 });
    await expectNoLeftovers('ok', 'ref-cycle');
  });

  it('changes a constraint inside a $ref cycle (cycles on both sides): the diff walks in, sees it, and stops', async () => {
    const result = await run('ref-cycle-changed', { baseline: 'ref-cycle' });
    expect(result.code).toBe(2); // a maxLength declared where there was none: held (input-constraint-declared)
    const report = reportOf(result);
    expect(codes(report)).toEqual(['input-constraint-declared']);
    expect(
      report.diff.changes.every((c) => c.code === 'input-constraint-declared' && c.tool === 'alpha' && c.path.endsWith('/maxLength')),
    ).toBe(true);
    expect(report.diff.changes.length).toBeGreaterThan(0);
    await expectNoLeftovers('ref-cycle', 'ref-cycle-changed');
  });

  it('names $defs, arguments and required members `__proto__` and `toString`: every tightening is seen, and the same release is Promote', async () => {
    // The reviewer's verdict, written before the gate ran: lookup's q now takes at most 5
    // characters (through $defs.__proto__), tag's __proto__ became an integer, count's toString
    // became required. Three breaks: Rollback.
    const result = await run('proto-keys-changed', { baseline: 'proto-keys' });
    expect(result.code).toBe(1);
    const report = reportOf(result);
    expect(report.decision.verdict).toBe('Rollback');
    expect(report.diff.changes.map((c) => [c.code, c.severity, c.tool, c.path])).toEqual([
      ['required-argument-added', 'breaking', 'count', '/inputSchema/properties/toString'],
      ['input-constraint-tightened', 'breaking', 'lookup', '/inputSchema/properties/q/maxLength'],
      ['input-type-changed', 'breaking', 'tag', '/inputSchema/properties/__proto__/type'],
    ]);
    // Each tool's hash covers the members so named: the changed tools hash apart.
    const hashes = (side: Report['baseline']) => new Map(side.tools.map((t) => [t.name, t.hash]));
    const [before, after] = [hashes(report.baseline), hashes(report.candidate)];
    for (const name of ['lookup', 'tag', 'count']) expect(after.get(name), name).not.toBe(before.get(name));
    const same = reportOf(await run('proto-keys', { baseline: 'proto-keys' }));
    expect([same.decision.verdict, same.diff.changes.length]).toEqual(['Promote', 0]);
    await expectNoLeftovers('proto-keys', 'proto-keys-changed');
  });

  // ajv's deep equality (uniqueItems here) calls an object's toString, which JSON can make a
  // number: ajv throws. The gate used to end there, exit 3, with no report.
  it.each([
    ['proto-type', 'input-schema-invalid', 'gamma', 'cannot be checked against its meta-schema: the validator (ajv) failed on it'],
    ['proto-result', 'structured-content-unchecked', 'alpha', 'structuredContent was not checked: the validator (ajv) failed on it'],
  ])(
    "%s: objects with a member `toString` where ajv compares them (a tool's types, a result's items): %s, said so, Hold",
    async (mode, code, tool, text) => {
      const result = await run(mode);
      expect(result.code).toBe(2);
      const report = reportOf(result);
      expect(codes(report)).toEqual([code]);
      const found = report.audit.findings.filter((f) => f.code === code);
      expect(found.map((f) => [f.side, f.tool])).toEqual([['candidate', tool]]);
      expect(found[0]!.message).toContain(text);
      await expectNoLeftovers('ok', mode);
    },
  );

  it('an output alternative whose items list an object with a member `toString` as their type: Rollback, with a report', async () => {
    // The reviewer's verdict, written before the gate ran: alpha's v, a string, may now also be an
    // array (breaking for a client that reads a string), and the candidate's outputSchema breaks
    // its meta-schema (an object where a type name goes). Rollback. The gate used to end here,
    // exit 3: describing the new alternative joined its type list, and the join threw.
    const result = await run('proto-items-changed', { baseline: 'proto-items' });
    expect(result.code).toBe(1);
    const report = reportOf(result);
    expect(report.diff.changes.map((c) => [c.code, c.severity, c.tool])).toEqual([['output-type-changed', 'breaking', 'alpha']]);
    expect(report.diff.changes[0]!.message).toContain('may now return an array of values of another shape');
    expect(codes(report)).toContain('output-type-changed');
    expect(report.audit.findings.filter((f) => f.code === 'output-schema-invalid').map((f) => [f.side, f.tool])).toEqual([
      ['candidate', 'alpha'],
    ]);
    await expectNoLeftovers('proto-items', 'proto-items-changed');
  });

  it('never answers a tools/call: the probe fails at timeouts.requestMs, Rollback (case-broken)', async () => {
    const result = await run('call-hang');
    expect(result.code).toBe(1);
    const report = reportOf(result);
    expect(codes(report)).toEqual(['case-broken']);
    expect(candidateFailures(report)).toEqual([expect.objectContaining({ code: 'probe-failed', tool: 'alpha' })]);
    expect(candidateFailures(report)[0]!.message).toContain('timeouts.requestMs');
    expect(report.baseline.cases).toMatchObject({ total: 1, passed: 1 });
    await expectNoLeftovers('ok', 'call-hang');
  });

  it('while a tools/call hangs, the progress log says which side waits on which call, and the timeout with its value', async () => {
    started.push('ok', 'call-hang');
    const result = await runCli(['run', '--baseline', 'ok', '--candidate', 'call-hang', '-c', CONFIG, '--format', 'json'], {
      timeoutMs: CLI_TIMEOUT_MS,
    });
    expect(result.code).toBe(1);
    const lines = result.stderr.split('\n');
    // requestMs is 2000: told at 1 s, before the call fails at 2 s; the baseline answered in time, so it is not named.
    // The notice is due at 1 s; a busy machine may round it to 2 s, which says the same.
    expect(
      lines.some((l) => /^mcp-gate: candidate: tools\/call alpha: still waiting after [12] s \(timeouts\.requestMs is 2000 ms\)$/.test(l)),
    ).toBe(true);
    expect(lines.filter((l) => l.includes('still waiting')).every((l) => l.startsWith('mcp-gate: candidate: tools/call alpha'))).toBe(true);
    expect(lines).toContain('mcp-gate: baseline: case 1/1 HX-001: passed');
    expect(lines).toContain('mcp-gate: candidate: case 1/1 HX-001: failed');
    await expectNoLeftovers('ok', 'call-hang');
  });

  it('answers a tools/call with ~50 MB: the result is dropped unread (result-too-large), the session goes on', async () => {
    started.push('ok', 'call-huge');
    const dataset = join(ROOT, 'test/fixtures/servers/hostile-two-probes.cases.yaml');
    // The fault under test is size, not time: the fixture config's requestMs (2 s) is shorter than
    // streaming 50 MB takes on two busy cores, where the call then timed out (probe-failed, case-broken
    // alone) before its size was measured. That flaked under load; the call gets 15 s here.
    const result = await gate(['run', '--baseline', 'ok', '--candidate', 'call-huge', '--dataset', dataset], {
      MCPGATE_CASES__CONCURRENCY: '1',
      MCPGATE_TIMEOUTS__REQUEST_MS: '15000',
    });
    expect(result.code).toBe(1);
    const report = reportOf(result);
    expect(codes(report)).toEqual(['case-broken', 'result-too-large', 'result-size-regression']);
    const [alpha, beta] = report.candidate.caseResults;
    expect(alpha!.failures).toEqual([expect.objectContaining({ code: 'result-too-large', tool: 'alpha' })]);
    expect(alpha!.failures[0]!.message).toContain('limits.maxResultBytes (1048576 bytes)');
    expect(alpha!.probes[0]!.resultBytes).toBeGreaterThan(50 * 1024 * 1024);
    expect(beta!.status).toBe('passed'); // the same session answered the next call
    expect(report.candidate.error).toBeNull();
    const finding = report.audit.findings.find((f) => f.code === 'result-too-large');
    expect(finding).toMatchObject({ side: 'candidate', tool: 'alpha', regression: true });
    await expectNoLeftovers('ok', 'call-huge');
  });

  it('dies in the middle of a tools/call (half a response, then exit 139): Rollback (case-broken, probe-failed)', async () => {
    const result = await run('call-die');
    expect(result.code).toBe(1);
    const report = reportOf(result);
    expect(codes(report)).toEqual(['case-broken']);
    expect(candidateFailures(report)).toEqual([expect.objectContaining({ code: 'probe-failed', tool: 'alpha' })]);
    expect(candidateFailures(report)[0]!.message).toContain('exited with code 139');
    expect(report.candidate.stderr.tail).toContain('segmentation fault');
    await expectNoLeftovers('ok', 'call-die');
  });

  it('floods stderr with 100 MB: the gate keeps only a bounded tail, counts the rest, and still decides', async () => {
    const result = await run('stderr-flood');
    expect(result.code).toBe(0);
    const report = reportOf(result);
    expect(report.decision.verdict).toBe('Promote');
    const { tail, droppedBytes } = report.candidate.stderr;
    expect(droppedBytes).toBeGreaterThan(100 * 1024 * 1024 - 4096);
    expect(Buffer.byteLength(tail)).toBeLessThanOrEqual(4096); // limits.stderrTailBytes
    expect(tail.endsWith('hostile: stderr flood done\n')).toBe(true); // the tail is the last bytes
    expect(result.stdout.length).toBeLessThan(64 * 1024); // the flood did not reach the report
    await expectNoLeftovers('ok', 'stderr-flood');
  });

  it('runs behind a shell wrapper (the server is a grandchild that outlives stdin): no process is left', async () => {
    const result = await run('shell-wrapper');
    expect(result.code).toBe(0);
    const report = reportOf(result);
    expect(report.decision.verdict).toBe('Promote');
    expect(report.candidate.cases).toMatchObject({ total: 1, passed: 1 });
    await expectNoLeftovers('ok', 'shell-wrapper');
  });

  it('ignores SIGTERM: the gate escalates to SIGKILL on the group after killGraceMs, no process is left', async () => {
    const result = await run('ignore-term');
    expect(result.code).toBe(0);
    expect(reportOf(result).decision.verdict).toBe('Promote');
    await expectNoLeftovers('ok', 'ignore-term');
  });
});

describe('a hostile baseline', { timeout: TEST_TIMEOUT_MS }, () => {
  it('never answers initialize: the gate cannot decide, exit 3 with the reason, no process left', async () => {
    const result = await run('ok', { baseline: 'no-initialize' });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('baseline profile "no-initialize" is unavailable (initialize)');
    expect(result.stderr).toContain('timeouts.startupMs');
    await expectNoLeftovers('ok', 'no-initialize');
  });
});

describe('the whole-run budget (timeouts.runMs) against a hostile candidate', { timeout: TEST_TIMEOUT_MS }, () => {
  // Sessions are tracked from the moment they spawn, so the deadline ends a server still initialising.
  it('bounds the run even while the candidate is still initialising', async () => {
    const result = await run('no-initialize', { env: { MCPGATE_TIMEOUTS__STARTUP_MS: '10000', MCPGATE_TIMEOUTS__RUN_MS: '3000' } });
    // The run budget ended it, not startupMs: the report blames the run's deadline.
    expect(result.stdout + result.stderr).toContain('timeouts.runMs');
    await expectNoLeftovers('ok', 'no-initialize');
  });

  // A candidate that cannot list its tools within the budget is a Rollback, blamed on phase "run".
  it('a candidate that pages past the run budget is a Rollback (candidate-unavailable), not exit 3', async () => {
    const result = await run('slow-pages', { env: { MCPGATE_TIMEOUTS__RUN_MS: '3000' } });
    expect(result.stderr).not.toContain('internal error');
    expect(result.code).toBe(1);
    const report = reportOf(result);
    expect(codes(report)).toEqual(['candidate-unavailable']);
    expect(report.candidate.error, JSON.stringify(report.candidate.error)).toMatchObject({ phase: 'run' });
    expect(report.candidate.error!.message).toContain('timeouts.runMs (3000 ms) during tools/list');
  });

  it('whatever the verdict, the slow candidate is ended within the budget', async () => {
    const result = await run('slow-pages', { env: { MCPGATE_TIMEOUTS__RUN_MS: '3000' } });
    expect(result.stdout + result.stderr).toContain('timeouts.runMs');
    await expectNoLeftovers('ok', 'slow-pages');
  });

  it('passes the budget while cases replay: cannot decide (exit 3), naming the side and the call it waited on', async () => {
    const result = await run('call-hang', { env: { MCPGATE_TIMEOUTS__REQUEST_MS: '60000', MCPGATE_TIMEOUTS__RUN_MS: '3000' } });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      'the run exceeded timeouts.runMs (3000 ms) during the case replay, waiting on the candidate (tools/call alpha); every server was ended',
    );
    expect(result.stdout).toBe('');
    await expectNoLeftovers('ok', 'call-hang');
  });
});
