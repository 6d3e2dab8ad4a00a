import { declaresNoHint, isDestructive } from '../contract/annotations.js';
import { canonicalJson } from '../contract/canonical.js';
import { toolDeprecation } from '../contract/deprecation.js';
import type { Contract, ContractTool, JsonSchema } from '../contract/types.js';
import type { Change } from '../findings/types.js';
import { toolChange } from './change.js';
import { readsAsLookup, words } from './lookup-name.js';

/**
 * A tool's call signature: each top-level input and output property with its type and whether it is
 * required. Descriptions, constraints and `$schema` are left out, so a rename that also touched
 * wording or a bound is still recognised.
 */
function shape(tool: ContractTool): string {
  const signature = (schema: JsonSchema | null) => {
    if (!schema) return null;
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const properties = (schema.properties && typeof schema.properties === 'object' ? schema.properties : {}) as Record<string, JsonSchema>;
    return Object.keys(properties)
      .sort()
      .map((name) => [name, properties[name]?.type ?? null, required.has(name)]);
  };
  return canonicalJson([signature(tool.inputSchema), signature(tool.outputSchema)]);
}

/**
 * Added, removed and likely renamed tools. A removed tool whose call signature matches an added
 * tool's is reported as a rename: still breaking for callers of the old name, but easier to fix.
 */
export function diffToolSet(before: Contract, after: Contract): Change[] {
  const beforeNames = new Set(before.tools.map((t) => t.name));
  const afterNames = new Set(after.tools.map((t) => t.name));
  const removed = before.tools.filter((t) => !afterNames.has(t.name));
  const added = after.tools.filter((t) => !beforeNames.has(t.name));
  const renamedTo = new Map<string, ContractTool>();
  for (const gone of removed) {
    const claimed = new Set(renamedTo.values());
    const successor = likelySuccessor(
      gone,
      added.filter((t) => !claimed.has(t) && shape(t) === shape(gone)),
    );
    if (successor) renamedTo.set(gone.name, successor);
  }
  // A server that declares no hint on any tool: a new bare tool is like its siblings (promotion.unannotatedServers).
  const bare = before.tools.length > 0 && before.tools.every(declaresNoHint);
  // The names a new tool's namespace is read against (diff/lookup-name.ts).
  const siblings = after.tools.map((t) => t.name);
  const out: Change[] = [];
  for (const gone of removed) {
    const successor = renamedTo.get(gone.name);
    out.push(
      successor
        ? toolChange('tool-renamed', gone.name, [], gone.name, successor.name)
        : // Announced, then removed: still a break for callers who stayed, but the lifecycle was kept (docs/releases.md).
          toolChange(toolDeprecation(gone) ? 'tool-removed-after-deprecation' : 'tool-removed', gone.name, [], summarize(gone), null),
    );
  }
  for (const tool of added) {
    out.push(toolChange('tool-added', tool.name, [], null, summarize(tool)));
    if (isDestructive(tool.effectiveAnnotations)) {
      // Most servers declare no annotations, so the spec's defaults make every new tool destructive.
      // One that says so itself is a rollback; one that is destructive only by default is held until declared.
      const declared = tool.annotations?.destructiveHint === true && tool.annotations.readOnlyHint !== true;
      const defaulted = [
        tool.annotations === null
          ? 'It declares no annotations, so this comes from the spec defaults: declare readOnlyHint and destructiveHint.'
          : `Hints left to spec defaults: ${tool.defaultedHints.join(', ')}; declare them.`,
        bare && declaresNoHint(tool)
          ? `The baseline declares no hint on any of its ${before.tools.length} tools either: promotion.unannotatedServers says whether it is judged like them (hold by default).`
          : '',
      ]
        .join(' ')
        .trim();
      const lookup = !declared && declaresNoHint(tool) && readsAsLookup(tool.name, tool.description, siblings);
      out.push(
        declared
          ? toolChange('tool-added-destructive', tool.name, ['annotations'], null, tool.effectiveAnnotations)
          : lookup
            ? toolChange('tool-added-unannotated-lookup', tool.name, ['annotations'], null, tool.effectiveAnnotations)
            : toolChange('tool-added-destructive-by-default', tool.name, ['annotations'], null, tool.effectiveAnnotations, defaulted),
      );
    }
  }
  return out;
}

/**
 * The one added entry with the same call signature. When several share it (tools without
 * parameters often do), the name decides: the unique candidate sharing the most words, if it shares any.
 */
export function likelySuccessor<T extends { name: string }>(gone: T, matches: T[]): T | null {
  if (matches.length <= 1) return matches[0] ?? null;
  const own = words(gone.name);
  const scored = matches.map((t) => ({ t, score: [...words(t.name)].filter((w) => own.has(w)).length }));
  const best = Math.max(...scored.map((s) => s.score));
  const top = scored.filter((s) => s.score === best);
  return best > 0 && top.length === 1 ? top[0]!.t : null;
}

const summarize = (tool: ContractTool) => ({ name: tool.name, requiredArguments: tool.requiredArguments, hash: tool.hash });
