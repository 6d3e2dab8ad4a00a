import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { stringify } from 'yaml';
import { loadDatasets } from '../../src/cases/load.js';
import { loadConfig } from '../../src/config/load.js';
import { InputError } from '../../src/base/problems.js';
import { readSnapshot, toSnapshot } from '../../src/contract/snapshot.js';
import { readReport } from '../../src/report/read.js';
import { ROOT } from '../helpers/cli.js';
import { contractOf, obj, tool } from '../helpers/contracts.js';
import { property, runs } from '../helpers/property.js';

/**
 * Random YAML and JSON never make a loader throw anything but an InputError, and an InputError
 * always carries at least one problem that names the file. Inputs are random text, random JSON
 * values, and valid files with random edits (the realistic case: a file someone half-fixed).
 */
const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-fuzz-'));
const RUNS = 150;

/** A load either succeeds (fine: random input can be valid) or fails with problems that name where they come from. */
function expectCleanFailure(load: () => unknown, file: string | RegExp): void {
  try {
    load();
  } catch (error) {
    if (!(error instanceof InputError)) throw new Error(`not an InputError: ${(error as Error)?.stack ?? String(error)}`, { cause: error });
    expect(error.problems.length).toBeGreaterThan(0);
    for (const p of error.problems) expect(p.file.length).toBeGreaterThan(0);
    expect(error.problems.map((p) => p.file).some((f) => (typeof file === 'string' ? f.includes(file) : file.test(f)))).toBe(true);
  }
}

/** A valid file with a random edit: a slice deleted, or random text inserted, at a random place. */
const edited = (valid: string) =>
  fc.oneof(
    fc.tuple(fc.nat(valid.length), fc.nat(40)).map(([at, n]) => valid.slice(0, at) + valid.slice(at + n)),
    fc
      .tuple(fc.nat(valid.length), fc.string({ unit: fc.constantFrom(...':-[]{}"\'#&*!|>%@`\n\t ,?'.split(''), 'a', '1', 'true', 'null') }))
      .map(([at, s]) => valid.slice(0, at) + s + valid.slice(at)),
  );

const texts = (valid: string) =>
  fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.jsonValue().map((v) => stringify(v)),
    edited(valid),
  );

let counter = 0;
const writeTemp = (name: string, text: string) => {
  const file = join(dir, `${counter++}-${name}`);
  writeFileSync(file, text);
  return file;
};

describe('the loaders take any input without crashing', () => {
  property('config: random text, JSON values and edited valid configs', () => {
    const valid = readFileSync(join(ROOT, 'gate.config.yaml'), 'utf8');
    fc.assert(
      fc.property(texts(valid), (text) => {
        const file = writeTemp('gate.config.yaml', text);
        expectCleanFailure(() => loadConfig(file, {}, {}, dir), 'gate.config.yaml');
      }),
      { numRuns: runs(RUNS) },
    );
  });

  property('config: random MCPGATE_ environment overrides', () => {
    const file = join(ROOT, 'gate.config.yaml');
    const key = fc.constantFrom(
      'CANDIDATE',
      'REPORTS__DIR',
      'TIMEOUTS__STARTUP_MS',
      'PROMOTION__RULES__TOOL_REMOVED',
      'PROFILES__BASELINE__ARGS',
      'PROFILES__NEW__COMMAND',
      'LIMITS',
      'CASES__CONCURRENCY',
      'PROMOTION__EXCEPTIONS',
      'X__Y__Z',
    );
    fc.assert(
      fc.property(
        fc.dictionary(
          key,
          fc.oneof(
            fc.string(),
            fc.jsonValue().map((v) => JSON.stringify(v)),
          ),
        ),
        (vars) => {
          const env = Object.fromEntries(Object.entries(vars).map(([k, v]) => [`MCPGATE_${k}`, v]));
          expectCleanFailure(() => loadConfig(file, env, {}, ROOT), /gate\.config\.yaml|^environment MCPGATE_/);
        },
      ),
      { numRuns: runs(RUNS) },
    );
  });

  property('datasets: random text, JSON values and edited valid datasets', () => {
    const valid = readFileSync(join(ROOT, 'datasets/support-ops.cases.yaml'), 'utf8');
    fc.assert(
      fc.property(texts(valid), (text) => {
        const file = writeTemp('cases.yaml', text);
        expectCleanFailure(() => loadDatasets([file], dir), 'cases.yaml');
      }),
      { numRuns: runs(RUNS) },
    );
  });

  property('snapshots: random text, JSON values, edited snapshots and random tool lists', () => {
    const valid = toSnapshot(
      contractOf(tool('a', obj({ q: { type: 'string' } }, ['q'])), tool('b', { type: 'object' }, { annotations: { readOnlyHint: true } })),
    );
    const randomTools = fc
      .array(fc.jsonValue(), { maxLength: 5 })
      .map((tools) => JSON.stringify({ kind: 'mcp-gate/contract', schemaVersion: 1, tools }));
    fc.assert(
      fc.property(fc.oneof(texts(valid), randomTools), (text) => {
        const file = writeTemp('snapshot.json', text);
        expectCleanFailure(() => readSnapshot(file, file), 'snapshot.json');
      }),
      { numRuns: runs(RUNS) },
    );
  });

  property('reports: random text, JSON values and edited reports', () => {
    const valid = readFileSync(join(ROOT, 'docs/examples/support-ops-rollback.report.json'), 'utf8');
    fc.assert(
      fc.property(texts(valid), (text) => {
        const file = writeTemp('report.json', text);
        expectCleanFailure(() => readReport(file, dir), 'report.json');
      }),
      { numRuns: runs(RUNS) },
    );
  });
});
