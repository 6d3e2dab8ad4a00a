import { CLIENT_PROFILES, type ClientName, type ClientProfile } from '../config/clients.js';
import type { Contract, JsonSchema } from '../contract/types.js';
import { finding } from '../findings/finding.js';
import { onTool, pointer } from '../findings/subject.js';
import type { Finding, Side } from '../findings/types.js';
import { isObject } from '../base/json-object.js';

/** Keywords whose value is one subschema, a list of them, or a map of them. */
const ONE = [
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
];
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items'];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Schema nodes read per tool at most: a hostile schema cannot make the check walk forever. */
const MAX_NODES = 5000;

/** Every subschema with its JSON pointer, depth first, keys in sorted order (deterministic). */
function* nodes(schema: JsonSchema, at: string[] = [], budget = { left: MAX_NODES }): Generator<[JsonSchema, string[]]> {
  if (budget.left-- <= 0) return;
  yield [schema, at];
  for (const key of Object.keys(schema).sort()) {
    const value = schema[key];
    if (MAP.includes(key) && isObject(value)) {
      for (const name of Object.keys(value).sort()) if (isObject(value[name])) yield* nodes(value[name], [...at, key, name], budget);
    } else if (LIST.includes(key) && Array.isArray(value)) {
      for (const [i, item] of value.entries()) if (isObject(item)) yield* nodes(item, [...at, key, String(i)], budget);
    } else if (ONE.includes(key) && isObject(value)) yield* nodes(value, [...at, key], budget);
  }
}

/** Why a client refuses one tool: each reason a short phrase, in a stable order. */
export function clientProblems(profile: ClientProfile, name: string, inputSchema: JsonSchema | null): string[] {
  const problems: string[] = [];
  if (!profile.name.pattern.test(name)) problems.push(`its name breaks the client's rule (${profile.name.rule})`);
  if (!inputSchema) return problems;
  if (profile.closedObjects && inputSchema.type !== 'object') problems.push('the input schema is not an object at its root');
  for (const [node, at] of nodes(inputSchema)) {
    const where = at.length ? ` at ${pointer(...at)}` : '';
    for (const keyword of profile.refusedKeywords)
      if (Object.hasOwn(node, keyword)) problems.push(`keyword "${keyword}"${where} is not supported`);
    if (!profile.closedObjects) continue;
    const properties = isObject(node.properties) ? Object.keys(node.properties) : null;
    if (node.type !== 'object' && properties === null) continue;
    if (node.additionalProperties !== false) problems.push(`an object${where} does not set additionalProperties: false`);
    const required = new Set(Array.isArray(node.required) ? node.required : []);
    const optional = (properties ?? []).filter((p) => !required.has(p)).sort();
    if (optional.length) problems.push(`an object${where} leaves ${optional.map((p) => `"${p}"`).join(', ')} out of required`);
  }
  return problems;
}

/**
 * Each tool against each client the config names (`audit.clients`): one finding per client and
 * tool it refuses, naming the client and why. The audit compares sides, so a tool the baseline's
 * clients already refused is pre-existing, and one the candidate newly breaks is a regression.
 */
export function clientFindings(contract: Contract, side: Side, clients: readonly ClientName[]): Finding[] {
  const findings: Finding[] = [];
  for (const client of [...new Set(clients)].sort()) {
    const profile: ClientProfile = CLIENT_PROFILES[client];
    for (const tool of contract.tools) {
      const problems = clientProblems(profile, tool.name, tool.inputSchema);
      if (!problems.length) continue;
      const facts = { label: profile.label, client, tool: tool.name, problems };
      findings.push(finding('client-rejects-tool', facts, { side, subject: onTool(tool.name), client }));
    }
  }
  return findings;
}
