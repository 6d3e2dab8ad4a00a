import type { Problem } from '../config/problems.js';
import type { Contract, ContractTool } from '../contract/types.js';
import type { Dataset } from './types.js';

/**
 * A dataset that names an argument no side's schema knows (a typo such as `serviceNme`) would fail
 * its case on both sides, and the verdict would blame the candidate for a mistake in the dataset.
 * Once the contracts are known, such names are input problems instead (exit 3), each with the
 * file, line and path, and the closest real argument.
 *
 * An argument one side knows is fine: a dataset may be written ahead of the candidate, or keep an
 * argument the candidate dropped (that is a finding, not a typo). Tools no side has, and schemas
 * that list no properties, say nothing about names, so they are skipped.
 */
export function argumentNameProblems(datasets: Dataset[], contracts: Contract[]): Problem[] {
  const problems: Problem[] = [];
  const sides = contracts.map((c) => new Map(c.tools.map((t) => [t.name, t])));
  for (const dataset of datasets) {
    dataset.cases.forEach((spec, i) => {
      spec.requiredTools.forEach((required, j) => {
        const known = knownArguments(required.toolName, sides);
        if (!known) return;
        const where = ['cases', i, 'requiredTools', j] as const;
        const check = (name: string, path: (string | number)[], field: string) => {
          if (known.has(name)) return;
          const hint = closest(name, [...known]);
          problems.push({
            file: dataset.file,
            line: dataset.lineOf?.(path) ?? null,
            path: `cases[${i}].requiredTools[${j}].${field}`,
            message: `names argument "${name}", which ${required.toolName} does not have on either side; expected one of: ${[...known].sort().join(', ')}${hint ? ` (did you mean "${hint}"?)` : ''}`,
          });
        };
        (required.requiredArguments ?? []).forEach((name, k) => check(name, [...where, 'requiredArguments', k], `requiredArguments[${k}]`));
        for (const name of Object.keys(required.probeArguments ?? {})) check(name, [...where, 'probeArguments', name], `probeArguments.${name}`);
      });
    });
  }
  return problems;
}

/** Argument names of a tool across the sides that have it, or null when names cannot be judged. */
function knownArguments(tool: string, sides: Map<string, ContractTool>[]): Set<string> | null {
  const names = new Set<string>();
  let found = false;
  for (const side of sides) {
    const schema = side.get(tool)?.inputSchema;
    if (!schema) continue;
    const properties = schema.properties;
    if (properties === null || typeof properties !== 'object' || schema.additionalProperties === true) return null;
    if (!Object.keys(properties).length && schema.additionalProperties !== false) return null;
    found = true;
    for (const name of Object.keys(properties)) names.add(name);
  }
  return found ? names : null;
}

/** The known name within edit distance 2 of `name` (case-insensitive), if there is exactly one best. */
function closest(name: string, known: string[]): string | null {
  let best: string | null = null;
  let bestDistance = 3;
  for (const candidate of known) {
    const d = distance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}
