import type { ContractTool, JsonSchema } from '../contract/types.js';
import type { Change } from '../findings/types.js';
import { change } from './change.js';
import type { SchemaSide } from './schema-context.js';
import { compareSchemaNodes } from './schema-walk.js';

/** Input and output schemas of one tool present on both sides. */
export function diffSchemas(before: ContractTool, after: ContractTool): Change[] {
  const out: Change[] = [...walk('input', before.name, asArguments(before.inputSchema), asArguments(after.inputSchema))];
  if (before.outputSchema && !after.outputSchema) {
    out.push(change('output-schema-removed', 'breaking', after.name, '/outputSchema', before.outputSchema, null));
  } else if (!before.outputSchema && after.outputSchema) {
    out.push(change('output-schema-added', 'safe', after.name, '/outputSchema', null, after.outputSchema));
  } else if (before.outputSchema && after.outputSchema) {
    out.push(...walk('output', before.name, before.outputSchema, after.outputSchema));
  }
  return out;
}

/**
 * Tool arguments are always a JSON object, whatever the schema says. A missing schema or a root
 * without `type` (a protocol violation, reported at discovery) is read as an object schema, so the
 * violation is not also counted as a type change.
 */
const asArguments = (schema: JsonSchema | null): JsonSchema => (schema?.type === undefined ? { ...schema, type: 'object' } : schema);

function walk(side: SchemaSide, tool: string, before: JsonSchema, after: JsonSchema): Change[] {
  const root = side === 'input' ? 'inputSchema' : 'outputSchema';
  return compareSchemaNodes(before, after, [root], { side, tool, rootBefore: before, rootAfter: after, followed: new Set(), depth: 0 });
}
