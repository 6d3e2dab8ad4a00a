import { describe, expect, it } from 'vitest';
import { clientFindings, clientProblems, watchedClientFindings } from '../../src/audit/clients.js';
import { clientResultFindings } from '../../src/audit/client-results.js';
import { CLIENT_PROFILES, type ClientName } from '../../src/config/clients.js';
import type { ServerIdentity } from '../../src/contract/types.js';
import { decide } from '../../src/decide/decide.js';
import { calmRemovals, REMOVED_AFTER_DEPRECATION, removalKey } from '../../src/decide/deprecation-window.js';
import { collectSignals } from '../../src/decide/signals.js';
import { checkVersionBump, neededBump } from '../../src/decide/version-bump.js';
import { diffContracts } from '../../src/diff/index.js';
import type { Change } from '../../src/findings/types.js';
import type { Subject } from '../../src/findings/subject.js';
import type { Contract } from '../../src/contract/types.js';
import { buildFeatures, slimFeatureEntry } from '../../src/contract/features.js';
import { renderChangelog } from '../../src/report/changelog.js';
import { deprecatedSince } from '../../src/report/history/deprecations.js';
import { reportOf } from '../helpers/report-of.js';
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
    expect(verdict(changes)).toBe('Hold');
    expect(verdict(changes, new Map([[removalKey(changes[0]!), 'old enough']]))).toBe('Promote');
  });
});

const policy = { ...DEFAULTS.promotion, rules: {}, exceptions: [] };
const verdict = (changes: Change[], calm?: Map<string, string>) =>
  decide(collectSignals(changes, [], [], calm && { calmRemovals: calm }), policy, '2026-11-28').verdict;
/** Every removal the lifecycle judges is calm: the saved reports showed its mark long enough ago. */
const allCalm = (changes: Change[]) =>
  new Map(changes.filter((c) => REMOVED_AFTER_DEPRECATION.has(c.code)).map((c) => [removalKey(c), 'old enough']));

/** A contract with one tool and these prompts, as discovery would build it. */
const withPrompts = (prompts: Record<string, unknown>[], ...tools: Record<string, unknown>[]): Contract => ({
  ...contractOf(...tools),
  features: buildFeatures({ capabilities: { tools: {}, prompts: {} }, prompts, resources: [], resourceTemplates: [] }, []),
});

describe('removal after deprecation, beside the tools', () => {
  const args = (limit: Record<string, unknown>) => obj({ q: { type: 'string' }, limit: { type: 'number', ...limit } }, ['q', 'limit']);

  it.each([
    ['`deprecated: true`', { deprecated: true }],
    ['`_meta` with deprecated', { _meta: { deprecated: true } }],
    ['a description that starts "Deprecated:"', { description: 'Deprecated: the server pages by itself.' }],
  ])('a required argument the baseline marked by %s and the candidate removed: argument-removed-after-deprecation, Hold', (_, mark) => {
    const changes = diffContracts(
      contractOf(tool('search', args(mark))),
      contractOf(tool('search', obj({ q: { type: 'string' } }, ['q']))),
    );
    expect(pairs(changes)).toEqual([['argument-removed-after-deprecation', 'breaking', 'search', '/inputSchema/properties/limit']]);
    expect(changes[0]!.message).toBe('Argument "limit" of tool "search" was removed after the baseline marked it deprecated.');
    expect(verdict(changes)).toBe('Hold');
    expect(verdict(changes, allCalm(changes))).toBe('Promote');
  });

  it('an unmarked required argument removed stays required-argument-removed: Rollback, whatever the calm removals say', () => {
    const changes = diffContracts(contractOf(tool('search', args({}))), contractOf(tool('search', obj({ q: { type: 'string' } }, ['q']))));
    expect(pairs(changes)).toEqual([['required-argument-removed', 'breaking', 'search', '/inputSchema/properties/limit']]);
    expect(verdict(changes, new Map([[removalKey(changes[0]!), 'old enough']]))).toBe('Rollback');
  });

  it.each([
    ['optional', [], 'dangerous'],
    ['required', ['limit'], 'breaking'],
  ])(
    'a marked %s argument removed from a closed schema is held, not rolled back by its witness; calm past the window',
    (_, required, severity) => {
      const before = obj({ q: { type: 'string' }, limit: { type: 'number', deprecated: true } }, ['q', ...required], {
        additionalProperties: false,
      });
      const after = obj({ q: { type: 'string' } }, ['q'], { additionalProperties: false });
      const changes = diffContracts(contractOf(tool('search', before)), contractOf(tool('search', after)));
      expect(pairs(changes)).toEqual([['argument-removed-after-deprecation', severity, 'search', '/inputSchema/properties/limit']]);
      expect(changes[0]!.message).toContain('a caller that still sends it is refused');
      expect(verdict(changes)).toBe('Hold');
      expect(verdict(changes, allCalm(changes))).toBe('Promote');
    },
  );

  it('a marked prompt removed: prompt-removed-after-deprecation, Hold, calm past the window; an unmarked one stays a Rollback', () => {
    const marked = { name: 'summarize', title: 'Summarize (Deprecated)', arguments: [{ name: 'text', required: true }] };
    const changes = diffContracts(withPrompts([marked, { name: 'keep' }]), withPrompts([{ name: 'keep' }]));
    expect(changes.map((c) => [c.code, c.severity, c.path])).toEqual([
      ['prompt-removed-after-deprecation', 'breaking', '/prompts/summarize'],
    ]);
    expect(changes[0]!.message).toBe('Prompt "summarize" was removed after the baseline marked it deprecated.');
    expect(verdict(changes)).toBe('Hold');
    expect(verdict(changes, allCalm(changes))).toBe('Promote');
    const unmarked = diffContracts(withPrompts([{ ...marked, title: 'Summarize' }, { name: 'keep' }]), withPrompts([{ name: 'keep' }]));
    expect(unmarked.map((c) => c.code)).toEqual(['prompt-removed']);
    expect(verdict(unmarked, allCalm(unmarked))).toBe('Rollback');
  });

  it('a prompt marked by `_meta` is marked, through the slimming discovery does, and its removal is the lifecycle code', () => {
    const listed = (meta: Record<string, unknown> | undefined) =>
      slimFeatureEntry({ name: 'outline', description: 'Outlines a topic.', ...(meta && { _meta: meta }), arguments: [] }) as Record<
        string,
        unknown
      >;
    const plain = withPrompts([listed(undefined)]);
    const vendor = withPrompts([listed({ 'com.example/deprecated': true, other: 'x'.repeat(10_000) })]);
    expect(listed({ deprecated: true })._meta).toEqual({ deprecated: true });
    expect(listed({ other: 1 })._meta).toBeUndefined();
    expect(plain.features!.prompts![0]!.hash).toBe(
      withPrompts([{ name: 'outline', description: 'Outlines a topic.', arguments: [] }]).features!.prompts![0]!.hash,
    );
    expect(diffContracts(plain, vendor).map((c) => [c.code, c.path, c.after])).toEqual([
      ['deprecation-marked', '/prompts/outline', '_meta'],
    ]);
    expect(diffContracts(vendor, withPrompts([])).map((c) => c.code)).toEqual(['prompt-removed-after-deprecation']);
  });

  it('a marked prompt argument removed: prompt-argument-removed-after-deprecation; an unmarked one stays prompt-argument-removed', () => {
    const before = withPrompts([
      { name: 'p', arguments: [{ name: 'old', description: 'Deprecated: ignored.', required: true }, { name: 'plain' }] },
    ]);
    const changes = diffContracts(before, withPrompts([{ name: 'p', arguments: [] }]));
    expect(changes.map((c) => [c.code, c.severity, c.path])).toEqual([
      ['prompt-argument-removed-after-deprecation', 'breaking', '/prompts/p/arguments/old'],
      ['prompt-argument-removed', 'dangerous', '/prompts/p/arguments/plain'],
    ]);
    expect(changes[0]!.message).toBe('Argument "old" of prompt "p" was removed after the baseline marked it deprecated.');
  });

  it('the changelog lists a removal after deprecation by what it costs callers, and a new mark under Deprecated', () => {
    const [plain, marked, gone] = [
      contractOf(tool('search', args({}))),
      contractOf(tool('search', args({ deprecated: true }))),
      contractOf(tool('search', obj({ q: { type: 'string' } }, ['q']))),
    ];
    expect(renderChangelog(reportOf(plain, marked))).toContain(
      '### Deprecated\n\n- Argument "limit" of tool "search" is now marked deprecated.',
    );
    expect(renderChangelog(reportOf(marked, gone))).toContain(
      '### Breaking\n\n- Argument "limit" of tool "search" was removed after the baseline marked it deprecated.',
    );
    const removed = diffContracts(marked, gone);
    expect(neededBump(removed)).toBe('major');
  });

  it('the saved reports tell when an argument and a prompt were first marked, from either side of a run of the same server', () => {
    const search = (limit: Record<string, unknown>) => contractOf(tool('search', args(limit)));
    const prompts = (title: string) => withPrompts([{ name: 'summarize', title }]);
    const both = (limit: Record<string, unknown>, title: string): Contract => ({ ...search(limit), features: prompts(title).features! });
    const history = [
      reportOf(both({}, 'Summarize'), both({ deprecated: true }, 'Summarize'), { startedAt: '2026-09-01T08:00:00.000Z' }),
      reportOf(both({ deprecated: true }, 'Summarize'), both({ deprecated: true }, 'Summarize [Deprecated]'), {
        startedAt: '2026-10-15T08:00:00.000Z',
      }),
      reportOf(both({ deprecated: true }, 'Summarize [Deprecated]'), both({}, 'Summarize'), { startedAt: '2026-08-01T08:00:00.000Z' }),
      {
        ...reportOf(both({ deprecated: true }, 'Summarize [Deprecated]'), both({}, ''), { startedAt: '2026-01-01T08:00:00.000Z' }),
        server: 'other',
      },
    ];
    const argument = { tool: 'search', path: '/inputSchema/properties/limit' };
    const prompt = { tool: null, path: '/prompts/summarize' };
    const removed = new Map<string, Subject>([
      [removalKey(argument), { kind: 'tool', tool: 'search', at: ['inputSchema', 'properties', 'limit'] }],
      [removalKey(prompt), { kind: 'prompt', prompt: 'summarize' }],
      [removalKey({ tool: 'search', path: '' }), { kind: 'tool', tool: 'search', at: [] }],
    ]);
    const since = deprecatedSince(history, removed, undefined);
    expect([...since].sort()).toEqual(
      [
        [removalKey(argument), '2026-08-01T08:00:00.000Z'],
        [removalKey(prompt), '2026-08-01T08:00:00.000Z'],
      ].sort(),
    );
    expect(deprecatedSince(history.slice(0, 2), removed, undefined).get(removalKey(prompt))).toBe('2026-10-15T08:00:00.000Z');
    expect(deprecatedSince(history, removed, 'other').get(removalKey(argument))).toBe('2026-01-01T08:00:00.000Z');
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

  it('pre-release tags are ordered as semver §11 says: numbers by value, a number before letters, a longer tag after its prefix', () => {
    // The example of semver §11.4, in order; then identifiers the old text comparison put backwards.
    const order = [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
    ];
    for (let i = 1; i < order.length; i++) {
      expect(checkVersionBump(server(order[i - 1]!), server(order[i]!), reworded).actual, `${order[i - 1]} -> ${order[i]}`).toBe('patch');
      expect(checkVersionBump(server(order[i]!), server(order[i - 1]!), reworded).actual, `${order[i]} -> ${order[i - 1]}`).toBe('lower');
    }
    expect(checkVersionBump(server('2.0.0-1'), server('2.0.0-alpha'), reworded).actual).toBe('patch');
    expect(checkVersionBump(server('1.62.0-alpha-2026-06-29'), server('1.62.0-alpha-2026-07-01'), reworded).actual).toBe('patch');
    expect(checkVersionBump(server('1.62.0-alpha-2026-07-01'), server('1.62.0-alpha-2026-06-29'), reworded).actual).toBe('lower');
  });

  it('pre-release tags of different shapes (a date against a timestamp) cannot be ordered: unreadable, not back', () => {
    const check = checkVersionBump(server('1.62.0-alpha-2026-06-29'), server('1.62.0-alpha-1783623505000'), reworded);
    expect([check.scheme, check.actual, check.findings.map((f) => [f.code, f.severity])]).toEqual([
      'semver',
      null,
      [['version-unreadable', 'safe']],
    ]);
    expect(check.summary).toBe(
      'Versions "1.62.0-alpha-2026-06-29" to "1.62.0-alpha-1783623505000": the same release with pre-release tags "alpha-2026-06-29" and "alpha-1783623505000" of different shapes, which cannot be ordered, so the bump is not checked; the changes call for a patch bump.',
    );
    // Digits in runs of another length are another shape: text would put rc10 before rc9.
    expect(checkVersionBump(server('3.0.0-rc9'), server('3.0.0-rc10'), removed).findings.map((f) => f.code)).toEqual([
      'version-unreadable',
    ]);
    // The release numbers still order what they can: a new minor with such tags moved forward.
    expect(checkVersionBump(server('1.61.0-alpha-2026-06-29'), server('1.62.0-alpha-1783623505000'), added).actual).toBe('minor');
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

  it('the 2.0 beta clients compile output schemas in 2020-12 only: any other declared $schema, and only on the output schema', () => {
    const beta = CLIENT_PROFILES['mcp-client-2-beta'];
    const output = ($schema?: unknown) =>
      clientProblems(beta, 'search', { type: 'object' }, { type: 'object', ...($schema === undefined ? {} : { $schema }) });
    expect(output()).toEqual([]);
    expect(output('https://json-schema.org/draft/2020-12/schema')).toEqual([]);
    expect(output('http://json-schema.org/draft/2020-12/schema#')).toEqual([]);
    expect(output(7)).toEqual([]);
    expect(output('http://json-schema.org/draft-07/schema#')).toEqual([
      'its outputSchema declares "$schema": "http://json-schema.org/draft-07/schema#", which the client does not compile, so every call fails before it is sent',
    ]);
    expect(output('https://json-schema.org/draft/2019-09/schema')).toHaveLength(1);
    expect(clientProblems(beta, 'search', { type: 'object', $schema: 'http://json-schema.org/draft-07/schema#' })).toEqual([]);
    // The SDK 1.x profile judges results, not definitions.
    expect(
      clientProblems(CLIENT_PROFILES['mcp-sdk-1'], 'a.b', { type: 'object' }, { $schema: 'http://json-schema.org/draft-07/schema#' }),
    ).toEqual([]);
  });

  it('a watched client the config does not name reports what it newly refuses, new tools included, and nothing once named', () => {
    const draft07 = { type: 'object', $schema: 'http://json-schema.org/draft-07/schema#' };
    const before = contractOf(
      tool('kept', { type: 'object' }, { outputSchema: draft07 }),
      tool('moved', { type: 'object' }, { outputSchema: { type: 'object' } }),
    );
    const after = contractOf(
      tool('kept', { type: 'object' }, { outputSchema: draft07 }),
      tool('moved', { type: 'object' }, { outputSchema: draft07 }),
      tool('added', { type: 'object' }, { outputSchema: draft07 }),
    );
    const found = watchedClientFindings(before, after, ['mcp-sdk-1']);
    expect(found.map((f) => [f.code, f.severity, f.tool, f.client, f.regression])).toEqual([
      ['client-would-reject-tool', 'dangerous', 'added', 'mcp-client-2-beta', true],
      ['client-would-reject-tool', 'dangerous', 'moved', 'mcp-client-2-beta', true],
    ]);
    expect(found[0]!.message).toMatch(/would reject new tool "added": /);
    expect(found[1]!.message).toMatch(/would reject tool "moved", which it accepted on the baseline: /);
    expect(watchedClientFindings(before, after, ['mcp-client-2-beta'])).toEqual([]);
  });

  it('the SDK 1.x client refuses an error result whose structuredContent fails the outputSchema; nothing else the gate does not already say', () => {
    const orders = contractOf(tool('get', { type: 'object' }, { outputSchema: obj({ id: { type: 'string' } }, ['id']) })).tools[0]!;
    const observed = (result: Record<string, unknown>) => ({ caseId: 'C1', tool: 'get', args: {}, result, resultBytes: 0 });
    const refused = (result: Record<string, unknown>, clients: ClientName[] = ['mcp-sdk-1'], nodes = 20_000) =>
      clientResultFindings(observed(result), orders, 'candidate', clients, nodes).map((f) => [
        f.code,
        f.severity,
        f.client,
        f.path,
        f.keyword,
      ]);
    const body = { content: [{ type: 'text', text: 'Error: not found' }], isError: true, structuredContent: { error: 'not found' } };
    expect(refused(body)).toEqual([['client-rejects-result', 'dangerous', 'mcp-sdk-1', '/structuredContent', 'required']]);
    // It tests structuredContent for truth, as the client does; a success is structured-content-invalid's.
    expect(refused({ ...body, structuredContent: null })).toEqual([]);
    expect(refused({ ...body, isError: false })).toEqual([]);
    expect(refused({ ...body, structuredContent: { id: 'A1' } })).toEqual([]);
    expect(refused(body, ['openai'])).toEqual([]);
    expect(refused(body, ['mcp-sdk-1'], 1)).toEqual([]);
  });

  it('one finding per client and tool, naming both, sorted by client', () => {
    const contract = contractOf(tool('a.b'), tool('ok', obj({ q: { type: 'string' } }, ['q'], { additionalProperties: false })));
    expect(clientFindings(contract, 'candidate', ['openai-strict', 'anthropic']).map((f) => [f.code, f.client, f.tool])).toEqual([
      ['client-rejects-tool', 'anthropic', 'a.b'],
      ['client-rejects-tool', 'openai-strict', 'a.b'],
    ]);
  });
});
