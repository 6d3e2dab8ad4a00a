import type { ContractTool } from '../contract/types.js';
import type { Subject } from '../findings/subject.js';
import type { Change } from '../findings/types.js';
import { change, pointer } from './change.js';
import { statedConstraint, statedEffect } from './stated-constraint.js';
import { steeringCues, steeringSentence, type SteeringCue, type TextKind } from './steering.js';
import { suspiciousReasons } from './suspicious.js';
import { wordDiff } from './word-diff.js';
import { editSize } from './wording.js';
import { isObject, memberOf } from '../base/json-object.js';

interface Text {
  at: string[];
  text: string;
}

/** Every description in a tool: its own, and each (nested) parameter's, keyed by JSON pointer. */
function descriptions(tool: ContractTool): Map<string, Text> {
  const found = new Map<string, Text>();
  const add = (at: string[], text: string) => found.set(pointer(...at), { at, text });
  if (tool.description) add(['description'], tool.description);
  const visit = (schema: unknown, path: string[], depth: number) => {
    if (!isObject(schema) || depth > 16) return;
    if (typeof schema.description === 'string' && path.length > 1) add([...path, 'description'], schema.description);
    if (isObject(schema.properties))
      for (const [name, child] of Object.entries(schema.properties)) visit(child, [...path, 'properties', name], depth + 1);
    if (isObject(schema.items)) visit(schema.items, [...path, 'items'], depth + 1);
  };
  visit(tool.inputSchema, ['inputSchema'], 0);
  visit(tool.outputSchema, ['outputSchema'], 0);
  return found;
}

function textChanges(tool: string, at: string[], before: string | undefined, after: string, readOnly = false): Change[] {
  const out: Change[] = [];
  const subject: Subject = { kind: 'tool', tool, at };
  // New text (a new tool or parameter) is only checked for injection; "changed" needs an old text.
  if (before !== undefined && before !== after) {
    out.push(wordingChange('description', subject, before, after));
    const rule =
      at[0] === 'inputSchema' || at.length === 1 ? statedConstraint(before, after, at.length === 1 ? 'description' : 'parameter') : null;
    if (rule) out.push(change('description-constraint-added', subject, before, after, `"${rule}"`));
    const effect = at.length === 1 && !readOnly ? statedEffect(before, after) : null;
    if (effect) out.push(change('description-effect-added', subject, before, after, `"${effect}"`));
  }
  // Text kept as it was has nothing new to flag (each pattern is held against the old text): a changed
  // tool's unchanged descriptions are not read again.
  const reasons = before === after ? [] : suspiciousReasons(after, before ?? '');
  if (reasons.length)
    out.push(
      change('description-suspicious', subject, before ?? null, after, `Contains ${reasons.join('; ')}, in "${tool}" ${pointer(...at)}.`),
    );
  return out;
}

const kindOf = (subject: Subject): TextKind =>
  subject.kind === 'server' ? 'instructions' : subject.kind === 'tool' && subject.at.length > 1 ? 'parameter' : 'description';

/**
 * What a parameter's text says in a steering shape documents the value the parameter takes: how to
 * spell it, what the API does with it ("do not pass bracket keys", "prefer a ref or selector"). On the
 * labelled description changes, such cues were steering in 4 of the 22 parameter items they held
 * (docs/verdicts.md, "Text that steers the model"), so there they are reported, not held; the note
 * still names them. Text that names the model as its reader ("Note for LLMs: …") is held wherever
 * it sits.
 */
const heldIn = (kind: TextKind, cues: SteeringCue[]): boolean =>
  kind !== 'parameter' ? cues.length > 0 : cues.some((c) => c.shape === 'reader');

const PARAMETER_CUES = "in a parameter's description, which documents the value it takes: reported, not held";

/**
 * A changed text: one that newly steers the model (`*-changed`, held) or any other edit (`*-reworded`,
 * reported), by diff/steering.ts. The note says which cue decided, or the edit's size, then the word diff.
 */
function wordingChange(kind: 'description' | 'instructions', subject: Subject, before: string | null, after: string | null): Change {
  const textKind = kindOf(subject);
  const cues = steeringCues(before ?? '', after ?? '', textKind);
  const shown = wordDiff(before ?? '', after ?? '');
  const size = `${editSize(before ?? '', after ?? '')}; no new instruction to the model`;
  const held = heldIn(textKind, cues);
  const why = held ? steeringSentence(cues) : cues.length ? `${size}. ${steeringSentence(cues)}, ${PARAMETER_CUES}` : size;
  const code = held ? (`${kind}-changed` as const) : (`${kind}-reworded` as const);
  return change(code, subject, before, after, `${why}${shown ? `: ${shown}` : '.'}`);
}

/**
 * Text where the place had none (a parameter that was there, or the tool itself): held when it steers,
 * as any text that newly steers is; otherwise a parameter's is `description-added`, reported.
 */
function textAdded(tool: ContractTool, at: string[], text: string): Change[] {
  const subject: Subject = { kind: 'tool', tool: tool.name, at };
  const cues = steeringCues('', text, kindOf(subject));
  if (heldIn(kindOf(subject), cues)) return [change('description-changed', subject, null, text, `${steeringSentence(cues)}.`)];
  if (at.length === 1) return [];
  return [change('description-added', subject, null, text, cues.length ? `${steeringSentence(cues)}, ${PARAMETER_CUES}.` : undefined)];
}

/** Whether the schema node a description sits on (`at` without its last step) exists in the tool. */
function placeExists(tool: ContractTool, at: string[]): boolean {
  if (at.length === 1) return true;
  let node: unknown = tool;
  for (const step of at.slice(0, -1)) {
    if (!isObject(node)) return false;
    node = memberOf(node, step);
  }
  return isObject(node);
}

/** Descriptions, titles and (through `diffText.instructions`) the server's instructions. */
export function diffText(before: ContractTool, after: ContractTool): Change[] {
  const out: Change[] = [];
  const was = descriptions(before);
  const now = descriptions(after);
  for (const [path, { at, text }] of now) {
    // A description where the same place had none, on a parameter (or the tool) that was there.
    if (!was.has(path) && placeExists(before, at)) out.push(...textAdded(after, at, text));
    out.push(...textChanges(after.name, at, was.get(path)?.text, text, after.effectiveAnnotations.readOnlyHint));
  }
  for (const [path, { at, text }] of was) {
    if (!now.has(path) && placeExists(after, at))
      out.push(change('description-removed', { kind: 'tool', tool: after.name, at }, text, null));
  }
  if ((before.title ?? null) !== (after.title ?? null))
    out.push(change('title-changed', { kind: 'tool', tool: after.name, at: ['title'] }, before.title, after.title));
  return out;
}

diffText.instructions = (before: string | null, after: string | null): Change[] => {
  const subject: Subject = { kind: 'server', field: 'instructions' };
  const out = [wordingChange('instructions', subject, before, after)];
  const reasons = suspiciousReasons(after ?? '', before ?? '');
  if (reasons.length)
    out.push(change('description-suspicious', subject, before, after, `Contains ${reasons.join('; ')}, in the server's instructions.`));
  return out;
};

/** Injection checks on the text of a tool that did not exist before. */
export const diffNewToolText = (tool: ContractTool): Change[] =>
  [...descriptions(tool).values()].flatMap(({ at, text }) => textChanges(tool.name, at, undefined, text));
