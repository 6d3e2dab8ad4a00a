import type { ContractTool } from '../contract/types.js';
import type { Code } from '../findings/codes.js';
import type { Finding, Side } from '../findings/types.js';
import { validationErrors } from './schema-check.js';

/** One live tool result, kept in memory for the audit (the report keeps only its sizes). */
export interface Observation {
  caseId: string;
  tool: string;
  args: Record<string, unknown>;
  result: unknown;
  resultBytes: number;
  /** A case's own budget (`expect.resultBudgetBytes`), over the config's. */
  resultBudgetBytes?: number;
  /** JSON pointers (`*` for any key or index) whose values may differ between runs: left out of the comparison. */
  volatile?: string[];
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

const textBlocks = (result: Record<string, unknown>): string[] =>
  (Array.isArray(result.content) ? result.content : [])
    .filter((b): b is { type: 'text'; text: string } => isObject(b) && b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text);

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** A text block and its JSON value (undefined when it is not JSON), parsed once for every check. */
interface TextBlock {
  text: string;
  json: unknown;
}

const MORE_KEYS = ['has_more', 'hasMore', 'nextCursor', 'next_cursor', 'next_page', 'nextPage', 'next', 'cursor'];
const LIMIT_ARGS = ['limit', 'per_page', 'perPage', 'pageSize', 'page_size', 'max_results', 'maxResults', 'count'];
const HINT_IN_TEXT = /(next\s*page|more\s+results|nextCursor|next_cursor|cursor|has_?more|page\s*\d+\s*of|call again)/i;

/** Checks on one live result: what the model actually receives from the call. */
export function auditResult(o: Observation, tool: ContractTool | undefined, side: Side, budget: number): Finding[] {
  const findings: Finding[] = [];
  const add = (code: Code, message: string, severity: Finding['severity'] = 'dangerous') =>
    findings.push({ code, severity, side, tool: o.tool, caseId: o.caseId, message: `${o.caseId} ${o.tool}: ${message}` });
  const limit = o.resultBudgetBytes ?? budget;
  const overBudget = () => {
    if (o.resultBytes > limit) add('result-too-large', `result is ${o.resultBytes} bytes, over the budget of ${limit}.`, 'breaking');
  };
  if (!isObject(o.result)) {
    overBudget(); // a result dropped unread for its size still has a size
    return findings;
  }
  const result = o.result;
  const blocks: TextBlock[] = textBlocks(result).map((text) => ({ text, json: parseJson(text) }));
  const texts = blocks.map((b) => b.text);
  const structured = result.structuredContent;
  const isError = result.isError === true;

  if (tool?.outputSchema && !isError) {
    if (structured === undefined)
      add('structured-content-invalid', 'declares an outputSchema but returned no structuredContent.', 'breaking');
    else {
      const errors = validationErrors(tool.outputSchema, structured);
      if (errors.length) add('structured-content-invalid', `structuredContent fails the outputSchema: ${errors.join('; ')}.`, 'breaking');
    }
  }
  if (structured !== undefined && !carriedInText(structured, blocks)) {
    add(
      'structured-content-without-text',
      'structuredContent has no text block carrying the same JSON; clients without structured output see less.',
      'safe',
    );
  }
  if (!isError) {
    const why = errorShape(structured, blocks);
    if (why) add('error-not-flagged', `looks like an error (${why}) but isError is not true, so the model reads it as data.`, 'breaking');
  }
  const more = moreSignal(structured, o.args);
  if (more && !texts.some((t) => HINT_IN_TEXT.test(t))) {
    add('pagination-hint-hidden', `structuredContent signals more results (${more}) but no text tells the model how to get the next page.`);
  }
  overBudget();
  for (const { text, json } of blocks) {
    if (json === undefined || !/\n\s+["{[\d]/.test(text)) continue;
    const wasted = Buffer.byteLength(text, 'utf8') - Buffer.byteLength(JSON.stringify(json), 'utf8');
    if (wasted > 0)
      add('result-pretty-json', `a text block holds indented JSON: ${wasted} bytes of whitespace over the compact form.`, 'safe');
  }
  return findings;
}

/**
 * Whether the text carries the structured result: as serialised JSON (what the spec asks for), or
 * with every scalar value present in the text, which gives the model the same facts.
 */
function carriedInText(structured: unknown, blocks: TextBlock[]): boolean {
  const serialised = JSON.stringify(structured);
  if (blocks.some((b) => b.json !== undefined && JSON.stringify(b.json) === serialised)) return true;
  const leaves: string[] = [];
  const visit = (value: unknown) => {
    if (typeof value === 'string' || typeof value === 'number') leaves.push(String(value));
    else if (Array.isArray(value)) value.forEach(visit);
    else if (isObject(value)) Object.values(value).forEach(visit);
  };
  visit(structured);
  const joined = blocks.map((b) => b.text).join('\n');
  return leaves.length > 0 && leaves.every((leaf) => joined.includes(leaf));
}

function errorShape(structured: unknown, blocks: TextBlock[]): string | null {
  for (const value of [structured, ...blocks.map((b) => b.json)]) {
    if (!isObject(value)) continue;
    if (value.error !== undefined && value.error !== null && value.error !== false) return '"error" field';
    if (value.success === false || value.ok === false) return `"${value.success === false ? 'success' : 'ok'}": false`;
    for (const key of ['status', 'statusCode', 'status_code', 'code', 'httpStatus']) {
      const code = value[key];
      if (typeof code === 'number' && code >= 400 && code < 600) return `"${key}": ${code}`;
    }
  }
  const first = blocks[0]?.text.trimStart() ?? '';
  return /^error\b/i.test(first) ? 'text starts with "Error"' : null;
}

function moreSignal(structured: unknown, args: Record<string, unknown>): string | null {
  if (!isObject(structured)) return null;
  for (const key of MORE_KEYS) {
    const value = structured[key];
    if (value === true || (typeof value === 'string' && value !== '') || (typeof value === 'number' && value > 0)) return `"${key}"`;
  }
  const limitArg = LIMIT_ARGS.find((k) => typeof args[k] === 'number');
  if (limitArg) {
    const full = Object.entries(structured).find(([, v]) => Array.isArray(v) && v.length === args[limitArg]);
    if (full) return `"${full[0]}" holds exactly ${limitArg}=${String(args[limitArg])} items`;
  }
  return null;
}
