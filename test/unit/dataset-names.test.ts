import { describe, expect, it } from 'vitest';
import { closest } from '../../src/base/closest.js';
import { datasetNameProblems } from '../../src/cases/names.js';
import type { Case, Dataset } from '../../src/cases/types.js';
import { contractOf, tool } from '../helpers/contracts.js';

const dataset = (...cases: Partial<Case>[]): Dataset => ({
  file: 'd.cases.yaml',
  role: 'r',
  cases: cases.map((c, i) => ({ id: `C-${i}`, userTask: 't', requiredTools: [], ...c })),
});
const context7 = contractOf(
  tool('resolve-library-id', { type: 'object', properties: { libraryName: { type: 'string' } } }),
  tool('get-library-docs'),
);

describe('dataset names that match nothing real (a published server, Context7, as the example)', () => {
  it('a toolName no side exposes is a problem with the real name suggested, e.g. resolve-library for resolve-library-id', () => {
    const { problems } = datasetNameProblems(
      [dataset({ requiredTools: [{ toolName: 'resolve-library', probeArguments: { libraryName: 'react' } }] })],
      [context7, context7],
      true,
    );
    expect(problems.map((p) => [p.path, p.message])).toEqual([
      [
        'cases[0].requiredTools[0].toolName',
        'names tool "resolve-library", which neither side exposes (did you mean "resolve-library-id"?)',
      ],
    ]);
  });

  it('a tool the server itself names but lists on neither side is a task it does not cover: a note, not a problem', () => {
    const pointing = contractOf(
      tool('resolve-library-id', { type: 'object' }, { description: 'Resolve a name, then call get_library_docs with the id.' }),
    );
    const { problems, notes } = datasetNameProblems(
      [dataset({ requiredTools: [{ toolName: 'get_library_docs' }] }, { requiredTools: [{ toolName: 'get_library_doc' }] })],
      [pointing, pointing],
      true,
    );
    // The name the server sends the model to is coverage; a near miss of it is still a typo.
    expect(notes).toEqual([
      'd.cases.yaml: case C-0 needs get_library_docs, which the server names but neither side lists: a task it does not cover (tool-reference-missing)',
    ]);
    expect(problems.map((p) => p.path)).toEqual(['cases[1].requiredTools[0].toolName']);
  });

  it('with nothing close, it lists what the sides expose instead', () => {
    const { problems } = datasetNameProblems([dataset({ requiredTools: [{ toolName: 'search_everything' }] })], [context7, context7], true);
    expect(problems.map((p) => p.message)).toEqual([
      'names tool "search_everything", which neither side exposes; the sides expose: get-library-docs, resolve-library-id',
    ]);
  });

  it('a tool only one side has is fine, and tool names are not judged with the candidate unavailable', () => {
    const newer = contractOf(...context7.tools.map((t) => tool(t.name)), tool('query-docs'));
    expect(datasetNameProblems([dataset({ requiredTools: [{ toolName: 'query-docs' }] })], [context7, newer], true).problems).toEqual([]);
    expect(datasetNameProblems([dataset({ requiredTools: [{ toolName: 'query-docs' }] })], [context7], false).problems).toEqual([]);
  });

  it('a forbidden typo of a real tool is a problem; a forbidden name with no near match is a note', () => {
    const result = datasetNameProblems([dataset({ forbiddenTools: ['get-library-doc', 'delete_everything'] })], [context7, context7], true);
    expect(result.problems.map((p) => [p.path, p.message])).toEqual([
      [
        'cases[0].forbiddenTools[0]',
        'forbids tool "get-library-doc", which neither side exposes, so the guard would never fire (did you mean "get-library-docs"?)',
      ],
    ]);
    expect(result.notes).toEqual([
      'd.cases.yaml: case C-0 forbids delete_everything, which neither side exposes yet; the guard fires if a release adds it',
    ]);
  });

  it('cases that forbid the same unexposed name make one note, with their count and the first ids', () => {
    const forbidding = (count: number) => Array.from({ length: count }, () => ({ forbiddenTools: ['delete_everything'] }));
    const many = dataset(...forbidding(5));
    const two = { ...dataset(...forbidding(2)), file: 'e.cases.yaml' };
    expect(datasetNameProblems([many, two], [context7, context7], true).notes).toEqual([
      'd.cases.yaml: 5 cases (C-0, C-1, C-2, ...) forbid delete_everything, which neither side exposes yet; the guard fires if a release adds it',
      'e.cases.yaml: 2 cases (C-0, C-1) forbid delete_everything, which neither side exposes yet; the guard fires if a release adds it',
    ]);
  });

  it('closest: small edits, a fifth of a long name, a prefix, case; nothing for unrelated names', () => {
    expect(closest('querry', ['query', 'status'])).toBe('query');
    expect(closest('Deployments.Rolback', ['Deployments.Rollback', 'Tickets.Search'])).toBe('Deployments.Rollback');
    expect(closest('resolve-library', ['resolve-library-id', 'get-library-docs'])).toBe('resolve-library-id');
    expect(closest('TICKETS.SEARCH', ['Tickets.Search'])).toBe('Tickets.Search');
    expect(closest('delete', ['list', 'get'])).toBeNull();
    expect(closest('ab', ['abcdef'])).toBeNull();
  });
});
