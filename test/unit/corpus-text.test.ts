import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildContract } from '../../src/contract/normalize.js';
import { diffContracts } from '../../src/diff/index.js';

/**
 * The poisoning checks on ordinary documentation: every tool of test/corpus (public servers,
 * written outside this project) arrives as a new tool, so all of its text (descriptions of the
 * tool and of every parameter) is checked. Ordinary documentation must not read as an attack.
 */
const CORPUS = join(import.meta.dirname, '../corpus');
const recordings = readdirSync(CORPUS)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((file) => ({ file, tools: (JSON.parse(readFileSync(join(CORPUS, file), 'utf8')) as { tools: unknown[] }).tools }));
const empty = buildContract({ name: null, version: null, protocolVersion: null, instructions: null }, [], {
  pages: 1,
  durationMs: 0,
  errors: [],
});

describe('description-suspicious on the recorded corpus (false-positive rate)', () => {
  it('fires on no tool of 30+ public servers', () => {
    let tools = 0;
    const fired: string[] = [];
    for (const { file, tools: listed } of recordings) {
      const contract = buildContract({ name: null, version: null, protocolVersion: null, instructions: null }, listed, {
        pages: 1,
        durationMs: 0,
        errors: [],
      });
      tools += contract.tools.length;
      for (const c of diffContracts(empty, contract))
        if (c.code === 'description-suspicious') fired.push(`${file} ${c.tool} ${c.path}: ${c.message}`);
    }
    const flaggedTools = new Set(fired.map((f) => f.split(' ').slice(0, 2).join(' '))).size;
    console.log(
      `description-suspicious on the corpus: ${flaggedTools} of ${tools} tools flagged (${((flaggedTools / tools) * 100).toFixed(2)}%), ${fired.length} texts`,
    );
    expect(tools).toBeGreaterThan(500);
    expect(fired).toEqual([]);
  });
});
