import { safeRegex } from '../safe-regex.js';
import { relative } from 'node:path';
import { dotted, InputError, type Problem } from '../config/problems.js';
import { readSource } from '../config/source.js';
import { validateAgainst } from '../config/validate.js';
import type { Case, Dataset, RoleSurface } from './types.js';

type RawRole = string | { name: string; allowedTools?: string[]; maxDestructiveTools?: number };

/** Loads and validates every dataset, collecting every problem in every file before failing. */
export function loadDatasets(files: string[], cwd = process.cwd()): Dataset[] {
  const problems: Problem[] = [];
  const notes: Problem[] = [];
  const datasets: Dataset[] = [];
  const ids = new Map<string, string>();
  const surfaces = new Map<string, { file: string; key: string }>();
  for (const file of files) {
    const display = relative(cwd, file) || file;
    const parsed = readSource(file, display);
    if (!parsed.ok) {
      problems.push(...parsed.problems);
      continue;
    }
    const schemaProblems = validateAgainst('dataset.schema.json', parsed.source);
    if (schemaProblems.length) {
      problems.push(...schemaProblems);
      continue;
    }
    const dataset = parsed.source.value as { role: RawRole; cases: Case[] };
    const role = typeof dataset.role === 'string' ? dataset.role : dataset.role.name;
    const surface = typeof dataset.role === 'string' ? undefined : surfaceOf(dataset.role);
    if (surface) {
      // One role, one allowlist: two files that scope the same role differently would make its verdict depend on file order.
      const key = JSON.stringify(surface);
      const earlier = surfaces.get(role);
      if (earlier && earlier.key !== key)
        problems.push({
          file: display,
          line: parsed.source.lineOf(['role']),
          path: 'role',
          message: `role "${role}" is also scoped in ${earlier.file} with other allowedTools or maxDestructiveTools; scope a role in one dataset and use the string form \`role: ${role}\` elsewhere`,
        });
      else surfaces.set(role, { file: display, key });
    }
    dataset.cases.forEach((c, i) => {
      const earlier = ids.get(c.id);
      // Lines are looked up only for a problem.
      if (earlier)
        problems.push({
          file: display,
          line: parsed.source.lineOf(['cases', i, 'id']),
          path: `cases[${i}].id`,
          message: `duplicate case id "${c.id}" (also in ${earlier}); ids must be unique across datasets`,
        });
      ids.set(c.id, display);
      const at = (path: (string | number)[], message: string): Problem => ({
        file: display,
        line: parsed.source.lineOf(path),
        path: dotted(path),
        message,
      });
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
      for (const { pattern, path } of featurePatterns) {
        const re = pattern === undefined ? null : safeRegex(pattern);
        if (typeof re === 'string') problems.push(at(path, `is not a regular expression the gate can run in linear time: ${re}`));
      }
      c.requiredTools.forEach((tool, j) => {
        const expect = tool.expect as (typeof tool.expect & { maxResultBytes?: number }) | undefined;
        if (expect?.maxResultBytes !== undefined) {
          const where = ['cases', i, 'requiredTools', j, 'expect', 'maxResultBytes'] as const;
          const at = {
            file: display,
            line: parsed.source.lineOf([...where]),
            path: `cases[${i}].requiredTools[${j}].expect.maxResultBytes`,
          };
          if (expect.resultBudgetBytes !== undefined)
            problems.push({ ...at, message: 'is the old name of resultBudgetBytes, which is set too; keep only resultBudgetBytes' });
          else notes.push({ ...at, message: 'is deprecated and still read; rename it resultBudgetBytes' });
          expect.resultBudgetBytes ??= expect.maxResultBytes;
          delete expect.maxResultBytes;
        }
        const pattern = tool.expect?.matches;
        if (pattern === undefined) return;
        // Matched on RE2, in linear time (src/safe-regex.ts): a pattern it cannot run is the dataset's problem.
        const re = safeRegex(pattern);
        if (typeof re === 'string') {
          problems.push({
            file: display,
            line: parsed.source.lineOf(['cases', i, 'requiredTools', j, 'expect', 'matches']),
            path: `cases[${i}].requiredTools[${j}].expect.matches`,
            message: `is not a regular expression the gate can run in linear time (with repetition, RE2 runs it: no lookaround, no backreferences): ${re}`,
          });
        }
      });
    });
    datasets.push({
      file: display,
      role,
      ...(surface ? { surface } : {}),
      cases: dataset.cases,
      lineOf: parsed.source.lineOf,
      notes: notes.splice(0),
    });
  }
  if (problems.length) throw new InputError(problems);
  return datasets;
}

function surfaceOf(role: Exclude<RawRole, string>): RoleSurface {
  return { allowedTools: role.allowedTools ?? null, maxDestructiveTools: role.maxDestructiveTools ?? null };
}

/** Every role a case counts for: its dataset's role first, then the case's own tags. */
export const caseRoles = (dataset: Dataset, spec: Case): string[] => [...new Set([dataset.role, ...(spec.roles ?? [])])];
