import { SchemaWork } from '../contract/schema-work.js';
import type { Contract } from '../contract/types.js';
import { codeRank } from '../findings/codes.js';
import type { Change } from '../findings/types.js';
import { diffAnnotations } from './annotations.js';
import { confirmChanges, DEFAULT_SEARCH_BUDGET, type SearchBudget } from './confirm.js';
import { diffProtocolVersion } from './protocol.js';
import { diffSchemas, type WalkMemo } from './schemas.js';
import { probeRemovedArguments } from './confirm-probe.js';
import { probeClosedInputs } from './confirm-closed.js';
import { isTooComplex } from './schema-context.js';
import { diffDeprecations, removalsAfterDeprecation } from './deprecation.js';
import { diffFeatures } from './features.js';
import { newOptions } from './new-options.js';
import { diffNewToolText, diffText } from './text.js';
import { diffToolFields, unexplainedDefinitions } from './tool-fields.js';
import { diffToolSet } from './tools.js';

/**
 * Contract x Contract -> Change[], in a stable order: by tool, then code, then path. Schema changes
 * are checked by the witness search (diff/confirm.ts) within `budget`; `null` skips the search.
 * Every schema walk counts its nodes on `work` (contract/schema-work.ts).
 */
export function diffContracts(
  before: Contract,
  after: Contract,
  budget: SearchBudget | null = DEFAULT_SEARCH_BUDGET,
  work: SchemaWork = new SchemaWork(),
): Change[] {
  const changes: Change[] = [...diffToolSet(before, after)];
  const afterByName = new Map(after.tools.map((t) => [t.name, t]));
  const beforeNames = new Set(before.tools.map((t) => t.name));
  for (const tool of after.tools) if (!beforeNames.has(tool.name)) changes.push(...diffNewToolText(tool));
  const walks: WalkMemo = new Map();
  for (const tool of before.tools) {
    const successor = afterByName.get(tool.name);
    if (!successor || successor.hash === tool.hash) continue;
    const schemaChanges = diffSchemas(tool, successor, work, walks);
    changes.push(...schemaChanges, ...diffAnnotations(tool, successor), ...diffText(tool, successor), ...diffToolFields(tool, successor));
    // A schema the walk held as too complex is not read again, nor any once the run's budget is spent.
    if (!schemaChanges.some(isTooComplex) && !work.runSpent) changes.push(...newOptions(tool, successor, work));
  }
  changes.push(...diffDeprecations(before, after));
  const b = before.server;
  const a = after.server;
  if ((b.instructions ?? '') !== (a.instructions ?? '')) changes.push(...diffText.instructions(b.instructions, a.instructions));
  changes.push(...diffProtocolVersion(b, a));
  // A side without features was read from a snapshot that holds tools only: nothing beside them is compared.
  if (before.features && after.features) changes.push(...diffFeatures(before.features, after.features, before.discovery.errors));
  const judged = removalsAfterDeprecation(changes, before);
  // What the search left, with the probes only live servers can answer: a removed option, a closing.
  const probed = (found: Change[], instances: number) =>
    probeClosedInputs(probeRemovedArguments(found, before, after, instances, work), before, after, instances, work);
  const confirmed = budget && budget.instances > 0 ? probed(confirmChanges(judged, before, after, budget, work), budget.instances) : judged;
  return sortChanges([...confirmed, ...unexplainedDefinitions(before, after, confirmed)]);
}

function sortChanges(changes: Change[]): Change[] {
  const key = (c: Change) => c.tool ?? '';
  return changes.sort((x, y) =>
    key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : codeRank(x.code) - codeRank(y.code) || (x.path < y.path ? -1 : x.path > y.path ? 1 : 0),
  );
}
