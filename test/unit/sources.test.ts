import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { roleFindings } from '../../src/roles/surface.js';
import { roleDefinitions } from '../../src/roles/definitions.js';
import { loadDatasets } from '../../src/cases/load.js';
import { placedIn } from '../../src/contract/places.js';
import { buildFeatures } from '../../src/contract/features.js';
import { readSnapshot, toSnapshot } from '../../src/contract/snapshot.js';
import { diffContracts } from '../../src/diff/index.js';
import { onTool } from '../../src/findings/subject.js';
import { contractOf, obj, tool } from '../helpers/contracts.js';

/** Places travel with the data: recorded as a file is read, carried by what it says (docs/reports.md). */
const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-sources-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sources recorded as files are read', () => {
  it("a dataset's cases at their id line, and a role's scope at its role line", () => {
    writeFileSync(
      join(dir, 'ops.cases.yaml'),
      [
        '# a comment first',
        'role:',
        '  name: ops',
        '  allowedTools: [Tickets.*]',
        'cases:',
        '  - id: A-1',
        '    userTask: one',
        '    requiredTools: [{ toolName: Tickets.Get }]',
        '  -',
        '    userTask: two',
        "    id: 'B-2'",
        '    requiredTools: [{ toolName: Tickets.Get }]',
        '',
      ].join('\n'),
    );
    const [dataset] = loadDatasets([join(dir, 'ops.cases.yaml')], dir);
    expect(dataset!.cases.map((c) => [c.id, c.source])).toEqual([
      ['A-1', { file: 'ops.cases.yaml', line: 6 }],
      ['B-2', { file: 'ops.cases.yaml', line: 11 }],
    ]);
    expect(dataset!.surface!.source).toEqual({ file: 'ops.cases.yaml', line: 3 });
    const [role] = roleDefinitions([dataset!]);
    const leaks = roleFindings(role!, contractOf(tool('Tickets.Get')), contractOf(tool('Tickets.Get'), tool('Deploy')));
    expect(leaks.map((f) => [f.code, f.tool, f.source])).toEqual([['role-surface-leak', 'Deploy', { file: 'ops.cases.yaml', line: 3 }]]);
  });

  it("a snapshot's tools and prompts at their name lines; what it does not list has no place", () => {
    const before = contractOf(tool('a'), tool('b', obj({ q: { type: 'string' } }, ['q'])));
    const features = buildFeatures(
      { capabilities: { prompts: {} }, prompts: [{ name: 'triage', arguments: [] }], resources: [], resourceTemplates: [] },
      [],
    );
    writeFileSync(join(dir, 'base.json'), toSnapshot({ ...before, features }));
    const text = toSnapshot({ ...before, features }).split('\n');
    const lineOf = (needle: string) => text.findIndex((l) => l.includes(needle)) + 1;
    const read = readSnapshot(join(dir, 'base.json'), 'contracts/base.json');
    expect(read.source!.file).toBe('contracts/base.json');
    expect(read.source!.lineOf(onTool('b'))).toBe(lineOf('"name": "b"'));
    expect(read.source!.lineOf({ kind: 'prompt', prompt: 'triage' })).toBe(lineOf('"name": "triage"'));
    expect(read.source!.lineOf(onTool('gone'))).toBeNull();
    // A snapshot read from a git ref: its lines need not be the working tree's, so none are claimed.
    expect(readSnapshot('base.json', 'base.json', text.join('\n')).source).toBeUndefined();
    // Changes are placed where the baseline snapshot writes their subject; one with a place keeps it.
    const after = contractOf(
      tool('a'),
      tool('b', obj({ q: { type: 'string' }, r: { type: 'string' } }, ['q', 'r'])),
      tool('c', obj({}), { annotations: { readOnlyHint: true } }),
    );
    const placed = diffContracts(read, after).map(placedIn(read.source));
    expect(placed.map((c) => [c.code, c.source?.line ?? null])).toEqual([
      ['required-argument-added', lineOf('"name": "b"')],
      ['tool-added', null],
    ]);
    const own = { subject: onTool('b'), source: { file: 'datasets/x.yaml', line: 3 } };
    expect(placedIn(read.source)(own)).toBe(own);
  });
});
