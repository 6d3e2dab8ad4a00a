import type { ContractTool, JsonSchema } from '../contract/types.js';
import type { Change } from '../findings/types.js';
import { change, pointer } from './change.js';
import { suspiciousReasons } from './suspicious.js';
import { wordDiff } from './word-diff.js';
import { judgeWording } from './wording.js';

const isObject = (value: unknown): value is JsonSchema => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Every description in a tool: its own, and each (nested) parameter's, keyed by JSON pointer. */
function descriptions(tool: ContractTool): Map<string, string> {
  const found = new Map<string, string>();
  if (tool.description) found.set('/description', tool.description);
  const visit = (schema: unknown, path: string[], depth: number) => {
    if (!isObject(schema) || depth > 16) return;
    if (typeof schema.description === 'string' && path.length > 1) found.set(pointer(...path, 'description'), schema.description);
    if (isObject(schema.properties))
      for (const [name, child] of Object.entries(schema.properties)) visit(child, [...path, 'properties', name], depth + 1);
    if (isObject(schema.items)) visit(schema.items, [...path, 'items'], depth + 1);
  };
  visit(tool.inputSchema, ['inputSchema'], 0);
  visit(tool.outputSchema, ['outputSchema'], 0);
  return found;
}

function textChanges(tool: string | null, path: string, before: string | undefined, after: string): Change[] {
  const out: Change[] = [];
  // New text (a new tool or parameter) is only checked for injection; "changed" needs an old text.
  if (before !== undefined && before !== after) out.push(wordingChange('description', tool, path, before, after));
  const reasons = suspiciousReasons(after, before ?? '');
  if (reasons.length)
    out.push(
      change(
        'description-suspicious',
        'breaking',
        tool,
        path,
        before ?? null,
        after,
        `Contains ${reasons.join('; ')}, in "${tool}" ${path}.`,
      ),
    );
  return out;
}

/**
 * A changed text: a rewrite (`*-changed`, judged) or a wording edit (`*-reworded`, reported), by
 * the line in diff/wording.ts. The note says which rule decided, then the word diff.
 */
function wordingChange(
  kind: 'description' | 'instructions',
  tool: string | null,
  path: string,
  before: string | null,
  after: string | null,
): Change {
  const wording = judgeWording(before ?? '', after ?? '');
  const rewritten = wording.kind === 'rewritten';
  const code = rewritten ? (`${kind}-changed` as const) : (`${kind}-reworded` as const);
  const shown = wordDiff(before ?? '', after ?? '');
  return change(
    code,
    rewritten ? 'dangerous' : 'safe',
    tool,
    path,
    before,
    after,
    `${wording.why[0]!.toUpperCase()}${wording.why.slice(1)}${shown ? `: ${shown}` : '.'}`,
  );
}

/** Descriptions, titles and (through `diffText.instructions`) the server's instructions. */
export function diffText(before: ContractTool, after: ContractTool): Change[] {
  const out: Change[] = [];
  const was = descriptions(before);
  for (const [path, text] of descriptions(after)) out.push(...textChanges(after.name, path, was.get(path), text));
  if ((before.title ?? null) !== (after.title ?? null))
    out.push(change('title-changed', 'safe', after.name, '/title', before.title, after.title));
  return out;
}

diffText.instructions = (before: string | null, after: string | null): Change[] => {
  const out = [wordingChange('instructions', null, '/instructions', before, after)];
  const reasons = suspiciousReasons(after ?? '', before ?? '');
  if (reasons.length)
    out.push(
      change(
        'description-suspicious',
        'breaking',
        null,
        '/instructions',
        before,
        after,
        `Contains ${reasons.join('; ')}, in the server's instructions.`,
      ),
    );
  return out;
};

/** Injection checks on the text of a tool that did not exist before. */
export const diffNewToolText = (tool: ContractTool): Change[] =>
  [...descriptions(tool)].flatMap(([path, text]) => textChanges(tool.name, path, undefined, text));
