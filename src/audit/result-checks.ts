import { DEFAULT_SCHEMA_LIMITS, schemaSize, showNodes } from '../contract/schema-work.js';
import type { ContractTool } from '../contract/types.js';
import type { Code } from '../findings/codes.js';
import type { Finding, Side } from '../findings/types.js';
import { validationFailures } from './schema-check.js';
import { SDK_OUTPUT_INVALID, sdkRefusals } from './sdk-refusal.js';
import { jsonOfText } from './text-json.js';
import { resultData } from './result-data.js';
import { inert } from '../inert.js';

/** One live tool result, kept in memory for the audit (the report keeps only its sizes). */
export interface Observation {
  caseId: string;
  tool: string;
  args: Record<string, unknown>;
  result: unknown;
  resultBytes: number;
  /**
   * What the model reads: the text content of a tool result, the contents of a resource. Size
   * findings count this; `resultBytes` (structuredContent included) is reported beside it. Absent
   * for a result dropped unread, whose whole size is all there is.
   */
  modelBytes?: number;
  /** A resource read by a case, not a tool call: only its size is audited. */
  kind?: 'resource';
  /** A case's own budget (`expect.resultBudgetBytes`), over the config's. */
  resultBudgetBytes?: number;
  /** JSON pointers (`*` for any key or index) whose values may differ between runs: left out of the comparison. */
  volatile?: string[];
  /** The next page the result claimed, asked for once (cases/next-page.ts): its arguments and result. */
  nextPage?: { args: Record<string, unknown>; result: unknown };
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

const textBlocks = (result: Record<string, unknown>): string[] =>
  (Array.isArray(result.content) ? result.content : [])
    .filter((b): b is { type: 'text'; text: string } => isObject(b) && b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text);

/** The bytes a size finding counts: what the model reads. */
export const readBytes = (o: Observation): number => o.modelBytes ?? o.resultBytes;

/** A result's size in words: what the model reads, and the whole result beside it when that differs. */
export function sizeWords(o: Observation): string {
  const what = o.kind === 'resource' ? 'the resource the model reads' : 'the text the model reads';
  if (o.modelBytes === undefined) return `result is ${o.resultBytes} bytes`;
  return `${what} is ${o.modelBytes} bytes${o.resultBytes !== o.modelBytes ? ` (${o.resultBytes} with structuredContent)` : ''}`;
}

/** A text block and its JSON value (undefined when it is not JSON), parsed once for every check. */
interface TextBlock {
  text: string;
  json: unknown;
}

const MORE_KEYS = ['has_more', 'hasMore', 'nextCursor', 'next_cursor', 'next_page', 'nextPage', 'next', 'cursor'];
const LIMIT_ARGS = ['limit', 'per_page', 'perPage', 'pageSize', 'page_size', 'max_results', 'maxResults', 'count'];
const HINT_IN_TEXT =
  /(next\s*page|more\s+results|nextCursor|next_cursor|cursor|has_?more|page\s*\d+\s*of|call again|showing (?:the )?(?:first|top) \d+|narrow (?:the|your) (?:query|search)|\bof \d+ (?:total|results|items)\b)/i;

/** Checks on one live result: what the model actually receives from the call. */
export function auditResult(
  o: Observation,
  tool: ContractTool | undefined,
  side: Side,
  budget: number,
  schemaNodesPerTool = DEFAULT_SCHEMA_LIMITS.perTool,
): Finding[] {
  const findings: Finding[] = [];
  const add = (code: Code, message: string, severity: Finding['severity'] = 'dangerous', at?: { path: string; keyword: string }) =>
    findings.push({
      code,
      severity,
      side,
      tool: o.tool,
      caseId: o.caseId,
      message: `${o.caseId} ${o.tool}: ${message}`,
      ...(at && { path: at.path, keyword: at.keyword }),
    });
  const limit = o.resultBudgetBytes ?? budget;
  const read = readBytes(o);
  const overBudget = () => {
    if (read > limit) add('result-too-large', `${sizeWords(o)}, over the budget of ${limit}.`, 'breaking');
  };
  if (!isObject(o.result) || o.kind === 'resource') {
    overBudget(); // a result dropped unread for its size still has a size
    return findings;
  }
  const result = o.result;
  const blocks: TextBlock[] = textBlocks(result).map((text) => ({ text, json: jsonOfText(text) }));
  const texts = blocks.map((b) => b.text);
  const structured = result.structuredContent;
  const isError = result.isError === true;

  // SDK servers check structuredContent themselves and answer isError with the failure instead of
  // the data: the failure is the server's, not the call's, so it is read as what it is.
  const sdkInvalid = isError ? texts.find((t) => SDK_OUTPUT_INVALID.test(t)) : undefined;
  if (sdkInvalid) {
    const refusals = sdkRefusals(sdkInvalid, tool?.outputSchema ?? undefined);
    const said = refusals.map(
      (r) =>
        `${inert(r.path)} fails "${r.keyword}"${r.expected === undefined ? '' : ` (${inert(JSON.stringify(r.expected)).slice(0, 80)})`}: ${inert(r.message)}`,
    );
    add(
      'structured-content-invalid',
      `the server refused its own result (the SDK's "Output validation error"): ${said.join('; ')}.`,
      'breaking',
      refusals[0],
    );
  }
  if (tool?.outputSchema && !isError) {
    if (structured === undefined)
      add('structured-content-invalid', 'declares an outputSchema but returned no structuredContent.', 'breaking', {
        path: '/structuredContent',
        keyword: 'required',
      });
    else if (schemaSize(tool.outputSchema) > schemaNodesPerTool) {
      // Validation follows $refs: on a schema that fans out it would visit 2^n nodes (issue 28 §4).
      add(
        'output-schema-too-complex',
        `structuredContent was not checked: the outputSchema would cost ${showNodes(schemaSize(tool.outputSchema))} schema nodes with its $refs followed, past limits.schemaNodesPerTool (${showNodes(schemaNodesPerTool)}).`,
      );
    } else {
      const failures = validationFailures(tool.outputSchema, structured);
      if (failures.length)
        add(
          'structured-content-invalid',
          `structuredContent fails the outputSchema: ${failures.map((f) => `${f.message} ("${f.keyword}")`).join('; ')}.`,
          'breaking',
          { path: `/structuredContent${failures[0]!.path}`, keyword: failures[0]!.keyword },
        );
    }
  }
  // An error's text carries its message; the error object beside it is for programs.
  if (structured !== undefined && !isError && !carriedInText(structured, blocks)) {
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
  if (!isError && o.nextPage && emptyPage(o.nextPage.result))
    add(
      'pagination-next-page-empty',
      `the result claims a next page, but asking for it (${inert(JSON.stringify(o.nextPage.args)).slice(0, 200)}) returns nothing: the model is sent after more that is not there. Say there is more only when there is.`,
    );
  const unusable = !isError && tool ? unusablePageHint(texts, tool) : null;
  if (unusable) add('pagination-hint-unusable', unusable);
  const nulls = !isError ? alwaysNull(structured ?? blocks.find((b) => b.json !== undefined)?.json) : [];
  if (nulls.length)
    add(
      'result-null-fields',
      `${nulls.length} field${nulls.length === 1 ? ' is' : 's are'} null in every item (${nulls.slice(0, 8).join(', ')}${nulls.length > 8 ? ', …' : ''}): absent values written out as null cost the model tokens and read as facts; omit them.`,
    );
  overBudget();
  for (const { text, json } of blocks) {
    // Indented JSON: a line that starts with spaces or tabs before a key or value. The blank line
    // between a head line and the data is not indentation.
    const data = text.slice(Math.max(0, text.search(/[[{]/)));
    if (json === undefined || !/\n[ \t]+["{[\d]/.test(data)) continue;
    const wasted = Buffer.byteLength(data, 'utf8') - Buffer.byteLength(JSON.stringify(json), 'utf8');
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

const PAGE_ARGS = /^(page|page_?number|pageNumber|cursor|next_?cursor|offset|after|page_?token|pageToken|start)$/i;
const PAGE_HINT = /\b(?:call (?:this tool )?again|next page|(?:pass|with|use|set)\s+(?:page|cursor)\s*=)/i;

/**
 * A text that tells the model to ask for the next page of a tool that takes no page, cursor or
 * offset argument: the model cannot follow it (the write-ups' "a list that claims more").
 */
function unusablePageHint(texts: string[], tool: ContractTool): string | null {
  const hint = texts.map((t) => PAGE_HINT.exec(t)).find(Boolean);
  if (!hint) return null;
  const args = Object.keys((tool.inputSchema?.properties as object | undefined) ?? {});
  if (args.some((a) => PAGE_ARGS.test(a))) return null;
  return `the text tells the model to ask for more ("${hint[0]}") but the tool takes no page, cursor or offset argument (it takes ${args.length ? args.join(', ') : 'none'}).`;
}

/**
 * Fields null in every object of a list that has at least two (or in the one object returned), when
 * at least two such fields appear: TypedDict-style output that writes absent optional keys as null
 * (the write-ups' null pollution). A single nullable field is a value, not a pattern.
 */
function alwaysNull(data: unknown): string[] {
  const lists: Record<string, unknown>[][] = [];
  if (Array.isArray(data)) lists.push(data.filter(isObject));
  else if (isObject(data)) {
    const inner = Object.values(data).filter((v): v is unknown[] => Array.isArray(v) && v.length >= 2);
    if (inner.length) for (const list of inner) lists.push(list.filter(isObject));
    else lists.push([data]);
  }
  const out = new Set<string>();
  for (const items of lists) {
    if (!items.length) continue;
    const keys = new Set(items.flatMap((i) => Object.keys(i)));
    for (const key of keys) if (items.every((i) => Object.hasOwn(i, key) && i[key] === null)) out.add(key);
  }
  return out.size >= 2 ? [...out].sort() : [];
}

/**
 * Whether a page holds nothing: no item in any list of its data, and at least one list. An error,
 * or data without a list, is not called empty: there is nothing to say it claimed too much.
 */
export function emptyPage(result: unknown): boolean {
  if (!isObject(result) || result.isError === true) return false;
  const data = resultData(result);
  if (Array.isArray(data)) return data.length === 0;
  if (!isObject(data)) return false;
  const lists = Object.values(data).filter(Array.isArray);
  return lists.length > 0 && lists.every((l) => l.length === 0);
}
