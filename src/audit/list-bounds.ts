import { isObject } from '../base/json-object.js';
import type { ContractTool } from '../contract/types.js';
import { finding } from '../findings/finding.js';
import { onTool } from '../findings/subject.js';
import type { Finding } from '../findings/types.js';

/** The arguments that size a list, as servers spell them: `limit`, `per_page`, `pageSize`, `max_results`. */
const SIZE = /^(?:limit|per_?page|page_?size|max_?results)$/i;
/** A tool that speaks of a list, when its output schema does not say. */
const LISTY_NAME = /(?:^|[_.-])(?:list|search|find|query)|^(?:list|search|find|query)[A-Z]/;
const LISTY_TEXT = /\b(?:lists?|search(?:es)?|results|items|entries|records|matches)\b/i;

const numeric = (p: Record<string, unknown>): boolean =>
  p.type === 'integer' ||
  p.type === 'number' ||
  (Array.isArray(p.type) && p.type.some((t) => t === 'integer' || t === 'number')) ||
  [p.anyOf, p.oneOf].some((branches) => Array.isArray(branches) && branches.some((b) => isObject(b) && numeric(b)));

/** A maximum this large bounds nothing: zod's `.int()` writes 2^53 - 1, other tools an integer type's width. */
const NO_BOUND = 2 ** 31 - 1;
const bounded = (p: Record<string, unknown>): boolean =>
  (typeof p.maximum === 'number' && p.maximum < NO_BOUND) ||
  (typeof p.exclusiveMaximum === 'number' && p.exclusiveMaximum <= NO_BOUND) ||
  [p.anyOf, p.oneOf].some((branches) => Array.isArray(branches) && branches.some((b) => isObject(b) && bounded(b)));

/** Whether a tool returns a list: its output schema has an array at the root or one level down, or its name or description says so. */
function returnsList(t: ContractTool): boolean {
  const out = t.outputSchema;
  if (out) {
    if (out.type === 'array') return true;
    const properties = isObject(out.properties) ? Object.values(out.properties) : [];
    return properties.some((p) => isObject(p) && (p.type === 'array' || (Array.isArray(p.type) && p.type.includes('array'))));
  }
  return LISTY_NAME.test(t.name) || LISTY_TEXT.test(t.description ?? '');
}

/**
 * A list tool whose page size has no maximum (the write-ups: `list_bugs` with no `limit` returned
 * 500 KB; "limit: 20 would simply have failed past any reasonable budget"). One call can ask for as
 * much as the backend gives, and all of it lands in the model's context.
 */
export function unboundedListSize(t: ContractTool, side: 'baseline'): Finding | null {
  const properties = isObject(t.inputSchema?.properties) ? t.inputSchema.properties : {};
  const parameters = Object.entries(properties)
    .filter(([name, p]) => SIZE.test(name) && isObject(p) && numeric(p) && !bounded(p))
    .map(([name]) => name);
  if (!parameters.length || !returnsList(t)) return null;
  return finding('list-limit-unbounded', { tool: t.name, parameters }, { side, subject: onTool(t.name, 'inputSchema', 'properties') });
}
