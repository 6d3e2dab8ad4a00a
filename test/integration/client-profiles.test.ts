import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/types.js';
import { ROOT, runCli } from '../helpers/cli.js';

/**
 * The client profiles that follow the MCP TypeScript SDK's own clients (docs/releases.md, "Client
 * profiles"), on clients-server.mjs: SDK servers over stdio whose releases the SDK's clients take or
 * refuse. Every gate run goes through the built CLI.
 */
const SERVER = join(ROOT, 'test/fixtures/servers/clients-server.mjs');

function project(extra = ''): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-clients-'));
  const config = readFileSync(join(ROOT, 'test/fixtures/servers/clients.config.yaml'), 'utf8').replace(/clients-server\.mjs/g, SERVER);
  writeFileSync(join(dir, 'gate.config.yaml'), `${config}${extra}`);
  writeFileSync(join(dir, 'clients.cases.yaml'), readFileSync(join(ROOT, 'test/fixtures/servers/clients.cases.yaml')));
  return dir;
}

async function gate(dir: string, baseline: string, candidate: string, format = 'json') {
  const result = await runCli(['run', '--baseline', baseline, '--candidate', candidate, '--format', format, '--quiet'], { cwd: dir });
  return { ...result, report: format === 'json' ? (JSON.parse(result.stdout) as Report) : null };
}

const clientFindings = (r: Report) =>
  r.audit.findings.filter((f) => f.client !== undefined).map((f) => [f.code, f.side, f.client, f.caseId ?? null, f.direction]);
const reasons = (r: Report) => r.decision.reasons.map((x) => [x.code, x.action]);

/** What a real SDK client does with the unknown order's error result: its error text, or what it threw. */
async function callMissing(client: ClientV1 | ClientV2, transport: StdioV1 | StdioV2): Promise<string> {
  await client.connect(transport as never);
  try {
    await client.listTools();
    const result = await client.callTool({ name: 'Orders.Get', arguments: { id: 'Z9' } });
    return `isError ${String(result.isError)}`;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.close();
  }
}

describe('an error result whose structuredContent fails the outputSchema (mcp-sdk-1)', { timeout: 90_000 }, () => {
  it('the SDK 1.x client throws on the candidate error result (the 2.x client does not); on by default, the gate says so: client-rejects-result, a regression: Hold', async () => {
    const v1 = await callMissing(
      new ClientV1({ name: 'sdk-1', version: '1.0.0' }),
      new StdioV1({ command: process.execPath, args: [SERVER, 'zod-errors'] }),
    );
    expect(v1).toMatch(/Structured content does not match the tool's output schema/);
    const v2 = await callMissing(
      new ClientV2({ name: 'client-2', version: '1.0.0' }),
      new StdioV2({ command: process.execPath, args: [SERVER, 'zod-errors'] }),
    );
    expect(v2).toBe('isError true');
    // The baseline's error, without a body in structuredContent, reaches the 1.x client as the tool's error.
    const baseline = await callMissing(
      new ClientV1({ name: 'sdk-1', version: '1.0.0' }),
      new StdioV1({ command: process.execPath, args: [SERVER, 'zod'] }),
    );
    expect(baseline).toBe('isError true');
    const { report, code } = await gate(project(), 'zod', 'zod-errors');
    expect(clientFindings(report!)).toEqual([['client-rejects-result', 'candidate', 'mcp-sdk-1', 'CL-missing', 'new']]);
    const refused = report!.audit.findings.find((f) => f.code === 'client-rejects-result')!;
    expect([refused.severity, refused.path, refused.keyword, refused.tool]).toEqual([
      'dangerous',
      '/structuredContent',
      'required',
      'Orders.Get',
    ]);
    expect(refused.message).toBe(
      `CL-missing Orders.Get: The MCP TypeScript SDK client (@modelcontextprotocol/sdk 1.11.4 to 1.32.2) (audit.clients: mcp-sdk-1) refuses this error result: it checks an error's structuredContent against the outputSchema too, which it fails (/ must have required property 'id'; / must have required property 'total'; / must NOT have additional properties). The caller gets "Structured content does not match the tool's output schema" instead of the tool's error.`,
    );
    expect(reasons(report!)).toEqual([['client-rejects-result', 'hold']]);
    expect(code).toBe(2);
    // A config whose audit.clients leaves it out does not check it.
    const off = await gate(project('audit:\n  clients: []\n'), 'zod', 'zod-errors');
    expect(clientFindings(off.report!)).toEqual([]);
    expect([off.report!.decision.verdict, off.code]).toEqual(['Promote', 0]);
  });

  it('a candidate that stops being refused has fixed it: Promote, listed as Fixed in the changelog', async () => {
    const dir = project();
    const { report, code } = await gate(dir, 'zod-errors', 'zod');
    expect(clientFindings(report!)).toEqual([['client-rejects-result', 'baseline', 'mcp-sdk-1', 'CL-missing', 'fixed']]);
    expect([report!.decision.verdict, code]).toEqual(['Promote', 0]);
    const notes = await gate(dir, 'zod-errors', 'zod', 'changelog');
    expect(notes.stdout).toMatch(/### Fixed\n\n- Results a declared client refuses \(Orders\.Get\): fixed\./);
  });
});

describe('an outputSchema that declares draft-07 (mcp-client-2-beta)', { timeout: 90_000 }, () => {
  it('newly declared by the SDK 1.x server: reported, not held, while audit.clients does not name the client', async () => {
    const { report, code } = await gate(project(), 'plain', 'zod');
    expect(clientFindings(report!)).toEqual([['client-would-reject-tool', 'candidate', 'mcp-client-2-beta', null, 'new']]);
    expect(report!.audit.findings.find((f) => f.code === 'client-would-reject-tool')!.message).toBe(
      'The MCP TypeScript SDK 2.0 beta client (@modelcontextprotocol/client 2.0.0-beta.1 to beta.5) would reject tool "Orders.Get", which it accepted on the baseline: its outputSchema declares "$schema": "http://json-schema.org/draft-07/schema#", which the client does not compile, so every call fails before it is sent. Add mcp-client-2-beta to audit.clients to hold on it.',
    );
    // The diff alone sees an annotation: what the schemas accept is the same.
    expect(report!.diff.changes.filter((c) => c.path === '/outputSchema/$schema').map((c) => c.code)).toEqual([
      'schema-annotation-changed',
    ]);
    expect([report!.decision.verdict, code]).toEqual(['Promote', 0]);
  });

  it('named in audit.clients: client-rejects-tool, a regression: Hold; already declared on the baseline: pre-existing', async () => {
    const dir = project('audit:\n  clients: [mcp-sdk-1, mcp-client-2-beta]\n');
    const { report, code } = await gate(dir, 'plain', 'zod');
    expect(clientFindings(report!)).toEqual([['client-rejects-tool', 'candidate', 'mcp-client-2-beta', null, 'new']]);
    expect(reasons(report!)).toEqual([['client-rejects-tool', 'hold']]);
    expect(code).toBe(2);
    const same = await gate(dir, 'zod', 'zod');
    expect(clientFindings(same.report!)).toEqual([
      ['client-rejects-tool', 'baseline', 'mcp-client-2-beta', null, 'still'],
      ['client-rejects-tool', 'candidate', 'mcp-client-2-beta', null, 'still'],
    ]);
    expect(same.report!.decision.verdict).toBe('Promote');
  });
});

describe('a tool that now requires a task', { timeout: 90_000 }, () => {
  it('the SDK 1.x client refuses to call it; the gate holds it: task-support-required', async () => {
    const client = new ClientV1({ name: 'sdk-1', version: '1.0.0' });
    const refused = await callMissing(client, new StdioV1({ command: process.execPath, args: [SERVER, 'task-only'] }));
    expect(refused).toMatch(/requires task-based execution/);
    const { report, code } = await gate(project(), 'plain', 'task-only');
    expect(report!.diff.changes.map((c) => [c.code, c.severity, c.path])).toEqual([
      ['task-support-required', 'breaking', '/execution/taskSupport'],
    ]);
    expect(reasons(report!)).toEqual([['task-support-required', 'hold']]);
    expect(code).toBe(2);
    // Back to a call any client can make, and no task call any more: reported, not held.
    const back = await gate(project(), 'task-only', 'plain');
    expect(back.report!.diff.changes.map((c) => [c.code, c.severity])).toEqual([['task-support-changed', 'dangerous']]);
    expect(back.report!.decision.verdict).toBe('Promote');
  });
});
