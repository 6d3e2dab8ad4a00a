import { canonicalJson } from '../contract/canonical.js';
import { SchemaWork, showNodes, tooComplex } from '../contract/schema-work.js';
import type { ContractTool, JsonSchema } from '../contract/types.js';
import { changeMeta } from '../findings/codes.js';
import type { Change } from '../findings/types.js';
import { pointer, toolChange } from './change.js';
import { annotationChange, isUnread, markTooComplex, proofOf, walkContext, type SchemaSide } from './schema-context.js';
import { COMPARED_KEYWORDS, TEXT_KEYWORDS, constraintKey, isAnnotation, isObject } from './schema-keywords.js';
import { normalForm } from './schema-normal-form.js';
import { resolvesEveryRef } from './schema-spellings.js';
import { compareSchemaNodes } from './schema-walk.js';
import { literal } from '../base/safe-regex.js';

/**
 * The walks a run made, by the two schemas' own text, key order included (a change carries the
 * values it was served). A release-wide change (a family of tools built from one definition,
 * drifted alike) is walked once: every other tool of the family gets the same changes, made again
 * under its own name from what the first walk made (code, place, values, note), and the nodes the
 * walk visited are counted again, so the run's budget is spent as if it had walked them. A walk cut
 * short by a bound (`isUnread`) is not kept.
 */
export type WalkMemo = Map<string, { made: Made[]; visited: number }>;

/** A change of a walk, with what makes it again for another tool: its place and its note. */
interface Made {
  change: Change;
  at: readonly string[];
  note: string | undefined;
}

/** Input and output schemas of one tool present on both sides. */
export function diffSchemas(
  before: ContractTool,
  after: ContractTool,
  work: SchemaWork = new SchemaWork(),
  walks: WalkMemo = new Map(),
): Change[] {
  const unwalked = (['input', 'output'] as const).flatMap((side) => notWalked(side, before, after, work));
  if (unwalked.length) return unwalked;
  const walk = (side: SchemaSide, b: JsonSchema, a: JsonSchema) => walkOnce(walks, side, before.name, b, a, work);
  const out: Change[] = [...inputChanges(before, after, walk)];
  if (before.outputSchema && !after.outputSchema) {
    out.push(toolChange('output-schema-removed', after.name, ['outputSchema'], before.outputSchema, null));
  } else if (!before.outputSchema && after.outputSchema) {
    out.push(toolChange('output-schema-added', after.name, ['outputSchema'], null, after.outputSchema));
  } else if (before.outputSchema && after.outputSchema) {
    out.push(...walk('output', before.outputSchema, after.outputSchema));
  }
  return out;
}

/**
 * Tool arguments are always a JSON object. A baseline whose input schema is not an object schema
 * breaks the protocol, so what changed against it is a repair for a person to check: at most a
 * Hold, never breaking. Its root is read as an object schema so that the repair is described. The
 * same holds for a baseline schema that is not JSON Schema at all but a validator serialized by
 * mistake (zod's `{def, type}`), at its root or in place of its arguments' schemas (zod 3's `_def`,
 * `~standard`): it constrains nothing a client could rely on, so a candidate that declares its real
 * arguments repairs the contract; whether old calls worked is for a person.
 */
function inputChanges(
  before: ContractTool,
  after: ContractTool,
  walk: (side: SchemaSide, before: JsonSchema, after: JsonSchema) => Change[],
): Change[] {
  const changes = walk('input', asArguments(before.inputSchema), asArguments(after.inputSchema));
  const serialized = serializedIn(before.inputSchema);
  const textOnly = serialized === null ? namedOnlyInText(before, changes) : null;
  const invalid = before.inputSchema?.type !== 'object' || serialized !== null || textOnly !== null;
  if (!invalid || !changes.some((c) => c.severity !== 'safe')) return changes;
  const shown = changes
    .slice(0, 3)
    .map((c) => c.message)
    .join(' ');
  const note = `${changes.length} difference${changes.length === 1 ? '' : 's'} measured against it: ${shown}${changes.length > 3 ? ' ...' : ''}`;
  return [
    toolChange(
      'input-schema-repaired',
      before.name,
      ['inputSchema'],
      textOnly ? { declared: 'none', named: textOnly } : (serialized ?? before.inputSchema?.type ?? null),
      after.inputSchema?.type ?? null,
      note,
    ),
  ];
}

/**
 * The arguments a candidate newly requires where its baseline declared none at all but its text
 * named each of them as a call writes it (`{ confirm: true, … }`, `` `confirm` ``, `confirm=`): the
 * text was the only contract, and a call made from it sent them (docs/verdicts.md, "Arguments
 * only the text named"). Null unless every break is such a requirement.
 */
function namedOnlyInText(before: ContractTool, changes: Change[]): string[] | null {
  const declared = before.inputSchema?.properties;
  if (isObject(declared) && Object.keys(declared).length) return null;
  const text = before.description ?? '';
  const names: string[] = [];
  for (const c of changes) {
    if (c.severity !== 'breaking') continue;
    const at = c.subject.kind === 'tool' ? c.subject.at : [];
    const name = at.length === 3 && at[1] === 'properties' ? at[2]! : null;
    if (c.code !== 'required-argument-added' || name === null || !writtenAsArgument(text, name)) return null;
    names.push(name);
  }
  return names.length ? names.sort() : null;
}

/** `{ name: …`, `, name=…`, or the name quoted: how a call is written, not a word of prose. */
const writtenAsArgument = (text: string, name: string): boolean =>
  new RegExp(String.raw`(?:[{,(]\s*${literal(name)}\s*[:=])|(?:["'\`]${literal(name)}["'\`])`).test(text);

/**
 * The members of a root that constrains nothing (no keyword beside `type`, text and annotations)
 * yet carries objects under names JSON Schema does not define: a serialized validator. Null for any
 * other schema, however odd.
 */
function serializedMembers(schema: JsonSchema | null): string[] | null {
  if (!schema) return null;
  const keys = Object.keys(schema);
  if (keys.some((k) => k !== 'type' && COMPARED_KEYWORDS.has(k))) return null;
  const foreign = keys.filter((k) => !COMPARED_KEYWORDS.has(k) && !TEXT_KEYWORDS.has(k) && !isAnnotation(k) && isObject(schema[k]));
  return foreign.length ? foreign.sort() : null;
}

/** Serialized members at the root, or in any argument's schema: the first found, else null. */
function serializedIn(schema: JsonSchema | null): string[] | null {
  const properties = isObject(schema?.properties) ? Object.values(schema.properties) : [];
  // An argument's schema with no keyword at all, not even `type`, and objects under foreign names.
  const inArguments = properties.filter((p) => isObject(p) && !('type' in p)).map((p) => serializedMembers(p as JsonSchema));
  const found = [serializedMembers(schema), ...inArguments].filter((m) => m !== null);
  return found.length ? [...new Set(found.flat())].sort() : null;
}

const asArguments = (schema: JsonSchema | null): JsonSchema => (schema?.type === undefined ? { ...schema, type: 'object' } : schema);

/** `walk`, or the changes a walk of the same two schemas made for another tool, made again for this one. */
function walkOnce(walks: WalkMemo, side: SchemaSide, tool: string, before: JsonSchema, after: JsonSchema, work: SchemaWork): Change[] {
  const key = `${side}\u0000${JSON.stringify(before)}\u0000${JSON.stringify(after)}`;
  const known = walks.get(key);
  if (known) {
    work.count(known.visited);
    return known.made.map(({ change: c, at, note }) => toolChange(c.code, tool, [...at], c.before, c.after, note));
  }
  const from = work.visited;
  const changes = walk(side, tool, before, after, work);
  const made = changes.map(madeOf);
  if (made.every((m): m is Made => m !== null && !isUnread(m.change) && proofOf(m.change) === undefined))
    walks.set(key, { made, visited: work.visited - from });
  return changes;
}

/**
 * A change with its place and what its message adds to its code's own sentence (`toolChange`'s
 * note). Null when its message is not made that way, and it cannot be made again from them.
 */
function madeOf(change: Change): Made | null {
  if (change.subject.kind !== 'tool') return null;
  const { at } = change.subject;
  const head = changeMeta(change.code).message({ subject: change.subject, before: change.before, after: change.after });
  if (!head) return { change, at, note: change.message || undefined };
  if (change.message === head) return { change, at, note: undefined };
  return change.message.startsWith(`${head} `) ? { change, at, note: change.message.slice(head.length + 1) } : null;
}

/**
 * One side's schemas, walked. Two guarantees beyond the walk: definitions that no `$ref` reached are
 * compared on their own, and schemas that differ in anything but text never yield an empty list.
 */
function walk(side: SchemaSide, tool: string, before: JsonSchema, after: JsonSchema, work: SchemaWork): Change[] {
  const root = side === 'input' ? 'inputSchema' : 'outputSchema';
  const ctx = walkContext(side, tool, before, after, compareSchemaNodes, work);
  const changes = compareSchemaNodes(before, after, [root], ctx);
  for (const key of ['$defs', 'definitions'] as const) {
    const defsBefore = isObject(before[key]) ? before[key] : {};
    const defsAfter = isObject(after[key]) ? after[key] : {};
    for (const name of [...new Set([...Object.keys(defsBefore), ...Object.keys(defsAfter)])].sort()) {
      const ref = `#${pointer(key, name)}`;
      if (ctx.reached.before.has(ref) || ctx.reached.after.has(ref)) continue;
      const b = constraintKey(defsBefore[name]);
      if (b !== null && b === constraintKey(defsAfter[name])) continue;
      // Unreached by a pointer, a definition is text; where a `$ref` may reach it by anchor or URI, it is not.
      if (resolvesEveryRef(before) && resolvesEveryRef(after))
        changes.push(annotationChange(ctx, [root, key, name], defsBefore[name] ?? null, defsAfter[name] ?? null));
      else changes.push(toolChange('schema-changed', tool, [root, key, name], null, null, UNRESOLVED_DEFINITION));
    }
  }
  const sameForm = () => normalForm(before, before, work) === normalForm(after, after, work);
  // A walk that stopped unread (a recursion unrolled past the depth bound, say) on two schemas of the
  // same normal form met spelling, not meaning: `definitions` → `$defs` around a recursive node.
  if (changes.some(isUnread) && sameForm()) return changes.filter((c) => !isUnread(c));
  if (changes.length === 0 && canonicalJson(before) !== canonicalJson(after) && !sameForm()) {
    changes.push(toolChange('schema-changed', tool, [root], null, null, 'The schemas differ in a way the gate does not classify.'));
  }
  return changes;
}

const UNRESOLVED_DEFINITION =
  'The definition changed, and the document refers by anchor, URI or dynamic reference, which the gate does not resolve: it may be reached.';

/**
 * A side whose schemas changed but would cost more than the budget to walk (docs/security.md, "Work
 * bounds every schema walk"): held as too complex to compare, with the figure, and walked by
 * nothing (neither the comparison nor the witness search). The run's budget spent, what is left is
 * not walked either, and says so.
 */
function notWalked(side: SchemaSide, before: ContractTool, after: ContractTool, work: SchemaWork): Change[] {
  const root = side === 'input' ? 'inputSchema' : 'outputSchema';
  const [b, a] = [before[root], after[root]];
  if (!b || !a || canonicalJson(b) === canonicalJson(a)) return [];
  const held = (why: string) => [markTooComplex(toolChange('schema-changed', before.name, [root], null, null, why))];
  if (work.runSpent)
    return held(
      `The ${side} schema was not compared: the run's schema budget (limits.schemaNodesPerRun, ${showNodes(work.limits.perRun)} nodes) was spent before this tool.`,
    );
  const [wb, wa] = [tooComplex(b, work), tooComplex(a, work)];
  if (wb === null && wa === null) return [];
  const told = wb !== null ? `the baseline's: ${wb}` : `the candidate's: ${wa}`;
  return held(`The ${side} schema is too complex to compare (${told}). It was not walked.`);
}
