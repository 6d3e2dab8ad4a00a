import { dotted, type Problem } from '../config/problems.js';
import type { Contract, ContractTool } from '../contract/types.js';
import { closest } from '../closest.js';
import { unlistedToolMentions } from '../audit/references.js';
import type { Dataset } from './types.js';

/**
 * Names in a dataset that match nothing real. A typo (`resolve-library` for `resolve-library-id`,
 * `serviceNme`) would fail its case on both sides and blame the candidate for a mistake in the
 * dataset, or, in `forbiddenTools`, quietly guard nothing. Once the contracts are known, such names
 * are input problems instead (exit 3), each with the file, line and path, and the closest real name.
 *
 * - A `requiredTools[].toolName` that neither side exposes. Judged only when both contracts are
 *   known: with the candidate unavailable, the tool may be one it was meant to add. A name the
 *   server itself sends the model to (in its instructions or a description) is no typo but a task
 *   the server does not cover: the audit's `tool-reference-missing` says so, the case runs and
 *   fails on both sides, and `notes` tells the progress log.
 * - A `forbiddenTools` name that neither side exposes but that is close to a tool one side does
 *   expose: a typo of a real tool. A forbidden name with no near match is a guard against a tool
 *   that may come (the example forbids `Deployments.Rollback`, which only the bad release has), so
 *   it is kept, and told in `notes` for the progress log.
 * - An argument name that no side's schema of that tool knows. One side knowing it is fine: a
 *   dataset may be written ahead of the candidate, or keep an argument the candidate dropped (a
 *   finding, not a typo). Tools no side has, and schemas that list no properties, say nothing
 *   about names, so they are skipped.
 */
export function datasetNameProblems(
  datasets: Dataset[],
  contracts: Contract[],
  bothSides: boolean,
): { problems: Problem[]; notes: string[] } {
  const problems: Problem[] = [];
  const notes: string[] = [];
  const sides = contracts.map((c) => new Map(c.tools.map((t) => [t.name, t])));
  const exposed = [...new Set(contracts.flatMap((c) => c.tools.map((t) => t.name)))].sort();
  const anywhere = (tool: string) => sides.some((side) => side.has(tool));
  const mentioned = new Set(contracts.flatMap((c) => unlistedToolMentions(c, 'candidate').map((f) => f.tool)));
  // Each unknown name is looked up once, however many cases repeat it.
  const hints = new Map<string, string | null>();
  const closestTool = (name: string) => (hints.has(name) ? hints.get(name)! : hints.set(name, closest(name, exposed)).get(name)!);
  const problem = (dataset: Dataset, path: (string | number)[], message: string) =>
    problems.push({ file: dataset.file, line: dataset.lineOf?.(path) ?? null, path: dotted(path), message });
  for (const dataset of datasets) {
    dataset.cases.forEach((spec, i) => {
      spec.requiredTools.forEach((required, j) => {
        const where = ['cases', i, 'requiredTools', j];
        if (bothSides && !anywhere(required.toolName) && mentioned.has(required.toolName)) {
          notes.push(
            `${dataset.file}: case ${spec.id} needs ${required.toolName}, which the server names but neither side lists: a task it does not cover (tool-reference-missing)`,
          );
          return;
        }
        if (bothSides && !anywhere(required.toolName)) {
          const hint = closestTool(required.toolName);
          problem(
            dataset,
            [...where, 'toolName'],
            `names tool "${required.toolName}", which neither side exposes${hint ? ` (did you mean "${hint}"?)` : `; the sides expose: ${listed(exposed)}`}`,
          );
          return;
        }
        const known = knownArguments(required.toolName, sides);
        if (!known) return;
        const check = (name: string, path: (string | number)[]) => {
          if (known.has(name)) return;
          const hint = closest(name, [...known]);
          problem(
            dataset,
            path,
            `names argument "${name}", which ${required.toolName} does not have on either side; expected one of: ${[...known].sort().join(', ')}${hint ? ` (did you mean "${hint}"?)` : ''}`,
          );
        };
        (required.requiredArguments ?? []).forEach((name, k) => check(name, [...where, 'requiredArguments', k]));
        for (const name of Object.keys(required.probeArguments ?? {})) check(name, [...where, 'probeArguments', name]);
      });
      // A prompt that neither side lists, when both lists are known, is a typo, not a regression.
      const promptLists = contracts.map((c) => c.features?.prompts ?? null);
      if (bothSides && promptLists.every((list) => list !== null)) {
        const prompts = [...new Set(promptLists.flatMap((list) => list!.map((p) => p.name)))].sort();
        (spec.requiredPrompts ?? []).forEach((required, j) => {
          if (prompts.includes(required.name)) return;
          const hint = closest(required.name, prompts);
          problem(
            dataset,
            ['cases', i, 'requiredPrompts', j, 'name'],
            `names prompt "${required.name}", which neither side lists${hint ? ` (did you mean "${hint}"?)` : `; the sides list: ${listed(prompts)}`}`,
          );
        });
      }
      (spec.forbiddenTools ?? []).forEach((name, k) => {
        if (anywhere(name)) return;
        const hint = closestTool(name);
        if (hint)
          problem(
            dataset,
            ['cases', i, 'forbiddenTools', k],
            `forbids tool "${name}", which neither side exposes, so the guard would never fire (did you mean "${hint}"?)`,
          );
        else
          notes.push(
            `${dataset.file}: case ${spec.id} forbids ${name}, which neither side exposes yet; the guard fires if a release adds it`,
          );
      });
    });
  }
  return { problems, notes: [...new Set(notes)] };
}

const listed = (names: string[]) =>
  names.length > 12 ? `${names.slice(0, 12).join(', ')} and ${names.length - 12} more` : names.join(', ') || 'no tools';

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
