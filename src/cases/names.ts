import { dotted, type Problem } from '../base/problems.js';
import type { Contract, ContractTool, Features } from '../contract/types.js';
import { closest } from '../base/closest.js';
import { unlistedMentions } from '../contract/mentions.js';
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
  const known = knownNames(contracts, bothSides);
  for (const dataset of datasets) {
    const problem = (path: (string | number)[], message: string) =>
      known.problems.push({ file: dataset.file, line: dataset.lineOf?.(path) ?? null, path: dotted(path), message });
    dataset.cases.forEach((spec, i) => {
      const at = { dataset, spec, problem };
      spec.requiredTools.forEach((required, j) => checkRequiredTool(required, ['cases', i, 'requiredTools', j], at, known));
      // A prompt or template that neither side lists, when both lists are known, is a typo, not a regression.
      const unlisted = (kind: 'prompt' | 'resource template', name: string, names: string[] | null, path: (string | number)[]) => {
        if (!names || names.includes(name)) return;
        const hint = closest(name, names);
        problem(
          path,
          `names ${kind} "${name}", which neither side lists${hint ? ` (did you mean "${hint}"?)` : `; the sides list: ${listed(names, `${kind}s`)}`}`,
        );
      };
      (spec.requiredPrompts ?? []).forEach((required, j) =>
        unlisted('prompt', required.name, known.prompts, ['cases', i, 'requiredPrompts', j, 'name']),
      );
      // A resource by uri may be read without being listed (servers serve more than they list), so only templates are named.
      (spec.requiredResources ?? []).forEach((required, j) => {
        if (required.uriTemplate !== undefined)
          unlisted('resource template', required.uriTemplate, known.templates, ['cases', i, 'requiredResources', j, 'uriTemplate']);
      });
      (spec.forbiddenTools ?? []).forEach((name, k) => {
        if (known.anywhere(name)) return;
        const hint = known.closestTool(name);
        if (hint)
          problem(
            ['cases', i, 'forbiddenTools', k],
            `forbids tool "${name}", which neither side exposes, so the guard would never fire (did you mean "${hint}"?)`,
          );
        else guardNote(known, dataset.file, name, spec.id);
      });
    });
  }
  return { problems: known.problems, notes: [...new Set(known.notes.map((note) => (typeof note === 'string' ? note : guardText(note))))] };
}

/** Cases of one file that forbid the same name no side exposes: one note for all of them. */
interface Guard {
  file: string;
  name: string;
  ids: string[];
}

function guardNote(known: Known, file: string, name: string, id: string): void {
  const key = `${file}\u0000${name}`;
  const guard = known.guards.get(key);
  if (guard) {
    // Case ids are unique across datasets: a repeat is the same case naming the tool twice.
    if (guard.ids.at(-1) !== id) guard.ids.push(id);
    return;
  }
  const fresh = { file, name, ids: [id] };
  known.guards.set(key, fresh);
  known.notes.push(fresh);
}

/** At most this many case ids are named in one note; the count says how many there are. */
const GUARD_IDS_SHOWN = 3;

function guardText({ file, name, ids }: Guard): string {
  const cases =
    ids.length === 1
      ? `case ${ids[0]} forbids`
      : `${ids.length} cases (${ids.slice(0, GUARD_IDS_SHOWN).join(', ')}${ids.length > GUARD_IDS_SHOWN ? ', ...' : ''}) forbid`;
  return `${file}: ${cases} ${name}, which neither side exposes yet; the guard fires if a release adds it`;
}

/** What the contracts name, and what the check has found so far. */
function knownNames(contracts: Contract[], bothSides: boolean) {
  const sides = contracts.map((c) => new Map(c.tools.map((t) => [t.name, t])));
  const exposed = [...new Set(contracts.flatMap((c) => c.tools.map((t) => t.name)))].sort();
  // Each unknown name is looked up once, however many cases repeat it.
  const hints = new Map<string, string | null>();
  // Every name of one kind either side lists, when both lists are known.
  const bothListed = (namesOf: (features: Features) => string[] | undefined): string[] | null => {
    const lists = contracts.map((c) => (c.features ? namesOf(c.features) : undefined));
    return bothSides && lists.every((l) => l !== undefined) ? [...new Set(lists.flat() as string[])].sort() : null;
  };
  return {
    bothSides,
    sides,
    exposed,
    anywhere: (tool: string) => sides.some((side) => side.has(tool)),
    mentioned: new Set(contracts.flatMap((c) => unlistedMentions(c).map(([name]) => name))),
    closestTool: (name: string) => (hints.has(name) ? hints.get(name)! : hints.set(name, closest(name, exposed)).get(name)!),
    prompts: bothListed((f) => f.prompts?.map((p) => p.name)),
    templates: bothListed((f) => f.resourceTemplates?.map((t) => t.uriTemplate)),
    problems: [] as Problem[],
    /** In the order found; a forbidden name no side exposes is one note per file and name. */
    notes: [] as (string | Guard)[],
    guards: new Map<string, Guard>(),
  };
}

type Known = ReturnType<typeof knownNames>;
type RequiredTool = Dataset['cases'][number]['requiredTools'][number];

/** A required tool neither side has (a typo, or a task the server names but does not cover), or an argument its schemas do not know. */
function checkRequiredTool(
  required: RequiredTool,
  where: (string | number)[],
  {
    dataset,
    spec,
    problem,
  }: { dataset: Dataset; spec: Dataset['cases'][number]; problem: (path: (string | number)[], message: string) => void },
  known: Known,
): void {
  if (known.bothSides && !known.anywhere(required.toolName) && known.mentioned.has(required.toolName)) {
    known.notes.push(
      `${dataset.file}: case ${spec.id} needs ${required.toolName}, which the server names but neither side lists: a task it does not cover (tool-reference-missing)`,
    );
    return;
  }
  if (known.bothSides && !known.anywhere(required.toolName)) {
    const hint = known.closestTool(required.toolName);
    problem(
      [...where, 'toolName'],
      `names tool "${required.toolName}", which neither side exposes${hint ? ` (did you mean "${hint}"?)` : `; the sides expose: ${listed(known.exposed, 'tools')}`}`,
    );
    return;
  }
  const args = knownArguments(required.toolName, known.sides);
  if (!args) return;
  const check = (name: string, path: (string | number)[]) => {
    if (args.has(name)) return;
    const hint = closest(name, [...args]);
    problem(
      path,
      `names argument "${name}", which ${required.toolName} does not have on either side; expected one of: ${[...args].sort().join(', ')}${hint ? ` (did you mean "${hint}"?)` : ''}`,
    );
  };
  (required.requiredArguments ?? []).forEach((name, k) => check(name, [...where, 'requiredArguments', k]));
  for (const name of Object.keys(required.probeArguments ?? {})) check(name, [...where, 'probeArguments', name]);
}

/** At most 12 names, or `no tools` (`no prompts`, ...) when there are none. */
const listed = (names: string[], noun: string) =>
  names.length > 12 ? `${names.slice(0, 12).join(', ')} and ${names.length - 12} more` : names.join(', ') || `no ${noun}`;

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
