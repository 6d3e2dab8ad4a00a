import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { InputError } from '../../src/base/problems.js';
import type { RemoteProfile } from '../../src/config/types.js';
import { Redactor, describeHeader, describeUrl, profileSecrets } from '../../src/connect/redact.js';
import { resolveRemote } from '../../src/connect/remote-profile.js';

const load = (profiles: string, env: NodeJS.ProcessEnv = {}) => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-unit-'));
  writeFileSync(
    join(dir, 'gate.config.yaml'),
    `version: 1\nprofiles:\n${profiles}\n  base: { command: node }\nbaseline: base\ncandidate: base\n`,
  );
  return loadConfig('gate.config.yaml', env, {}, dir);
};
const problemsOf = (profiles: string, env: NodeJS.ProcessEnv = {}): string[] => {
  try {
    load(profiles, env);
    return [];
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return error.problems.map((p) => `${p.path}: ${p.message}`);
  }
};

describe('http and sse profiles in the config', () => {
  it('normalises a remote profile, with or without a command to start it', () => {
    const config = load(
      [
        '  reach: { transport: http, url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer ${T}" } }',
        '  start: { transport: sse, url: "http://127.0.0.1:${P}/sse", command: node, args: [s.js], readyTimeoutMs: 500 }',
      ].join('\n'),
      { T: 'token-value', P: '8080' },
    );
    const reach = config.profiles.reach as RemoteProfile;
    expect(reach).toMatchObject({
      transport: 'http',
      url: 'https://mcp.example.com/mcp',
      launch: null,
      readyTimeoutMs: 15_000,
      unresolved: [],
    });
    expect(reach.headers).toEqual({ Authorization: 'Bearer ${T}' }); // kept as written: expanded only when the session opens
    const start = config.profiles.start as RemoteProfile;
    expect(start).toMatchObject({ transport: 'sse', readyTimeoutMs: 500, launch: { command: 'node', args: ['s.js'], env: {} } });
  });

  it('names the profile and field for each transport-specific mistake', () => {
    expect(problemsOf('  a: { transport: sse }')).toEqual([
      "profiles.a.url: is required but missing: an sse profile needs the server's endpoint, e.g. url: http://127.0.0.1:8808/mcp",
    ]);
    expect(problemsOf('  a: { transport: http, url: "ws://x/mcp" }')).toEqual([
      'profiles.a.url: must be an http:// or https:// URL, e.g. http://127.0.0.1:8808/mcp, found string "ws://x/mcp"',
    ]);
    expect(problemsOf('  a: { command: node, url: "http://x/mcp" }')).toEqual([
      'profiles.a.url: applies only to http and sse profiles; this profile is stdio (the default transport)',
    ]);
    expect(problemsOf('  a: { transport: http, url: "http://x/mcp", readyTimeoutMs: 10 }')).toEqual([
      'profiles.a.readyTimeoutMs: only applies when the profile starts its own server; add `command` (and `args`) to start it, or remove `readyTimeoutMs`',
    ]);
  });

  it('never echoes a header value in a schema problem', () => {
    expect(problemsOf('  a: { transport: http, url: "http://x/mcp", headers: { X-Key: 123456789 } }')).toEqual([
      'profiles.a.headers.X-Key: must be string',
    ]);
  });

  it('records unset ${VAR} references with their field; resolving them is then a config error', () => {
    const config = load('  a: { transport: http, url: "http://127.0.0.1:${PORT}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } }', {
      PORT: '1',
    });
    const profile = config.profiles.a as RemoteProfile;
    expect(profile.unresolved.map((p) => p.path)).toEqual(['profiles.a.headers.Authorization']);
    expect(() => resolveRemote(profile, { PORT: '1' })).toThrow(
      /header "Authorization" of profile "a" refers to \$\{TOKEN\}, which is not set/,
    );
    const resolved = resolveRemote({ ...profile, unresolved: [] }, { PORT: '8808', TOKEN: 'abcdef123456' });
    expect(resolved.url.href).toBe('http://127.0.0.1:8808/mcp');
    expect(resolved.headers).toEqual({ Authorization: 'Bearer abcdef123456' });
    expect(resolved.redactor.scrub('got Bearer abcdef123456 and abcdef123456')).toBe('got *** and ***');
  });
});

describe('redaction', () => {
  const profile = (headers: Record<string, string>, url = 'http://127.0.0.1/mcp'): RemoteProfile => ({
    name: 'p',
    transport: 'http',
    url,
    headers,
    launch: null,
    readyTimeoutMs: 1,
    unresolved: [],
    secrets: [],
    allowSideEffects: false,
    safeTools: [],
  });

  it('treats values from ${VAR} and credential-named headers as secrets, not ordinary literals', () => {
    const p = profile({ Authorization: 'Bearer literal-token-1', 'X-Tenant': 'acme-corp', 'X-Trace': '${TRACE}' });
    const secrets = profileSecrets(
      p,
      { Authorization: 'Bearer literal-token-1', 'X-Tenant': 'acme-corp', 'X-Trace': 'trace-from-env' },
      { TRACE: 'trace-from-env' },
    );
    expect(secrets.sort()).toEqual(['Bearer literal-token-1', 'literal-token-1', 'trace-from-env', 'trace-from-env'].sort());
  });

  it('scrubs longest first, and deep inside results', () => {
    const r = new Redactor(['abcdef', 'Bearer abcdef', 'tiny']);
    expect(r.scrub('Bearer abcdef / abcdef / tiny')).toBe('*** / *** / tiny'); // under 6 characters: ordinary words
    expect(r.scrubDeep({ content: [{ type: 'text', text: 'key abcdef' }] })).toEqual({ content: [{ type: 'text', text: 'key ***' }] });
    const untouched = { a: 'nothing here' };
    expect(r.scrubDeep(untouched)).toBe(untouched);
  });

  it('describes headers and urls without their credentials', () => {
    expect(describeHeader('Authorization', 'Bearer ${TOKEN}')).toBe('Authorization: Bearer ***');
    expect(describeHeader('X-Api-Key', 'literal')).toBe('X-Api-Key: ***');
    expect(describeUrl('https://user:pw@mcp.example.com/mcp?api_key=abc&region=eu&token=${T}')).toBe(
      'https://user:***@mcp.example.com/mcp?api_key=***&region=eu&token=${T}',
    );
  });
});
