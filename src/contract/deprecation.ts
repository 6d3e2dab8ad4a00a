import type { ContractPrompt, ContractTool, JsonSchema } from './types.js';
import { isObject } from '../base/json-object.js';

/**
 * Whether a tool, a prompt or an argument carries a deprecation mark (docs/releases.md). MCP has no
 * field of its own for it (as of spec 2025-11-25), so the gate reads the marks servers use:
 * - `deprecated: true`, the JSON Schema annotation, on an input schema or on an argument's schema;
 * - `_meta` with `deprecated: true`, or any key ending in `/deprecated` set to true (a vendor prefix);
 * - the title and description conventions: "Deprecated:" or "[Deprecated]" at the start of the
 *   description or title, "(Deprecated)" or "[Deprecated]" anywhere in the title, or a description
 *   whose first sentence says "deprecated".
 * Returns the mark's short name, or null when unmarked.
 */
export type DeprecationMark = 'schema' | '_meta' | 'title' | 'description';

/** Whether a `_meta` object marks its owner deprecated: `deprecated`, or a key ending in `/deprecated`. */
export function metaMarked(meta: unknown): boolean {
  if (!isObject(meta)) return false;
  return Object.entries(meta).some(
    ([key, value]) => (key === 'deprecated' || key.endsWith('/deprecated')) && (value === true || isObject(value)),
  );
}

const TITLE_MARK = /^\s*(?:\[deprecated\]|deprecated\s*[:\-\u2013\u2014])|\(deprecated\)|\[deprecated\]/i;
const DESCRIPTION_MARK = /^\s*(?:\[deprecated\]|\(deprecated\)|deprecated\b)/i;
/** "This tool is deprecated", "Deprecated in favour of…": the first sentence of a description only. */
const FIRST_SENTENCE_MARK = /\b(?:is|are|now)\s+deprecated\b/i;

function textMark(title: string | null, description: string | null): DeprecationMark | null {
  if (title && TITLE_MARK.test(title.slice(0, 200))) return 'title';
  if (description) {
    const head = description.slice(0, 300);
    const first = head.split(/(?<=[.!?])\s/)[0] ?? head;
    if (DESCRIPTION_MARK.test(head) || FIRST_SENTENCE_MARK.test(first)) return 'description';
  }
  return null;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export function toolDeprecation(tool: ContractTool): DeprecationMark | null {
  if (tool.inputSchema?.deprecated === true) return 'schema';
  if (metaMarked(tool.extra._meta)) return '_meta';
  return textMark(tool.title ?? str(tool.annotations?.title), tool.description);
}

/** The tool's top-level arguments that carry a mark, sorted. */
export function deprecatedArguments(tool: ContractTool): string[] {
  const properties = isObject(tool.inputSchema?.properties) ? (tool.inputSchema.properties as Record<string, JsonSchema>) : {};
  return Object.keys(properties)
    .filter((name) => {
      const p = properties[name];
      return isObject(p) && (p.deprecated === true || metaMarked(p._meta) || textMark(str(p.title), str(p.description)) !== null);
    })
    .sort();
}

export function promptDeprecation(prompt: ContractPrompt): DeprecationMark | null {
  if (prompt.deprecated === true) return '_meta';
  return textMark(prompt.title, prompt.description);
}

/** A prompt's arguments whose description carries the mark, sorted. */
export const deprecatedPromptArguments = (prompt: ContractPrompt): string[] =>
  prompt.arguments
    .filter((a) => textMark(null, a.description) !== null)
    .map((a) => a.name)
    .sort();
