import type { Contract, ContractTool } from '../contract/types.js';
import type { Finding, Side } from '../findings/types.js';
import type { Code } from '../findings/codes.js';
import { schemaProblems } from './schema-check.js';
import { hintContradiction } from '../contract/callable.js';
import { isObject } from '../base/json-object.js';

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

/** What one tool alone yields: its findings (before a side is set) and its estimated cost. */
interface ToolAudit {
  findings: Omit<Finding, 'side'>[];
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
  const add = (code: Code, tool: string | null, message: string, severity: Finding['severity'] = 'safe') =>
    findings.push({ code, severity, side, tool, message });

  for (const name of contract.discovery.duplicates ?? [])
    add(
      'tool-name-duplicate',
      name,
      `"${name}" is listed more than once; the model sees two tools with one name. The gate calls it under neither definition.`,
      'dangerous',
    );
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
  if (contract.tools.length) {
    add(
      'tool-definition-cost',
      null,
      `Tool definitions cost a model's context about ${cost.totalTokens} tokens (${COST_METHOD}); heaviest: ${cost.heaviest.map((h) => `${h.tool} ${h.tokens}`).join(', ')}. Output schemas, annotations, titles and _meta add about ${cost.contractOnlyTokens} more to the contract, not counted.`,
    );
  }
  return { findings, cost };
}

function auditTool(t: ContractTool): ToolAudit {
  const findings: Omit<Finding, 'side'>[] = [];
  const add = (code: Code, tool: string, message: string, severity: Finding['severity'] = 'safe') =>
    findings.push({ code, severity, tool, message });
  if (!NAME.test(t.name))
    add('tool-name-invalid', t.name, `"${t.name}" is outside ^[A-Za-z0-9._-]{1,128}$; some clients reject or rewrite it.`, 'dangerous');
  if (t.annotations === null)
    add('annotations-missing', t.name, `"${t.name}" declares no hints, so clients must treat it as destructive and open-world.`);
  const contradiction = hintContradiction(t.annotations);
  if (contradiction)
    add(
      'tool-hints-contradict',
      t.name,
      `"${t.name}" hints contradict each other (${contradiction}): a client cannot tell whether a call changes anything. The gate does not call it.`,
      'dangerous',
    );
  if (t.annotations !== null && typeof t.annotations.openWorldHint !== 'boolean')
    add('open-world-hint-missing', t.name, `"${t.name}" leaves openWorldHint out, which means true: it may reach outside systems.`);
  if (!t.description?.trim())
    add('description-missing', t.name, `"${t.name}" has no description; the model must guess from the name.`, 'dangerous');
  else if (t.description.trim().length < 20)
    add(
      'description-weak',
      t.name,
      `"${t.name}" description is ${t.description.trim().length} characters: ${JSON.stringify(t.description.trim())}.`,
    );
  const undescribed = Object.entries(isObject(t.inputSchema?.properties) ? t.inputSchema.properties : {})
    .filter(([, p]) => !isObject(p) || typeof p.description !== 'string' || !p.description.trim())
    .map(([name]) => name);
  if (undescribed.length)
    add('parameter-description-missing', t.name, `"${t.name}" parameters without a description: ${undescribed.join(', ')}.`);
  inputSchemaCheck(t, add);
  if (t.outputSchema) {
    const problems = [...(t.outputSchema.type === 'object' ? [] : ['root is not type "object"']), ...schemaProblems(t.outputSchema)];
    if (problems.length) add('output-schema-invalid', t.name, `"${t.name}" outputSchema: ${problems.join('; ')}.`, 'dangerous');
  }
  return { findings, tokens: toolTokens(t), contractOnlyTokens: contractOnly(t) };
}

function inputSchemaCheck(t: ContractTool, add: (code: Code, tool: string, message: string, severity: Finding['severity']) => void): void {
  if (!t.inputSchema) return add('input-schema-invalid', t.name, `"${t.name}" has no inputSchema.`, 'breaking');
  const problems = [
    ...(t.inputSchema.type === 'object' ? [] : [`root type is ${JSON.stringify(t.inputSchema.type) ?? 'missing'}, not "object"`]),
    ...schemaProblems(t.inputSchema),
  ];
  if (problems.length) add('input-schema-invalid', t.name, `"${t.name}" inputSchema: ${problems.join('; ')}.`, 'breaking');
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
  const group = (key: (t: ContractTool) => string | null, why: string) => {
    const buckets = new Map<string, string[]>();
    for (const t of tools) {
      const k = key(t);
      if (!k) continue;
      const bucket = buckets.get(k);
      if (bucket) bucket.push(t.name);
      else buckets.set(k, [t.name]);
    }
    for (const names of buckets.values()) {
      if (names.length > 1)
        findings.push({
          code: 'confusable-tools',
          severity: 'dangerous',
          side,
          tool: names[0]!,
          message: `${names.map((n) => `"${n}"`).join(' and ')} have ${why}.`,
        });
    }
  };
  group((t) => squash(t.name), 'names that differ only in case or separators');
  group((t) => (t.description && t.description.length >= 20 ? squash(t.description) : null), 'the same description');
  return findings;
}
