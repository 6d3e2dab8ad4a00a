import { deprecatedArguments, deprecatedPromptArguments, promptDeprecation, toolDeprecation } from '../contract/deprecation.js';
import type { Contract } from '../contract/types.js';
import type { Change } from '../findings/types.js';
import { changeMeta } from '../findings/codes.js';
import { change, toolChange } from './change.js';
import { CLOSED_REFUSES } from './schema-objects.js';

/** What an occurrence added to its code's sentence (why, which rule decided), kept when the code changes. */
function noteOf(c: Change): string | undefined {
  const sentence = changeMeta(c.code).message({ subject: c.subject, before: c.before, after: c.after });
  return c.message.startsWith(sentence) ? c.message.slice(sentence.length).trim() || undefined : undefined;
}

/**
 * Tools, their arguments, prompts and their arguments that the candidate marks deprecated and the
 * baseline did not (contract/deprecation.ts says what a mark is): the "announce" of the lifecycle.
 * Only what both sides list: a new tool that arrives deprecated is simply added.
 */
export function diffDeprecations(before: Contract, after: Contract): Change[] {
  const out: Change[] = [];
  const beforeTools = new Map(before.tools.map((t) => [t.name, t]));
  for (const tool of after.tools) {
    const was = beforeTools.get(tool.name);
    // The same definition (same canonical hash) carries the same marks on both sides: nothing to announce.
    if (!was || was.hash === tool.hash) continue;
    const mark = toolDeprecation(tool);
    if (mark && !toolDeprecation(was)) out.push(toolChange('deprecation-marked', tool.name, [], null, mark));
    const old = new Set(deprecatedArguments(was));
    const had = new Set(Object.keys((was.inputSchema?.properties as Record<string, unknown> | undefined) ?? {}));
    for (const argument of deprecatedArguments(tool)) {
      if (!old.has(argument) && had.has(argument)) {
        out.push(toolChange('deprecation-marked', tool.name, ['inputSchema', 'properties', argument], null, 'schema'));
      }
    }
  }
  const beforePrompts = new Map((before.features?.prompts ?? []).map((p) => [p.name, p]));
  for (const prompt of after.features?.prompts ?? []) {
    const was = beforePrompts.get(prompt.name);
    if (!was) continue;
    const mark = promptDeprecation(prompt);
    if (mark && !promptDeprecation(was)) out.push(change('deprecation-marked', { kind: 'prompt', prompt: prompt.name }, null, mark));
    const old = new Set(deprecatedPromptArguments(was));
    const had = new Set(was.arguments.map((a) => a.name));
    for (const argument of deprecatedPromptArguments(prompt)) {
      if (!old.has(argument) && had.has(argument)) {
        out.push(change('deprecation-marked', { kind: 'prompt', prompt: prompt.name, argument }, null, 'description'));
      }
    }
  }
  return out;
}

const ARGUMENT_REMOVED = new Set(['required-argument-removed', 'input-property-removed', 'input-property-removed-closed']);

/**
 * The "remove" of the lifecycle for what a tool or a prompt takes, and for prompts: an argument or
 * a prompt that the baseline marked and the candidate removed is told by its lifecycle code
 * (`argument-removed-after-deprecation`, `prompt-removed-after-deprecation`,
 * `prompt-argument-removed-after-deprecation`), held by default and calm past the window
 * (pipeline.ts). Removing what was not marked keeps its own code. A removed tool is judged in
 * diff/tools.ts. Only a tool's top-level arguments carry marks (contract/deprecation.ts).
 */
export function removalsAfterDeprecation(changes: Change[], before: Contract): Change[] {
  const tools = new Map(before.tools.map((t) => [t.name, t]));
  const prompts = new Map((before.features?.prompts ?? []).map((p) => [p.name, p]));
  // A renamed prompt's arguments are diffed under its new name; their marks are under the old one.
  const oldName = new Map(changes.filter((c) => c.code === 'prompt-renamed').map((c) => [String(c.after), String(c.before)] as const));
  return changes.map((c) => {
    const s = c.subject;
    if (s.kind === 'tool' && ARGUMENT_REMOVED.has(c.code)) {
      const [root, properties, argument, ...deeper] = s.at;
      const was = tools.get(s.tool);
      if (root !== 'inputSchema' || properties !== 'properties' || argument === undefined || deeper.length || !was) return c;
      if (!deprecatedArguments(was).includes(argument)) return c;
      const required = c.code === 'required-argument-removed' ? 'required' : 'optional';
      const closed = c.code === 'input-property-removed-closed' ? CLOSED_REFUSES : undefined;
      return toolChange('argument-removed-after-deprecation', s.tool, s.at, required, null, closed ?? noteOf(c));
    }
    if (s.kind === 'prompt' && c.code === 'prompt-removed') {
      const was = prompts.get(s.prompt);
      return was && promptDeprecation(was) ? change('prompt-removed-after-deprecation', s, c.before, null) : c;
    }
    if (s.kind === 'prompt' && c.code === 'prompt-argument-removed' && s.argument !== undefined) {
      const was = prompts.get(oldName.get(s.prompt) ?? s.prompt);
      return was && deprecatedPromptArguments(was).includes(s.argument)
        ? change('prompt-argument-removed-after-deprecation', s, c.before, null)
        : c;
    }
    return c;
  });
}
