import { jsonOfText } from './text-json.js';
import { isObject } from './json-object.js';

/** A result's data: its structuredContent, and the first text block that is a JSON object or array. */
export function payloadOf(result: Record<string, unknown>): { structuredContent?: unknown; text?: unknown } {
  const payload: { structuredContent?: unknown; text?: unknown } = {};
  if (isObject(result.structuredContent) || Array.isArray(result.structuredContent)) payload.structuredContent = result.structuredContent;
  for (const block of Array.isArray(result.content) ? result.content : []) {
    if (!isObject(block) || block.type !== 'text' || typeof block.text !== 'string') continue;
    const json = jsonOfText(block.text);
    if (json === undefined) continue;
    payload.text = json;
    break;
  }
  return payload;
}

/** A result's data, as a client reads it: its structuredContent, or else its JSON text. Undefined when it has neither. */
export function resultData(result: unknown): unknown {
  if (!isObject(result)) return undefined;
  // The text is parsed only when it is the data: a result with structuredContent is not read twice.
  if (isObject(result.structuredContent) || Array.isArray(result.structuredContent)) return result.structuredContent;
  const payload = payloadOf(result);
  return Object.hasOwn(payload, 'structuredContent') ? payload.structuredContent : payload.text;
}
