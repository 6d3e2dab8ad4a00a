import type { Contract, ContractTool } from '../contract/types.js';
import type { Finding, Side } from '../findings/types.js';
import { finding } from '../findings/finding.js';
import { onTool } from '../findings/subject.js';
import { schemaProblems } from './schema-check.js';
import { hintContradiction } from '../contract/callable.js';
import { isObject } from '../base/json-object.js';
import { unboundedListSize } from './list-bounds.js';

const COST_METHOD = 'utf8 bytes of name, description and inputSchema / 4';

export interface DefinitionCost {
  method: string;
  /** What a model's context receives of the tool list: name, description and inputSchema. */
  totalTokens: number;
  heaviest: { tool: string; tokens: number }[];
  /** The rest of the definitions (outputSchema, annotations, title, _meta): the contract's size, not the model's cost. */
  contractOnlyTokens?: number;
  /** The server's instructions, which go into the model's context too (not counted in totalTokens). Absent in older reports. */
  instructionsTokens?: number;
}

const NAME = /^[A-Za-z0-9._-]{1,128}$/;

const tokensOf = (value: unknown) => Math.ceil(Buffer.byteLength(JSON.stringify(value), 'utf8') / 4);
/** What the model reads of a tool, estimated in tokens. A tokenizer would be closer; bytes/4 is stable and free. */
const toolTokens = (t: ContractTool) => tokensOf([t.name, t.description, t.inputSchema]);
/** What else the definition carries, which clients keep out of the model's context. */
const contractOnly = (t: ContractTool) =>
  t.outputSchema || t.annotations || t.title || Object.keys(t.extra).length
    ? tokensOf([t.outputSchema, t.annotations, t.title, t.extra])
    : 0;

/** What one tool alone yields: its findings (made on the baseline's side; each side sets its own) and its estimated cost. */
interface ToolAudit {
  findings: Finding[];
  tokens: number;
  contractOnlyTokens: number;
}

/**
 * Per-tool results keyed by the tool's hash, shared by both sides of a run: the tools a release left
 * unchanged (most of them) are checked once, not twice.
 */
export type ToolAuditMemo = Map<string, ToolAudit>;

/** Checks on the listed contract alone: what the model is told about each tool before it calls one. */
export function auditContract(
  contract: Contract,
  side: Side,
  memo: ToolAuditMemo = new Map(),
): { findings: Finding[]; cost: DefinitionCost } {
  const findings: Finding[] = [];
  for (const name of contract.discovery.duplicates ?? [])
    findings.push(finding('tool-name-duplicate', { tool: name }, { side, subject: onTool(name) }));
  for (const [first, ...twins] of contract.discovery.lookalikes ?? [])
    findings.push(finding('tool-name-duplicate', { tool: first!, twins }, { side, subject: onTool(first!) }));
  const costs: { tool: string; tokens: number; rest: number }[] = [];
  for (const t of contract.tools) {
    let checked = memo.get(t.hash);
    if (!checked) {
      checked = auditTool(t);
      memo.set(t.hash, checked);
    }
    for (const f of checked.findings) findings.push({ ...f, side });
    costs.push({ tool: t.name, tokens: checked.tokens, rest: checked.contractOnlyTokens });
  }
  findings.push(...confusable(contract.tools, side));
  const cost = definitionCost(costs);
  if (contract.tools.length) findings.push(finding('tool-definition-cost', cost, { side }));
  return { findings, cost };
}

function auditTool(t: ContractTool): ToolAudit {
  const findings: Finding[] = [];
  const tool = t.name;
  const on = (...at: string[]) => ({ side: 'baseline' as const, subject: onTool(tool, ...at) });
  if (!NAME.test(tool)) findings.push(finding('tool-name-invalid', { tool }, on()));
  if (t.annotations === null) findings.push(finding('annotations-missing', { tool }, on('annotations')));
  const contradiction = hintContradiction(t.annotations);
  if (contradiction) findings.push(finding('tool-hints-contradict', { tool, contradiction }, on('annotations')));
  if (t.annotations !== null && typeof t.annotations.openWorldHint !== 'boolean')
    findings.push(finding('open-world-hint-missing', { tool }, on('annotations', 'openWorldHint')));
  const description = t.description?.trim();
  if (!description) findings.push(finding('description-missing', { tool }, on('description')));
  else if (description.length < 20) findings.push(finding('description-weak', { tool, description }, on('description')));
  const parameters = Object.entries(isObject(t.inputSchema?.properties) ? t.inputSchema.properties : {})
    .filter(([, p]) => !isObject(p) || typeof p.description !== 'string' || !p.description.trim())
    .map(([name]) => name);
  if (parameters.length) findings.push(finding('parameter-description-missing', { tool, parameters }, on('inputSchema', 'properties')));
  const unbounded = unboundedListSize(t, 'baseline');
  if (unbounded) findings.push(unbounded);
  const input = inputSchemaProblems(t);
  if (input !== undefined) findings.push(finding('input-schema-invalid', { tool, problems: input }, on('inputSchema')));
  if (t.outputSchema) {
    const problems = [...(t.outputSchema.type === 'object' ? [] : ['root is not type "object"']), ...schemaProblems(t.outputSchema)];
    if (problems.length) findings.push(finding('output-schema-invalid', { tool, problems }, on('outputSchema')));
  }
  return { findings, tokens: toolTokens(t), contractOnlyTokens: contractOnly(t) };
}

/** What is wrong with a tool's input schema: null when it has none, undefined when nothing is. */
function inputSchemaProblems(t: ContractTool): string[] | null | undefined {
  if (!t.inputSchema) return null;
  const problems = [
    ...(t.inputSchema.type === 'object' ? [] : [`root type is ${JSON.stringify(t.inputSchema.type) ?? 'missing'}, not "object"`]),
    ...schemaProblems(t.inputSchema),
  ];
  return problems.length ? problems : undefined;
}

function definitionCost(costs: { tool: string; tokens: number; rest: number }[]): DefinitionCost {
  const heaviest = [...costs]
    .sort((a, b) => b.tokens - a.tokens || (a.tool < b.tool ? -1 : 1))
    .slice(0, 5)
    .map(({ tool, tokens }) => ({ tool, tokens }));
  return {
    method: COST_METHOD,
    totalTokens: costs.reduce((n, c) => n + c.tokens, 0),
    heaviest,
    contractOnlyTokens: costs.reduce((n, c) => n + c.rest, 0),
  };
}

const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '');

/** Tools the model can mix up: names equal but for case and separators, or the same description. */
function confusable(tools: ContractTool[], side: Side): Finding[] {
  const findings: Finding[] = [];
  const group = (key: (t: ContractTool) => string | null, alike: 'name' | 'description') => {
    const buckets = new Map<string, string[]>();
    for (const t of tools) {
      const k = key(t);
      if (!k) continue;
      const bucket = buckets.get(k);
      if (bucket) bucket.push(t.name);
      else buckets.set(k, [t.name]);
    }
    for (const names of buckets.values()) {
      if (names.length > 1) findings.push(finding('confusable-tools', { names, alike }, { side, subject: onTool(names[0]!) }));
    }
  };
  group((t) => squash(t.name), 'name');
  group((t) => (t.description && t.description.length >= 20 ? squash(t.description) : null), 'description');
  return findings;
}
