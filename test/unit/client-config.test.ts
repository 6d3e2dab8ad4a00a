import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { InputError } from '../../src/base/problems.js';

/** A profile's `from: FILE#SERVER`: the MCP client configs users already keep, read as profiles. */
function project(files: Record<string, string>, profiles: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-client-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  writeFileSync(join(dir, 'gate.config.yaml'), `version: 1\nprofiles:\n${profiles}\nbaseline: a\ncandidate: b\n`);
  return dir;
}

const load = (dir: string, env: NodeJS.ProcessEnv = {}) => loadConfig('gate.config.yaml', env, {}, dir);
const problemsOf = (dir: string, env: NodeJS.ProcessEnv = {}): string[] => {
  try {
    load(dir, env);
  } catch (error) {
    if (error instanceof InputError) return error.problems.map((p) => `${p.file}:${p.line ?? '-'} ${p.path}: ${p.message}`);
    throw error;
  }
  throw new Error('the config loaded');
};

describe('profiles from MCP client configs', () => {
  it('reads a .mcp.json server (mcpServers, with comments), the profile winning and env merged', () => {
    const dir = project(
      {
        '.mcp.json': `{
          // Claude Code's project servers
          "mcpServers": {
            "tickets": { "command": "node", "args": ["dist/server.js", "--port", "\${PORT:-7000}"], "env": { "API_URL": "\${API_URL}", "MODE": "dev" } },
          },
        }`,
      },
      '  a: { from: .mcp.json#tickets }\n  b: { from: .mcp.json#tickets, env: { MODE: ci }, allowSideEffects: true }',
    );
    const config = load(dir);
    expect(config.profiles.a).toEqual({
      name: 'a',
      transport: 'stdio',
      command: 'node',
      args: ['dist/server.js', '--port', '7000'],
      cwd: dir,
      env: { API_URL: '${API_URL}', MODE: 'dev' },
      isolation: { tmpdir: 'own', home: { isolated: false } },
      secrets: [],
      // Unset here: told at the client config's line, where the reference is written.
      unresolved: [
        {
          file: '.mcp.json',
          line: 4,
          path: 'mcpServers.tickets.env.API_URL',
          message:
            'env API_URL of profile "a" refers to ${API_URL}, which is not set in the environment; set API_URL before running the gate',
        },
      ],
      allowSideEffects: false,
      safeTools: [],
      from: join(dir, '.mcp.json'), // a baseline's client config is policy (config/policy-drift.ts)
    });
    expect(config.profiles.b).toMatchObject({ env: { API_URL: '${API_URL}', MODE: 'ci' }, allowSideEffects: true });
    // With the variable set, ${PORT:-7000} is the variable, read when the server starts.
    expect(load(dir, { PORT: '9000' }).profiles.a).toMatchObject({ args: ['dist/server.js', '--port', '${PORT}'] });
  });

  it("reads VS Code's servers: ${env:VAR}, ${workspaceFolder} and a relative cwd are the project's", () => {
    const dir = project(
      {
        '.vscode/mcp.json': `{ "servers": { "tickets": { "type": "stdio", "command": "node", "args": ["\${workspaceFolder}/dist/server.js"], "cwd": "packages/api", "env": { "TOKEN": "\${env:TICKETS_TOKEN}" } } } }`,
      },
      '  a: { from: .vscode/mcp.json#tickets }\n  b: { from: .vscode/mcp.json#tickets }',
    );
    expect(load(dir).profiles.a).toMatchObject({
      command: 'node',
      args: [`${dir}/dist/server.js`],
      cwd: join(dir, 'packages/api'),
      env: { TOKEN: '${TICKETS_TOKEN}' },
    });
  });

  it('reads remote servers: a url with type sse, or a bare url (Cursor) as streamable HTTP', () => {
    const dir = project(
      {
        '.cursor/mcp.json': `{ "mcpServers": {
          "remote": { "url": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer \${env:TOKEN}" } },
          "legacy": { "type": "sse", "url": "http://127.0.0.1:8808/sse" } } }`,
      },
      '  a: { from: .cursor/mcp.json#remote }\n  b: { from: .cursor/mcp.json#legacy }',
    );
    const config = load(dir, { TOKEN: 't' });
    expect(config.profiles.a).toMatchObject({
      transport: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: 'Bearer ${TOKEN}' },
    });
    expect(config.profiles.b).toMatchObject({ transport: 'sse', url: 'http://127.0.0.1:8808/sse', launch: null });
  });

  it('names the file, the line and the fix when the reference cannot be read', () => {
    const dir = project(
      {
        '.mcp.json':
          '{ "mcpServers": { "tickets": { "command": "node" }, "asks": { "command": "node", "args": ["${input:apiKey}"] }, "odd": { "command": "node", "envFile": ".env" } } }',
        'broken.json': '{ "mcpServers": { ',
      },
      [
        '  a: { from: .mcp.json#tikets }',
        '  b: { from: missing.json#tickets }',
        '  c: { from: broken.json#x }',
        '  d: { from: .mcp.json#asks }',
        '  e: { from: .mcp.json#odd }',
        '  f: { from: .mcp.json }',
      ].join('\n'),
    );
    expect(problemsOf(dir)).toEqual([
      'gate.config.yaml:3 profiles.a.from: names server "tikets", which .mcp.json does not have (did you mean "tickets"?); its mcpServers: tickets, asks, odd',
      'gate.config.yaml:4 profiles.b.from: names missing.json, which does not exist',
      'gate.config.yaml:5 profiles.c.from: names broken.json, which is not valid JSON (line 1: close brace expected)',
      "gate.config.yaml:6 profiles.d.from: names .mcp.json mcpServers.asks, which uses ${input:apiKey}, which a client asks a person for; the gate cannot. Set that value on the profile (its env or args win over the client's)",
      'gate.config.yaml:7 profiles.e.from: names .mcp.json mcpServers.odd, which has "envFile", which the gate does not read; set what it stands for on the profile instead',
      'gate.config.yaml:8 profiles.f.from: must be FILE#SERVER, a server of an MCP client config, e.g. .mcp.json#tickets or .vscode/mcp.json#tickets',
    ]);
  });
});
