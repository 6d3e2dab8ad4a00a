import { deprecatedArguments, deprecatedPromptArguments, promptDeprecation, toolDeprecation } from '../contract/deprecation.js';
import type { Contract } from '../contract/types.js';
import type { Change } from '../findings/types.js';
import { change, toolChange } from './change.js';

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
