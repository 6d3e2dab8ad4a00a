import { isObject } from '../base/json-object.js';
import { HINTS } from '../contract/annotations.js';
import type { Contract, ContractTool } from '../contract/types.js';
import type { ChangeCode } from '../findings/codes.js';
import type { Change } from '../findings/types.js';
import { toolChange } from './change.js';
import { fieldValue, sameValue } from './field-value.js';
import { diffTaskSupport } from './tasks.js';

/** `_meta` keys that mark a deprecation (contract/deprecation.ts): `deprecation-marked` announces them. */
const isDeprecationKey = (key: string) => key === 'deprecated' || key.endsWith('/deprecated');
/** Fields of `extra` compared on their own below; any other is `tool-field-changed`. */
const OWN_RULES = new Set(['icons', '_meta', 'execution']);
const HINT_NAMES = new Set<string>(HINTS);

const keysOf = (...objects: unknown[]): string[] => [...new Set(objects.flatMap((o) => (isObject(o) ? Object.keys(o) : [])))].sort();
const member = (object: unknown, key: string): unknown => (isObject(object) && Object.hasOwn(object, key) ? object[key] : undefined);

/**
 * The parts of a definition that the schema, hint and text diffs do not read: icons, `_meta` key by
 * key (its deprecation mark aside), task support (diff/tasks.ts), the rest of `execution`, the
 * annotations that are no hint (a title the top-level title hides among them), and any field MCP may
 * add. Each is reported, calm unless its rule says otherwise, so a person sees it.
 */
export function diffToolFields(before: ContractTool, after: ContractTool): Change[] {
  const out: Change[] = [...diffTaskSupport(before, after)];
  const add = (code: ChangeCode, at: string[], was: unknown, now: unknown) => {
    if (!sameValue(was, now)) out.push(toolChange(code, after.name, at, fieldValue(was), fieldValue(now)));
  };
  const [b, a] = [before.extra, after.extra];
  add('tool-icons-changed', ['icons'], b.icons, a.icons);
  byKey(
    b._meta,
    a._meta,
    (key) => !isDeprecationKey(key),
    (key, was, now) => add('tool-meta-changed', ['_meta', ...key], was, now),
  );
  byKey(
    b.execution,
    a.execution,
    (key) => key !== 'taskSupport',
    (key, was, now) => add('tool-field-changed', ['execution', ...key], was, now),
  );
  for (const key of keysOf(b, a)) if (!OWN_RULES.has(key)) add('tool-field-changed', [key], b[key], a[key]);
  // `title` in annotations is read only where the tool has no title of its own (text.ts compares the one read).
  const hidden = (key: string) => !HINT_NAMES.has(key) && (key !== 'title' || before.title === after.title);
  byKey(before.annotations, after.annotations, hidden, (key, was, now) => add('tool-field-changed', ['annotations', ...key], was, now));
  return out;
}

/**
 * Two values of an object field, key by key where both are objects (or absent), else whole; `keep`
 * chooses the keys compared here. The callback takes the place (`[]` for the whole field).
 */
function byKey(
  was: unknown,
  now: unknown,
  keep: (key: string) => boolean,
  changed: (at: string[], was: unknown, now: unknown) => void,
): void {
  const objectOrAbsent = (v: unknown) => v === undefined || v === null || isObject(v);
  if (!objectOrAbsent(was) || !objectOrAbsent(now)) return changed([], was, now);
  for (const key of keysOf(was, now)) if (keep(key)) changed([key], member(was, key), member(now, key));
}

/** What the contract keeps of a definition, field by field: what a hash that moved can be told by. */
const fieldsOf = (tool: ContractTool): Record<string, unknown> => ({
  title: tool.title,
  description: tool.description,
  inputSchema: tool.inputSchema,
  outputSchema: tool.outputSchema,
  annotations: tool.annotations,
  ...tool.extra,
});

/**
 * A tool both sides list whose definition's hash moved while no change names it: the same schema
 * written another way (`required` in another order, integer bounds that allow every integer) or a
 * field no rule reads. `tool-definition-changed` says which fields moved, so every move of the
 * contract hash is explained by a change.
 */
export function unexplainedDefinitions(before: Contract, after: Contract, changes: readonly Change[]): Change[] {
  const named = new Set(changes.map((c) => c.tool));
  const successors = new Map(after.tools.map((t) => [t.name, t]));
  const out: Change[] = [];
  for (const tool of before.tools) {
    const successor = successors.get(tool.name);
    if (!successor || successor.hash === tool.hash || named.has(tool.name)) continue;
    const [was, now] = [fieldsOf(tool), fieldsOf(successor)];
    const fields = keysOf(was, now).filter((key) => !sameValue(was[key], now[key]));
    out.push(toolChange('tool-definition-changed', tool.name, [], { hash: tool.hash }, { hash: successor.hash, fields }));
  }
  return out;
}
