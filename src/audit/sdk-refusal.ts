import type { JsonSchema } from '../contract/types.js';
import { pointerOf } from '../base/json-pointer.js';

/** One reason the SDK gave for refusing a result: where in structuredContent, and which schema keyword. */
export interface Refusal {
  /** JSON pointer into the result (`/structuredContent/tag_id`). */
  path: string;
  /** The JSON Schema keyword the value failed, as far as the SDK's words tell. */
  keyword: string;
  /** The schema's own value for that keyword at that place, when the advertised outputSchema has one. */
  expected?: unknown;
  message: string;
}

/** The SDK's answer when a server's structuredContent fails its outputSchema (it replaces the result). */
export const SDK_OUTPUT_INVALID = /Output validation error:?\s*([\s\S]*)/i;
const FOR_TOOL = /^Invalid structured content for tool [^:]*:\s*/i;
const NONE_PROVIDED = /has an output schema but no structured content was provided/i;

/**
 * Zod's words, in its v3 and v4 spellings, for the JSON Schema keyword a value failed. The SDK
 * validates with zod and says so only in a sentence; the gate reads the keyword back from it.
 */
const KEYWORDS: [RegExp, (m: string) => string][] = [
  [/received undefined|^required$/i, () => 'required'],
  [/expected one of|invalid (?:option|enum)|invalid literal/i, () => 'enum'],
  [/unrecognized key/i, () => 'additionalProperties'],
  [/pattern/i, () => 'pattern'],
  [/multiple of/i, () => 'multipleOf'],
  [/invalid (?:email|url|uuid|guid|date|datetime|time|ipv4|ipv6|cidr|base64|e164|jwt|iso)|valid (?:email|url|uuid|date)/i, () => 'format'],
  [/too small|greater than|at least|>=?/i, (m) => bounded(m, 'min')],
  [/too big|less than|at most|<=?/i, (m) => bounded(m, 'max')],
  [/expected \w+,? received|expected \w+$|invalid (?:input|type)/i, () => 'type'],
];

function bounded(message: string, side: 'min' | 'max'): string {
  if (/character|string/i.test(message)) return `${side}Length`;
  if (/items?\b|array|element/i.test(message)) return `${side}Items`;
  if (/propert/i.test(message)) return `${side}Properties`;
  return side === 'min' ? 'minimum' : 'maximum';
}

/** `items[0].email` (the SDK's dot path) as JSON pointer segments. */
function segments(dotPath: string): string[] {
  if (dotPath === 'object root') return [];
  return dotPath.split(/\.|\[(\d+)\]/).filter((s) => s !== undefined && s !== '');
}

const pointer = (parts: string[]) => pointerOf(parts);

/** The advertised schema at a place in the data: properties by name, items by index, as far as it is plain. */
function schemaAt(schema: JsonSchema | undefined, parts: string[]): Record<string, unknown> | undefined {
  let at: unknown = schema;
  for (const part of parts) {
    if (!at || typeof at !== 'object') return undefined;
    const node = at as Record<string, unknown>;
    const properties = node.properties as Record<string, unknown> | undefined;
    if (/^\d+$/.test(part) && node.items !== undefined) at = Array.isArray(node.items) ? node.items[Number(part)] : node.items;
    else if (properties && Object.hasOwn(properties, part)) at = properties[part];
    else return undefined;
  }
  return at && typeof at === 'object' ? (at as Record<string, unknown>) : undefined;
}

/**
 * The reasons in an SDK "Output validation error" text, each with the path into structuredContent
 * and the schema keyword (docs/audit.md, structured-content-invalid): the gate never sees the
 * refused data, so these words are all there is. At most `limit` reasons; a text it cannot split
 * gives one reason at the root.
 */
export function sdkRefusals(text: string, outputSchema: JsonSchema | undefined, limit = 5): Refusal[] {
  const body = (SDK_OUTPUT_INVALID.exec(text)?.[1] ?? text).replace(FOR_TOOL, '');
  if (NONE_PROVIDED.test(body)) return [{ path: '/structuredContent', keyword: 'required', message: 'no structuredContent was provided' }];
  const reasons = body
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(0, limit);
  return reasons.map((line) => {
    const at = /^(.*?)\s+at\s+([^\s]+)$/.exec(line);
    const message = (at ? at[1]! : line).slice(0, 200);
    const parts = at ? segments(at[2]!) : [];
    const keyword = KEYWORDS.find(([re]) => re.test(message))?.[1](message) ?? 'unknown';
    const node = keyword === 'required' ? schemaAt(outputSchema, parts.slice(0, -1)) : schemaAt(outputSchema, parts);
    const declared = node?.[keyword === 'required' ? 'required' : keyword];
    return {
      // The server wrote these words: the path is bounded here and made inert where it is shown.
      path: `/structuredContent${pointer(parts)}`.slice(0, 300),
      keyword,
      ...(declared !== undefined && { expected: declared }),
      message,
    };
  });
}
