import { CLIENT_NAMES, CLIENT_PROFILES, type ClientName, type ClientProfile } from '../config/clients.js';
import type { Contract, ContractTool, JsonSchema } from '../contract/types.js';
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
export function clientProblems(
  profile: ClientProfile,
  name: string,
  inputSchema: JsonSchema | null,
  outputSchema: JsonSchema | null = null,
): string[] {
  const problems: string[] = [];
  if (profile.name && !profile.name.pattern.test(name)) problems.push(`its name breaks the client's rule (${profile.name.rule})`);
  const dialect = outputDialectProblem(profile, outputSchema);
  if (dialect) problems.push(dialect);
  if (!inputSchema) return problems;
  if (profile.closedObjects && inputSchema.type !== 'object') problems.push('the input schema is not an object at its root');
  if (!profile.refusedKeywords?.length && !profile.closedObjects) return problems;
  for (const [node, at] of nodes(inputSchema)) {
    const where = at.length ? ` at ${pointer(...at)}` : '';
    for (const keyword of profile.refusedKeywords ?? [])
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
 * A declared `$schema` the client does not compile: it compiles the outputSchema before it sends
 * the call, so no call of the tool gets through (docs/releases.md, "Client profiles").
 */
function outputDialectProblem(profile: ClientProfile, outputSchema: JsonSchema | null): string | null {
  const declared = outputSchema?.$schema;
  if (!profile.outputDialects || typeof declared !== 'string') return null;
  if (profile.outputDialects.includes(declared.replace(/#$/, ''))) return null;
  return `its outputSchema declares "$schema": ${JSON.stringify(declared.slice(0, 200))}, which the client does not compile, so every call fails before it is sent`;
}

const problemsOf = (profile: ClientProfile, tool: ContractTool) => clientProblems(profile, tool.name, tool.inputSchema, tool.outputSchema);

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
      const problems = problemsOf(profile, tool);
      if (!problems.length) continue;
      const facts = { label: profile.label, client, tool: tool.name, problems };
      findings.push(finding('client-rejects-tool', facts, { side, subject: onTool(tool.name), client }));
    }
  }
  return findings;
}

/**
 * The watched clients the config does not name (clients in use whose refusals a team should see
 * even when it did not list them): each candidate tool one of them refuses that it did not refuse
 * on the baseline is `client-would-reject-tool`, reported and not judged. Naming the client in
 * `audit.clients` makes the same refusal `client-rejects-tool`, which holds.
 */
export function watchedClientFindings(baseline: Contract | null, candidate: Contract | null, named: readonly ClientName[]): Finding[] {
  if (!baseline || !candidate) return [];
  const findings: Finding[] = [];
  for (const client of CLIENT_NAMES) {
    const profile: ClientProfile = CLIENT_PROFILES[client];
    if (!profile.watched || named.includes(client)) continue;
    const before = new Map(baseline.tools.map((t) => [t.name, t]));
    for (const tool of candidate.tools) {
      const was = before.get(tool.name);
      if (was && problemsOf(profile, was).length) continue;
      const problems = problemsOf(profile, tool);
      if (!problems.length) continue;
      const facts = { label: profile.label, client, tool: tool.name, problems, added: !was };
      const at = { side: 'candidate', subject: onTool(tool.name), client, regression: true, direction: 'new' } as const;
      findings.push(finding('client-would-reject-tool', facts, at));
    }
  }
  return findings;
}
