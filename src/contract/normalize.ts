import { effectiveAnnotations } from './annotations.js';
import { canonicalHash } from './canonical.js';
import type { Contract, ContractTool, DiscoveryProblem, Discovery, JsonSchema, ServerIdentity } from './types.js';

const KNOWN_FIELDS = new Set(['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * Raw `tools/list` entries -> a Contract. Lenient by design: a malformed tool is kept where it
 * can be named, and every deviation from the spec is returned as a problem, never thrown.
 */
export function buildContract(server: ServerIdentity, rawTools: unknown[], discovery: Discovery): Contract {
  const builder = contractBuilder();
  builder.add(rawTools);
  return builder.finish(server, discovery);
}

/**
 * The same, a page at a time: discovery normalises one page while the server prepares the next.
 * The result does not depend on how the tools were split into pages.
 */
export function contractBuilder(): { add(rawTools: unknown[]): void; finish(server: ServerIdentity, discovery: Discovery): Contract } {
  const problems: DiscoveryProblem[] = [];
  const tools: ContractTool[] = [];
  const seen = new Set<string>();
  const duplicates: string[] = [];
  let index = 0;
  const add = (raw: unknown) => {
    const at = index++;
    if (!isObject(raw) || typeof raw.name !== 'string' || raw.name === '') {
      problems.push({ tool: null, message: `tools[${at}] has no string "name"; it was left out of the contract.` });
      return;
    }
    if (seen.has(raw.name)) {
      duplicates.push(raw.name);
      problems.push({ tool: raw.name, message: `tool "${raw.name}" is listed more than once; the first definition is used.` });
      return;
    }
    seen.add(raw.name);
    tools.push(normalizeTool(raw, problems));
  };
  return {
    add: (rawTools) => rawTools.forEach(add),
    finish: (server, discovery) => {
      tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return {
        server,
        tools,
        hash: canonicalHash(tools.map((t) => [t.name, t.hash])),
        discovery: { ...discovery, errors: [...discovery.errors, ...problems], duplicates: [...new Set(duplicates)].sort() },
      };
    },
  };
}

function normalizeTool(raw: Record<string, unknown>, problems: DiscoveryProblem[]): ContractTool {
  const name = raw.name as string;
  const inputSchema = schemaField(raw, 'inputSchema', problems);
  const outputSchema = schemaField(raw, 'outputSchema', problems);
  if (raw.inputSchema === undefined) problems.push({ tool: name, message: `tool "${name}" has no inputSchema.` });
  if (inputSchema && inputSchema.type !== 'object') {
    const found = inputSchema.type === undefined ? 'missing' : JSON.stringify(inputSchema.type);
    problems.push({ tool: name, message: `tool "${name}": inputSchema.type is ${found}; the spec requires "object".` });
  }
  const annotations = isObject(raw.annotations) ? raw.annotations : null;
  const { effective, defaulted } = effectiveAnnotations(annotations);
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) if (!KNOWN_FIELDS.has(key)) extra[key] = value;
  return {
    name,
    title: stringOrNull(raw.title) ?? stringOrNull(annotations?.title),
    description: stringOrNull(raw.description),
    inputSchema,
    outputSchema,
    annotations,
    effectiveAnnotations: effective,
    defaultedHints: defaulted,
    requiredArguments: requiredOf(inputSchema),
    extra,
    hash: canonicalHash(raw),
  };
}

function schemaField(raw: Record<string, unknown>, field: 'inputSchema' | 'outputSchema', problems: DiscoveryProblem[]): JsonSchema | null {
  const value = raw[field];
  if (value === undefined || value === null) return null;
  if (isObject(value)) return value;
  problems.push({ tool: raw.name as string, message: `tool "${String(raw.name)}": ${field} is ${typeof value}, expected an object.` });
  return null;
}

export function requiredOf(schema: JsonSchema | null): string[] {
  const required = schema?.required;
  return Array.isArray(required) ? [...new Set(required.filter((r): r is string => typeof r === 'string'))].sort() : [];
}
