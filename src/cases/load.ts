import { relative } from 'node:path';
import { InputError, type Problem } from '../config/problems.js';
import { readSource } from '../config/source.js';
import { validateAgainst } from '../config/validate.js';
import type { Case, Dataset } from './types.js';

/** Loads and validates every dataset, collecting every problem in every file before failing. */
export function loadDatasets(files: string[], cwd = process.cwd()): Dataset[] {
  const problems: Problem[] = [];
  const datasets: Dataset[] = [];
  const ids = new Map<string, string>();
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
    const dataset = parsed.source.value as { role: string; cases: Case[] };
    dataset.cases.forEach((c, i) => {
      const earlier = ids.get(c.id);
      // Lines are looked up only for a problem: finding them means parsing the file again.
      if (earlier) problems.push({ file: display, line: parsed.source.lineOf(['cases', i, 'id']), path: `cases[${i}].id`, message: `duplicate case id "${c.id}" (also in ${earlier}); ids must be unique across datasets` });
      ids.set(c.id, display);
      c.requiredTools.forEach((tool, j) => {
        const pattern = tool.expect?.matches;
        if (pattern === undefined) return;
        try {
          new RegExp(pattern);
        } catch (error) {
          problems.push({ file: display, line: parsed.source.lineOf(['cases', i, 'requiredTools', j, 'expect', 'matches']), path: `cases[${i}].requiredTools[${j}].expect.matches`, message: `is not a valid regular expression: ${(error as Error).message}` });
        }
      });
    });
    datasets.push({ file: display, role: dataset.role, cases: dataset.cases, lineOf: parsed.source.lineOf });
  }
  if (problems.length) throw new InputError(problems);
  return datasets;
}
