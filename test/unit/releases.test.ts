import { describe, expect, it } from 'vitest';
import { clientFindings, clientProblems } from '../../src/audit/clients.js';
import { CLIENT_PROFILES } from '../../src/config/clients.js';
import type { ServerIdentity } from '../../src/contract/types.js';
import { decide } from '../../src/decide/decide.js';
import { calmRemovals } from '../../src/decide/deprecation-window.js';
import { collectSignals } from '../../src/decide/signals.js';
import { checkVersionBump, neededBump } from '../../src/decide/version-bump.js';
import { diffContracts } from '../../src/diff/index.js';
import type { Change } from '../../src/findings/types.js';
import { contractOf, obj, tool } from '../helpers/contracts.js';
import { DEFAULTS } from '../../src/config/types.js';

const server = (version: string | null): ServerIdentity => ({ name: 's', version, protocolVersion: '2025-11-25', instructions: null });
const pairs = (changes: Change[]) => changes.map((c) => [c.code, c.severity, c.tool, c.path]);

describe('deprecation marks', () => {
  it.each([
    ['a description that starts "Deprecated:"', { description: 'Deprecated: use b instead.' }],
    ['a title with "(Deprecated)"', { title: 'Read File (Deprecated)' }],
    ['a description whose first sentence says it is deprecated', { description: 'This tool is deprecated and goes in 2.0. Reads.' }],
    ['`deprecated: true` on the input schema', { inputSchema: { type: 'object', deprecated: true } }],
    ['`_meta` with deprecated', { _meta: { deprecated: true } }],
    ['a vendor `_meta` key ending in /deprecated', { _meta: { 'com.example/deprecated': true } }],
  ])('%s marks the tool: deprecation-marked, safe', (_, marks) => {
    const changes = diffContracts(contractOf(tool('a')), contractOf({ ...tool('a'), ...marks }));
    expect(pairs(changes).filter(([code]) => code === 'deprecation-marked')).toEqual([['deprecation-marked', 'safe', 'a', '']]);
  });

  it('a description that mentions deprecation later is no mark', () => {
    const changes = diffContracts(
      contractOf(tool('a')),
      contractOf({ ...tool('a'), description: 'Reads. The old cursor argument was deprecated upstream.' }),
    );
    expect(changes.map((c) => c.code)).not.toContain('deprecation-marked');
  });

  it('an argument marked `deprecated: true` is marked at its pointer; one that was marked already is not again', () => {
    const before = obj({ q: { type: 'string' }, limit: { type: 'number' } });
    const after = obj({ q: { type: 'string' }, limit: { type: 'number', deprecated: true } });
    const marked = diffContracts(contractOf(tool('a', before)), contractOf(tool('a', after))).filter(
      (c) => c.code === 'deprecation-marked',
    );
    expect(pairs(marked)).toEqual([['deprecation-marked', 'safe', 'a', '/inputSchema/properties/limit']]);
    expect(marked[0]!.message).toBe('Argument "limit" of tool "a" is now marked deprecated.');
    expect(diffContracts(contractOf(tool('a', after)), contractOf(tool('a', after)))).toEqual([]);
  });

  it('removing a marked tool is tool-removed-after-deprecation (breaking, held); removing an unmarked one stays tool-removed', () => {
    const marked = { ...tool('old'), description: 'Deprecated: use new.' };
    expect(pairs(diffContracts(contractOf(marked, tool('keep')), contractOf(tool('keep'))))).toEqual([
      ['tool-removed-after-deprecation', 'breaking', 'old', ''],
    ]);
    expect(pairs(diffContracts(contractOf(tool('old'), tool('keep')), contractOf(tool('keep'))))).toEqual([
      ['tool-removed', 'breaking', 'old', ''],
    ]);
  });

  it('the window: calm once the first saved mark is at least windowDays old, at once with 0, held without history', () => {
    const since = new Map([['old', '2026-10-01T10:00:00.000Z']]);
    expect([...calmRemovals(['old'], since, 30, '2026-11-28')]).toEqual([
      ['old', 'the saved reports show it marked deprecated since 2026-10-01, 58 days ago (window 30 days)'],
    ]);
    expect(calmRemovals(['old'], since, 60, '2026-11-28').size).toBe(0);
    expect(calmRemovals(['old'], new Map(), 30, '2026-11-28').size).toBe(0);
    expect(calmRemovals(['old'], new Map(), 0, '2026-11-28').has('old')).toBe(true);
  });

  it('a calm removal asks for nothing; a held one holds', () => {
    const changes = diffContracts(contractOf({ ...tool('old'), description: 'Deprecated: use new.' }), contractOf());
    const policy = { ...DEFAULTS.promotion, rules: {}, exceptions: [] };
    expect(decide(collectSignals(changes, [], []), policy, '2026-11-28').verdict).toBe('Hold');
    const calm = new Map([['old', 'old enough']]);
    expect(decide(collectSignals(changes, [], [], { calmRemovals: calm }), policy, '2026-11-28').verdict).toBe('Promote');
  });
});

describe('the version bump', () => {
  const removed = diffContracts(contractOf(tool('a'), tool('b')), contractOf(tool('a')));
  const readOnly = { annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false } };
  const added = diffContracts(contractOf(tool('a')), contractOf(tool('a'), tool('b', { type: 'object' }, readOnly)));
  const reworded = diffContracts(contractOf(tool('a')), contractOf({ ...tool('a'), description: 'The a tool, now described otherwise.' }));

  it('the changes call for major on a break, minor on an addition, patch on anything else, none on nothing', () => {
    expect([neededBump(removed), neededBump(added), neededBump(reworded), neededBump([])]).toEqual(['major', 'minor', 'patch', 'none']);
  });

  it.each([
    ['1.4.0', '2.0.0', 'major', [], removed],
    ['1.4.0', '1.5.0', 'minor', ['version-bump-too-small'], removed],
    ['1.4.0', '1.4.1', 'patch', ['version-bump-too-small'], removed],
    ['1.4.0', '1.3.9', 'lower', ['version-bump-too-small'], removed],
    ['1.4.0', '1.5.0', 'minor', [], added],
    ['1.4.0', '1.4.1', 'patch', ['version-bump-additions-as-patch'], added],
    ['1.4.0', '1.4.0', 'none', ['version-unchanged'], added],
    ['1.4.0', '1.4.0', 'none', [], []],
    // Major 0: a minor bump may break, a patch bump may add.
    ['0.3.1', '0.4.0', 'major', [], removed],
    ['0.3.1', '0.3.2', 'minor', ['version-bump-too-small'], removed],
    ['0.3.1', '0.3.2', 'minor', [], added],
    ['v1.0.0-rc.1', 'v1.0.0', 'patch', [], reworded],
  ])('%s -> %s: %s, %j', (was, now, actual, codes, changes) => {
    const check = checkVersionBump(server(was), server(now), changes);
    expect([check.scheme, check.actual, check.findings.map((f) => f.code)]).toEqual(['semver', actual, codes]);
  });

  it('calendar versions are checked for moving forward only', () => {
    expect(checkVersionBump(server('2025.7.1'), server('2025.8.21'), removed)).toMatchObject({ scheme: 'calendar', findings: [] });
    expect(checkVersionBump(server('2025.8.21'), server('2025.8.21'), removed).findings.map((f) => f.code)).toEqual(['version-unchanged']);
  });

  it('a version that is no version, or none, is explained and never throws', () => {
    for (const [was, now] of [
      ['main', '1.0.0'],
      [null, '1.0.0'],
      ['1.0', '1.1'],
      ['1.0.0', '\u202e1.0.1'],
    ] as const) {
      const check = checkVersionBump(server(was), server(now), added);
      expect([check.scheme, check.actual, check.findings.map((f) => f.code)]).toEqual(['unknown', null, ['version-unreadable']]);
      expect(check.summary).toMatch(/is not a semver or calendar version|are not a semver or calendar version/);
    }
    expect(checkVersionBump(server('1.0.0'), server('\u202e1.0.1'), added).summary).not.toContain('\u202e');
  });

  it('version-unchanged informs by default and holds when promotion.release is true', () => {
    const check = checkVersionBump(server('1.0.0'), server('1.0.0'), added);
    const signals = collectSignals(added, [], check.findings);
    const policy = { ...DEFAULTS.promotion, rules: {}, exceptions: [] };
    expect(decide(signals, policy, '2026-11-28').verdict).toBe('Promote');
    expect(decide(signals, { ...policy, release: true }, '2026-11-28').reasons.map((r) => [r.code, r.action])).toEqual([
      ['version-unchanged', 'hold'],
    ]);
    expect(decide(signals, { ...policy, release: true, rules: { 'version-unchanged': 'ignore' } }, '2026-11-28').verdict).toBe('Promote');
  });
});

describe('client profiles', () => {
  it('names outside ^[a-zA-Z0-9_-]{1,64}$ are refused by every API profile', () => {
    for (const client of ['openai', 'openai-strict', 'anthropic'] as const) {
      expect(clientProblems(CLIENT_PROFILES[client], 'files.read', null)).toEqual([
        `its name breaks the client's rule (names must match ^[a-zA-Z0-9_-]{1,64}$)`,
      ]);
      expect(clientProblems(CLIENT_PROFILES[client], 'x'.repeat(65), null)).toHaveLength(1);
      expect(clientProblems(CLIENT_PROFILES[client], 'files_read-2', null)).toEqual([]);
    }
  });

  it('OpenAI strict: refused keywords, open objects and optional properties, each at its pointer', () => {
    const schema = obj(
      {
        q: { type: 'string' },
        filter: obj({ tag: { type: 'string' } }, ['tag'], { additionalProperties: false }),
        any: { oneOf: [{ type: 'string' }, { type: 'number' }] },
      },
      ['q', 'filter'],
    );
    expect(clientProblems(CLIENT_PROFILES['openai-strict'], 'search', schema)).toEqual([
      'an object does not set additionalProperties: false',
      'an object leaves "any" out of required',
      'keyword "oneOf" at /properties/any is not supported',
    ]);
    const strict = obj({ q: { type: 'string' }, n: { type: ['number', 'null'] } }, ['q', 'n'], { additionalProperties: false });
    expect(clientProblems(CLIENT_PROFILES['openai-strict'], 'search', strict)).toEqual([]);
    // A property named like a keyword is a name, not the keyword.
    const named = obj({ not: { type: 'string' } }, ['not'], { additionalProperties: false });
    expect(clientProblems(CLIENT_PROFILES['openai-strict'], 'search', named)).toEqual([]);
    expect(clientProblems(CLIENT_PROFILES.openai, 'search', schema)).toEqual([]);
  });

  it('one finding per client and tool, naming both, sorted by client', () => {
    const contract = contractOf(tool('a.b'), tool('ok', obj({ q: { type: 'string' } }, ['q'], { additionalProperties: false })));
    expect(clientFindings(contract, 'candidate', ['openai-strict', 'anthropic']).map((f) => [f.code, f.client, f.tool])).toEqual([
      ['client-rejects-tool', 'anthropic', 'a.b'],
      ['client-rejects-tool', 'openai-strict', 'a.b'],
    ]);
  });
});
