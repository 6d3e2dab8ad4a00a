import { isDestructive } from '../contract/annotations.js';
import { canonicalJson } from '../contract/canonical.js';
import type { Contract, ContractTool } from '../contract/types.js';
import type { Change } from '../findings/types.js';
import { change } from './change.js';

const shape = (tool: ContractTool) => canonicalJson([tool.inputSchema, tool.outputSchema]);

/**
 * Added, removed and likely renamed tools. A removed tool whose schemas equal exactly one added
 * tool's is reported as a rename: still breaking for callers of the old name, but easier to fix.
 */
export function diffToolSet(before: Contract, after: Contract): Change[] {
  const beforeNames = new Set(before.tools.map((t) => t.name));
  const afterNames = new Set(after.tools.map((t) => t.name));
  const removed = before.tools.filter((t) => !afterNames.has(t.name));
  const added = after.tools.filter((t) => !beforeNames.has(t.name));
  const renamedTo = new Map<string, ContractTool>();
  for (const gone of removed) {
    const matches = added.filter((t) => shape(t) === shape(gone));
    const claimed = [...renamedTo.values()];
    if (matches.length === 1 && !claimed.includes(matches[0]!)) renamedTo.set(gone.name, matches[0]!);
  }
  const out: Change[] = [];
  for (const gone of removed) {
    const successor = renamedTo.get(gone.name);
    out.push(successor
      ? change('tool-renamed', 'breaking', gone.name, '', gone.name, successor.name)
      : change('tool-removed', 'breaking', gone.name, '', summarize(gone), null));
  }
  for (const tool of added) {
    out.push(change('tool-added', 'safe', tool.name, '', null, summarize(tool)));
    if (isDestructive(tool.effectiveAnnotations)) {
      const fromDefaults = tool.annotations === null
        ? 'It declares no annotations, so this comes from the spec defaults.'
        : tool.defaultedHints.some((h) => h === 'readOnlyHint' || h === 'destructiveHint')
          ? `Hints left to spec defaults: ${tool.defaultedHints.join(', ')}.`
          : undefined;
      out.push(change('tool-added-destructive', 'dangerous', tool.name, '/annotations', null, tool.effectiveAnnotations, fromDefaults));
    }
  }
  return out;
}

const summarize = (tool: ContractTool) => ({ name: tool.name, requiredArguments: tool.requiredArguments, hash: tool.hash });
