import { safeRegex } from '../base/safe-regex.js';
import { relative } from 'node:path';
import { dotted, InputError, type Problem } from '../base/problems.js';
import { readSource } from '../input/source.js';
import { validateAgainst } from '../input/validate.js';
import type { Case, Dataset, RoleSurface } from './types.js';

type RawRole = string | { name: string; allowedTools?: string[]; maxDestructiveTools?: number };

/** Problems across all files, and what must be unique across them: case ids, and each role's scope. */
interface Loading {
  problems: Problem[];
  ids: Map<string, string>;
  surfaces: Map<string, { file: string; key: string }>;
}

/** A problem at a path of one dataset file; its line is looked up only when there is a problem. */
type At = (path: (string | number)[], message: string) => Problem;

/** Loads and validates every dataset, collecting every problem in every file before failing. */
export function loadDatasets(files: string[], cwd = process.cwd()): Dataset[] {
  const loading: Loading = { problems: [], ids: new Map(), surfaces: new Map() };
  const datasets = files.flatMap((file) => loadDataset(file, relative(cwd, file) || file, loading) ?? []);
  if (loading.problems.length) throw new InputError(loading.problems);
  return datasets;
}

function loadDataset(file: string, display: string, loading: Loading): Dataset | null {
  const parsed = readSource(file, display);
  if (!parsed.ok) {
    loading.problems.push(...parsed.problems);
    return null;
  }
  const schemaProblems = validateAgainst('dataset.schema.json', parsed.source);
  if (schemaProblems.length) {
    loading.problems.push(...schemaProblems);
    return null;
  }
  const { lineOf } = parsed.source;
  const at: At = (path, message) => ({ file: display, line: lineOf(path), path: dotted(path), message });
  const dataset = parsed.source.value as { role: RawRole; cases: Case[] };
  const role = typeof dataset.role === 'string' ? dataset.role : dataset.role.name;
  const surface = typeof dataset.role === 'string' ? undefined : surfaceOf(dataset.role);
  if (surface) checkScope(role, surface, display, at, loading);
  const notes: Problem[] = [];
  dataset.cases.forEach((c, i) => checkCase(c, i, display, at, loading, notes));
  // Where each case and the role's scope are written travels with them, to every format (findings/types.ts Source).
  const source = (path: (string | number)[]) => ({ file: display, line: lineOf(path) ?? 1 });
  dataset.cases.forEach((c, i) => (c.source = source(['cases', i, 'id'])));
  const scoped = surface && { ...surface, source: source(['role']) };
  return { file: display, role, ...(scoped ? { surface: scoped } : {}), cases: dataset.cases, lineOf, notes };
}

/** One role, one allowlist: two files that scope the same role differently would make its verdict depend on file order. */
function checkScope(role: string, surface: RoleSurface, display: string, at: At, loading: Loading): void {
  const key = JSON.stringify(surface);
  const earlier = loading.surfaces.get(role);
  if (earlier && earlier.key !== key)
    loading.problems.push(
      at(
        ['role'],
        `role "${role}" is also scoped in ${earlier.file} with other allowedTools or maxDestructiveTools; scope a role in one dataset and use the string form \`role: ${role}\` elsewhere`,
      ),
    );
  else loading.surfaces.set(role, { file: display, key });
}

/** Checks one case (its id, what it requires, its patterns) and brings old keys up to date in place. */
function checkCase(c: Case, i: number, display: string, at: At, loading: Loading, notes: Problem[]): void {
  const { problems } = loading;
  const earlier = loading.ids.get(c.id);
  if (earlier)
    problems.push(at(['cases', i, 'id'], `duplicate case id "${c.id}" (also in ${earlier}); ids must be unique across datasets`));
  loading.ids.set(c.id, display);
  if (c.requiredTools === undefined && c.requiredPrompts === undefined && c.requiredResources === undefined) {
    problems.push(at(['cases', i], 'needs requiredTools, requiredPrompts or requiredResources: what the role depends on'));
  }
  c.requiredTools ??= [];
  (c.requiredResources ?? []).forEach((resource, j) => {
    const where = ['cases', i, 'requiredResources', j];
    if ((resource.uri === undefined) === (resource.uriTemplate === undefined)) {
      problems.push(at(where, 'needs either uri (a resource) or uriTemplate with variables (a template the server lists), not both'));
    } else if (resource.variables !== undefined && resource.uri !== undefined) {
      problems.push(at([...where, 'variables'], 'applies to a uriTemplate; a uri is read as it is'));
    }
  });
  problems.push(...featurePatternProblems(c, i, at));
  c.requiredTools.forEach((tool, j) => checkToolExpectation(tool, ['cases', i, 'requiredTools', j, 'expect'], at, problems, notes));
}

/** The prompts' and resources' `expect.matches` that the gate cannot run in linear time. */
function featurePatternProblems(c: Case, i: number, at: At): Problem[] {
  const featurePatterns = [
    ...(c.requiredPrompts ?? []).map((p, j) => ({
      pattern: p.expect?.matches,
      path: ['cases', i, 'requiredPrompts', j, 'expect', 'matches'],
    })),
    ...(c.requiredResources ?? []).map((r, j) => ({
      pattern: r.expect?.matches,
      path: ['cases', i, 'requiredResources', j, 'expect', 'matches'],
    })),
  ];
  return featurePatterns.flatMap(({ pattern, path }) => {
    const re = pattern === undefined ? null : safeRegex(pattern);
    return typeof re === 'string' ? [at(path, `is not a regular expression the gate can run in linear time: ${re}`)] : [];
  });
}

/** A tool's expectation: the old maxResultBytes renamed (with a note), and its pattern one RE2 can run. */
function checkToolExpectation(
  tool: NonNullable<Case['requiredTools']>[number],
  where: (string | number)[],
  at: At,
  problems: Problem[],
  notes: Problem[],
): void {
  const expect = tool.expect as (typeof tool.expect & { maxResultBytes?: number }) | undefined;
  if (expect?.maxResultBytes !== undefined) {
    const old = [...where, 'maxResultBytes'];
    if (expect.resultBudgetBytes !== undefined)
      problems.push(at(old, 'is the old name of resultBudgetBytes, which is set too; keep only resultBudgetBytes'));
    else notes.push(at(old, 'is deprecated and still read; rename it resultBudgetBytes'));
    expect.resultBudgetBytes ??= expect.maxResultBytes;
    delete expect.maxResultBytes;
  }
  const pattern = tool.expect?.matches;
  if (pattern === undefined) return;
  // Matched on RE2, in linear time (src/base/safe-regex.ts): a pattern it cannot run is the dataset's problem.
  const re = safeRegex(pattern);
  if (typeof re === 'string') {
    problems.push(
      at(
        [...where, 'matches'],
        `is not a regular expression the gate can run in linear time (with repetition, RE2 runs it: no lookaround, no backreferences): ${re}`,
      ),
    );
  }
}

function surfaceOf(role: Exclude<RawRole, string>): RoleSurface {
  return { allowedTools: role.allowedTools ?? null, maxDestructiveTools: role.maxDestructiveTools ?? null };
}

/** Every role a case counts for: its dataset's role first, then the case's own tags. */
export const caseRoles = (dataset: Dataset, spec: Case): string[] => [...new Set([dataset.role, ...(spec.roles ?? [])])];
