import { describe, expect, it } from 'vitest';
import { diffContracts } from '../../src/diff/index.js';
import { contractOfRecording } from '../helpers/releases.js';

// test/fixtures/releases/record.mjs records the prompts and resources a server lists (since the
// tenth held-out set), so a recorded pair is judged on what a live run compares; the recordings made
// before hold tools only and are judged on their tools, as a snapshot is.
const tools = [{ name: 'search_docs', description: 'Search the docs.', inputSchema: { type: 'object' } }];
const page = (uri: string) => ({ uri, name: uri.slice(uri.lastIndexOf('/') + 1), mimeType: 'text/markdown' });
const recording = (resources: string[], extra: Record<string, unknown> = {}) => ({
  serverInfo: { name: 'docs', version: '1' },
  capabilities: { tools: {}, resources: {} },
  tools,
  prompts: null,
  resources: resources.map(page),
  resourceTemplates: [],
  ...extra,
});

describe('recorded releases compare what their recordings hold', () => {
  it('a doc page the newer recording no longer lists is compared as a live run compares it; one it adds is resource-added', () => {
    const before = contractOfRecording(recording(['docs:///a', 'docs:///b', 'spec://openapi']));
    const after = contractOfRecording(recording(['docs:///a', 'docs:///c']));
    expect(diffContracts(before, after).map((c) => [c.code, c.before ?? c.after])).toEqual([
      ['resource-removed', 'spec://openapi'],
      ['resource-entry-removed', 'docs:///b'],
      ['resource-added', 'docs:///c'],
    ]);
  });

  it('recordings of tools only (the older recorder) compare tools only, whatever capabilities they declare', () => {
    const old = (capabilities: unknown) => ({ serverInfo: { name: 'docs', version: '1' }, capabilities, tools });
    const [before, after] = [contractOfRecording(old({ tools: {}, resources: {} })), contractOfRecording(old({ tools: {} }))];
    expect(before.features).toBeUndefined();
    expect(diffContracts(before, after)).toEqual([]);
  });
});
