import { inert } from '../../base/inert.js';
import { counted, type FindingMeta } from './meta.js';

interface Tool {
  tool: string;
}

/** Names shown in one finding about many prompts or resources; the rest are counted. */
const MAX_SHOWN = 10;

/** Prompts, resources or templates without a description: how many, and the first names. */
const undescribed =
  (noun: readonly [string, string]) =>
  ({ names }: { names: string[] }): string =>
    `${counted(names.length, noun)} without a description: ${names
      .slice(0, MAX_SHOWN)
      .map((n) => JSON.stringify(n))
      .join(', ')}${names.length > MAX_SHOWN ? ` and ${names.length - MAX_SHOWN} more` : ''}.`;

/** What the tool list costs a model's context (audit/contract-checks.ts `DefinitionCost`). */
interface Cost {
  method: string;
  totalTokens: number;
  heaviest: { tool: string; tokens: number }[];
  contractOnlyTokens?: number;
}

/**
 * The audit of the listed contract: what the model is told about each tool before it calls one
 * (audit/contract-checks.ts, feature-checks.ts), and what the definitions cost it (audit/index.ts).
 * Two codes here are about live results the audit could not check (output-schema-too-complex,
 * structured-content-unchecked): a result that cannot be checked at a bounded cost is not taken on
 * trust (docs/verdicts.md).
 */
export const AUDIT_CONTRACT_CODES = {
  'annotations-missing': {
    area: 'audit',
    severity: 'safe',
    action: 'ignore',
    title: 'Tools without annotations',
    noun: ['tool without annotations', 'tools without annotations'],
    message: (f: Tool) => `"${f.tool}" declares no hints, so clients must treat it as destructive and open-world.`,
  },
  'open-world-hint-missing': {
    area: 'audit',
    severity: 'safe',
    action: 'ignore',
    title: 'openWorldHint left to its default',
    noun: ['tool without openWorldHint', 'tools without openWorldHint'],
    message: (f: Tool) => `"${f.tool}" leaves openWorldHint out, which means true: it may reach outside systems.`,
  },
  'description-missing': {
    area: 'audit',
    severity: 'dangerous',
    action: 'ignore',
    title: 'Tools without a description',
    noun: ['tool without a description', 'tools without a description'],
    message: (f: Tool) => `"${f.tool}" has no description; the model must guess from the name.`,
  },
  'description-weak': {
    area: 'audit',
    severity: 'safe',
    action: 'ignore',
    title: 'Tool descriptions under 20 characters',
    noun: ['weak description', 'weak descriptions'],
    message: (f: Tool & { description: string }) =>
      `"${f.tool}" description is ${f.description.length} characters: ${JSON.stringify(f.description)}.`,
  },
  'parameter-description-missing': {
    area: 'audit',
    severity: 'safe',
    action: 'ignore',
    title: 'Parameters without a description',
    noun: ['argument without a description', 'arguments without a description'],
    message: (f: Tool & { parameters: string[] }) => `"${f.tool}" parameters without a description: ${f.parameters.join(', ')}.`,
  },
  'tool-name-invalid': {
    area: 'audit',
    severity: 'dangerous',
    action: 'ignore',
    title: 'Tool names outside the allowed characters',
    noun: ['tool name outside the allowed characters', 'tool names outside the allowed characters'],
    message: (f: Tool) => `"${f.tool}" is outside ^[A-Za-z0-9._-]{1,128}$; some clients reject or rewrite it.`,
  },
  'tool-name-duplicate': {
    area: 'audit',
    severity: 'dangerous',
    action: 'ignore',
    title: 'Tool names listed twice, or as look-alikes',
    noun: ['tool name listed twice', 'tool names listed twice'],
    message: (f: Tool & { twins?: string[] }) =>
      f.twins
        ? `"${f.tool}" has look-alike twins (${f.twins.map((t) => JSON.stringify(t)).join(', ')}): the names differ only in case, width, spacing or invisible characters, so the model, a person or the server's dispatch may take one for another. The gate calls none of them.`
        : `"${f.tool}" is listed more than once; the model sees two tools with one name. The gate calls it under neither definition.`,
  },
  'tool-hints-contradict': {
    area: 'audit',
    severity: 'dangerous',
    action: 'hold',
    title: 'Tools whose hints contradict each other',
    doc: '`readOnlyHint: true` beside `destructiveHint: true` or `idempotentHint: false`; the gate never calls such a tool.',
    noun: ['tool whose hints contradict each other', 'tools whose hints contradict each other'],
    message: (f: Tool & { contradiction: string }) =>
      `"${f.tool}" hints contradict each other (${f.contradiction}): a client cannot tell whether a call changes anything. The gate does not call it.`,
  },
  // `problems` null: the tool has no inputSchema at all.
  'input-schema-invalid': {
    area: 'audit',
    severity: 'breaking',
    action: 'hold',
    title: 'Invalid input schemas',
    noun: ['invalid input schema', 'invalid input schemas'],
    message: (f: Tool & { problems: string[] | null }) =>
      f.problems === null ? `"${f.tool}" has no inputSchema.` : `"${f.tool}" inputSchema: ${f.problems.join('; ')}.`,
  },
  'output-schema-invalid': {
    area: 'audit',
    severity: 'dangerous',
    action: 'ignore',
    title: 'Invalid output schemas',
    noun: ['invalid output schema', 'invalid output schemas'],
    message: (f: Tool & { problems: string[] }) => `"${f.tool}" outputSchema: ${f.problems.join('; ')}.`,
  },
  // Validation follows $refs: on a schema that fans out it would visit 2^n nodes. `nodes` and `limit` as shown.
  'output-schema-too-complex': {
    area: 'audit',
    severity: 'dangerous',
    action: 'hold',
    title: 'Results not checked: output schema too complex',
    doc: "the tool's output schema would cost more than `limits.schemaNodesPerTool` nodes with its `$ref`s followed, so the result is not checked against it ([security.md](security.md)).",
    noun: ['result not checked (output schema too complex)', 'results not checked (output schema too complex)'],
    message: (f: { nodes: string; limit: string }) =>
      `structuredContent was not checked: the outputSchema would cost ${f.nodes} schema nodes with its $refs followed, past limits.schemaNodesPerTool (${f.limit}).`,
  },
  'structured-content-unchecked': {
    area: 'audit',
    severity: 'dangerous',
    action: 'hold',
    title: 'Results not checked: the validator failed on them',
    doc: "the validator (ajv) failed on the result instead of judging it, so it is not checked. Its deep equality, for `const`, `enum` and `uniqueItems`, calls an object's `toString` and `valueOf`, and a JSON object can carry members of those names.",
    noun: ['result the validator failed on', 'results the validator failed on'],
    message: (f: { why: string }) => `structuredContent was not checked: ${f.why}.`,
  },
  'tool-definition-cost': {
    area: 'audit',
    severity: 'safe',
    action: 'ignore',
    title: 'Tool definition cost',
    doc: "what a model's context receives of the tool list (name, description and `inputSchema`), estimated as UTF-8 bytes / 4, with the five heaviest tools. Output schemas, annotations, titles and `_meta` are the contract's size, not the model's cost: the report gives them apart (`contractOnlyTokens`) and they never count as growth.",
    noun: ['tool definition cost', 'tool definition costs'],
    informational: true,
    message: (f: Cost) =>
      `Tool definitions cost a model's context about ${f.totalTokens} tokens (${f.method}); heaviest: ${f.heaviest.map((h) => `${h.tool} ${h.tokens}`).join(', ')}. Output schemas, annotations, titles and _meta add about ${f.contractOnlyTokens} more to the contract, not counted.`,
  },
  'tool-definition-cost-regression': {
    area: 'audit',
    severity: 'dangerous',
    action: 'hold',
    title: 'Tool definitions grew',
    noun: ['growth of the tool definitions', 'growths of the tool definitions'],
    message: (f: { was: number; now: number; limit: number }) =>
      `Tool definitions grew ${Math.round(((f.now - f.was) / f.was) * 100)}%, from about ${f.was} to ${f.now} tokens (limit ${f.limit}%).`,
  },
  // `alike`: what the tools share, so the model can mix them up.
  'confusable-tools': {
    area: 'audit',
    severity: 'dangerous',
    action: 'ignore',
    title: 'Confusable tools',
    noun: ['set of confusable tools', 'sets of confusable tools'],
    message: (f: { names: string[]; alike: 'name' | 'description' }) =>
      `${f.names.map((n) => `"${inert(n)}"`).join(' and ')} have ${f.alike === 'name' ? 'names that differ only in case or separators' : 'the same description'}.`,
  },
  'prompt-description-missing': {
    area: 'audit',
    severity: 'safe',
    action: 'ignore',
    title: 'Prompts without a description',
    noun: ['list of prompts without a description', 'lists of prompts without a description'],
    message: undescribed(['prompt', 'prompts']),
  },
  'resource-description-missing': {
    area: 'audit',
    severity: 'safe',
    action: 'ignore',
    title: 'Resources and templates without a description',
    noun: ['list of resources and templates without a description', 'lists of resources and templates without a description'],
    message: undescribed(['resource or template', 'resources and templates']),
  },
  'instructions-cost-regression': {
    area: 'audit',
    severity: 'dangerous',
    action: 'hold',
    title: 'Server instructions grew',
    noun: ['growth of the server instructions', 'growths of the server instructions'],
    message: (f: { was: number; now: number; percent: number; minTokens: number }) =>
      `The server's instructions grew from about ${f.was} to ${f.now} tokens (limit ${f.percent}% and ${f.minTokens} tokens); every session pays for them.`,
  },
} as const satisfies Record<string, FindingMeta>;
