import { DEFAULT_SCHEMA_LIMITS, schemaSize, showNodes } from '../contract/schema-work.js';
import type { ContractTool, JsonSchema } from '../contract/types.js';
import type { FindingCode, FindingFacts } from '../findings/codes.js';
import { finding } from '../findings/finding.js';
import type { Finding, Side } from '../findings/types.js';
import { ValidatorFailure, validationFailures, type ValidationFailure } from './schema-check.js';
import { SDK_OUTPUT_INVALID, sdkRefusals } from './sdk-refusal.js';
import { jsonOfText } from '../base/text-json.js';
import { emptyPage, HINT_IN_TEXT, moreKey, moreSignal, unusablePageHint } from './pagination.js';
import { nullFields } from './null-fields.js';
import { escapeSegment } from '../base/json-pointer.js';
import { isObject } from '../base/json-object.js';
import { onTool, type Subject } from '../findings/subject.js';
import type { Observation } from '../cases/types.js';

const textBlocks = (result: Record<string, unknown>): string[] =>
  (Array.isArray(result.content) ? result.content : [])
    .filter((b): b is { type: 'text'; text: string } => isObject(b) && b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text);

/** What a finding on a live result is about: the tool the probe called, or the resource it read. */
export const subjectOf = (o: Observation): Subject => (o.kind === 'resource' ? { kind: 'resource', uri: o.tool } : onTool(o.tool));

/** Where a finding on a live result comes from: the case whose probe it is. */
export const sourceOf = (o: Observation) => (o.source ? { source: o.source } : {});

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

/** Adds a finding about the result at hand; `at`, the place in the result a schema refused. */
type Add = <C extends FindingCode>(code: C, facts: FindingFacts<C>, at?: { path: string; keyword: string }) => void;

/** One tool result, read once for every check. */
interface ReadResult {
  o: Observation;
  tool: ContractTool | undefined;
  blocks: TextBlock[];
  texts: string[];
  structured: unknown;
  isError: boolean;
}

/**
 * The baseline's answers that were errors written as data, as the candidate shows them: it flags the
 * very same text (`isError: true`, the text blocks unchanged) where the baseline did not. The
 * candidate's own flag is the evidence that the text was an error, which the shapes above do not
 * read ("Search error: fetch failed", "No Godot project found in …"): such an answer is
 * `error-not-flagged` on the baseline, and the flip is its fix, not a regression (docs/audit.md).
 * Read so after the twenty-fifth and twenty-sixth held-out sets' FZ7 and GA1 were seen.
 */
export function* errorsFlaggedSince(baseline: Observation[], candidate: Observation[], known: Finding[]): Generator<Finding> {
  const flagged = new Set(known.filter((f) => f.code === 'error-not-flagged').map((f) => `${f.caseId}|${f.tool ?? ''}`));
  const after = new Map<string, Observation>();
  for (const o of candidate) if (!after.has(`${o.caseId}|${o.tool}`)) after.set(`${o.caseId}|${o.tool}`, o);
  const seen = new Set<string>();
  for (const o of baseline) {
    const key = `${o.caseId}|${o.tool}`;
    const now = after.get(key);
    if (seen.has(key) || flagged.has(key) || !now || o.kind === 'resource') continue;
    seen.add(key);
    if (!isObject(o.result) || !isObject(now.result) || o.result.isError === true || now.result.isError !== true) continue;
    const [was, is] = [textBlocks(o.result), textBlocks(now.result)];
    if (!was.join('').trim() || JSON.stringify(was) !== JSON.stringify(is)) continue;
    const at = { side: 'baseline', subject: subjectOf(o), caseId: o.caseId, ...sourceOf(o) } as const;
    yield finding('error-not-flagged', { why: 'the candidate flags the very same text as an error' }, at);
  }
}

/** Checks on one live result: what the model actually receives from the call. */
export function auditResult(
  o: Observation,
  tool: ContractTool | undefined,
  side: Side,
  budget: number,
  schemaNodesPerTool = DEFAULT_SCHEMA_LIMITS.perTool,
): Finding[] {
  const findings: Finding[] = [];
  const subject = subjectOf(o);
  const add: Add = (code, facts, at) =>
    findings.push(
      finding(code, facts, { side, subject, caseId: o.caseId, ...(at && { path: at.path, keyword: at.keyword }), ...sourceOf(o) }),
    );
  const limit = o.resultBudgetBytes ?? budget;
  const read = readBytes(o);
  const overBudget = () => {
    if (read > limit) add('result-too-large', { size: sizeWords(o), budget: limit });
  };
  if (!isObject(o.result) || o.kind === 'resource') {
    overBudget(); // a result dropped unread for its size still has a size
    return findings;
  }
  const blocks: TextBlock[] = textBlocks(o.result).map((text) => ({ text, json: jsonOfText(text) }));
  const r: ReadResult = {
    o,
    tool,
    blocks,
    texts: blocks.map((b) => b.text),
    structured: o.result.structuredContent,
    isError: o.result.isError === true,
  };
  checkStructuredContent(r, add, schemaNodesPerTool);
  checkShape(r, add);
  overBudget();
  checkPrettyJson(blocks, add);
  return findings;
}

/** The structured result: refused by the SDK, failing the outputSchema, or carried by no text block. */
function checkStructuredContent({ tool, blocks, texts, structured, isError }: ReadResult, add: Add, schemaNodesPerTool: number): void {
  // SDK servers check structuredContent themselves and answer isError with the failure instead of
  // the data: the failure is the server's, not the call's, so it is read as what it is.
  const sdkInvalid = isError ? texts.find((t) => SDK_OUTPUT_INVALID.test(t)) : undefined;
  if (sdkInvalid) {
    const refusals = sdkRefusals(sdkInvalid, tool?.outputSchema ?? undefined);
    add('structured-content-invalid', { how: 'sdk', refusals }, refusals[0]);
  }
  if (tool?.outputSchema && !isError) {
    if (structured === undefined) add('structured-content-invalid', { how: 'absent' }, { path: '/structuredContent', keyword: 'required' });
    else if (schemaSize(tool.outputSchema) > schemaNodesPerTool) {
      // Validation follows $refs: on a schema that fans out it would visit 2^n nodes (docs/verdicts.md).
      add('output-schema-too-complex', { nodes: showNodes(schemaSize(tool.outputSchema)), limit: showNodes(schemaNodesPerTool) });
    } else {
      const failures = checkedAgainst(tool.outputSchema, structured);
      if (typeof failures === 'string') add('structured-content-unchecked', { why: failures });
      else if (failures.length)
        add(
          'structured-content-invalid',
          { how: 'schema', failures },
          { path: `/structuredContent${failures[0]!.path}`, keyword: failures[0]!.keyword },
        );
    }
  }
  // An error's text carries its message; the error object beside it is for programs.
  if (structured !== undefined && !isError && !carriedInText(structured, blocks)) add('structured-content-without-text', {});
}

/** What the model makes of the result: an error not flagged, pages it cannot reach, fields always null. */
function checkShape({ o, tool, blocks, texts, structured, isError }: ReadResult, add: Add): void {
  if (!isError) {
    const why = errorShape(structured, blocks);
    if (why) add('error-not-flagged', { why });
  }
  const more = moreSignal(structured, o.args);
  if (more && !texts.some((t) => HINT_IN_TEXT.test(t))) add('pagination-hint-hidden', { more });
  if (!isError && o.nextPage && emptyPage(o.nextPage.result)) add('pagination-next-page-empty', { args: o.nextPage.args });
  const unusable = !isError && tool ? unusablePageHint(texts, tool) : null;
  if (unusable) add('pagination-hint-unusable', { why: unusable });
  const { fields } = !isError ? nullFields(...dataOf(structured, blocks)) : { fields: [] };
  if (fields.length) add('result-null-fields', { fields });
}

/** The data the null-fields check reads, and where it sits in the result: structuredContent, else the JSON text. */
const dataOf = (structured: unknown, blocks: TextBlock[]): [unknown, string] =>
  structured !== undefined ? [structured, '/structuredContent'] : [blocks.find((b) => b.json !== undefined)?.json, '/text'];

/**
 * The places in a result that a finding of this code is about (pointers, `*` for any item of a
 * list), for the fixes that resolve a finding at its place (findings/codes `resolves`); null for a
 * code about the result as a whole.
 */
export function placesOf(code: FindingCode, o: Observation): string[] | null {
  if (!isObject(o.result)) return null;
  if (code === 'result-null-fields') {
    const blocks = textBlocks(o.result).map((text) => ({ text, json: jsonOfText(text) }));
    return nullFields(...dataOf(o.result.structuredContent, blocks)).places;
  }
  if (code === 'pagination-hint-hidden') {
    const key = moreKey(o.result.structuredContent);
    return key ? [`/structuredContent/${escapeSegment(key)}`] : [];
  }
  return null;
}

/** Text blocks of indented JSON: whitespace the model pays for. */
function checkPrettyJson(blocks: TextBlock[], add: Add): void {
  for (const { text, json } of blocks) {
    if (json === undefined) continue;
    // Indented JSON: a line that starts with spaces or tabs before a key or value. The blank line
    // between a head line and the data is not indentation.
    const data = text.slice(Math.max(0, text.search(/[[{]/)));
    if (!/\n[ \t]+["{[\d]/.test(data)) continue;
    const wasted = Buffer.byteLength(data, 'utf8') - Buffer.byteLength(JSON.stringify(json), 'utf8');
    if (wasted > 0) add('result-pretty-json', { wasted });
  }
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
  // A string with a newline or a quote sits escaped in a JSON text.
  return leaves.length > 0 && leaves.every((leaf) => joined.includes(leaf) || joined.includes(JSON.stringify(leaf).slice(1, -1)));
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

/** The value's failures against the schema, or why the validator could not judge it. */
function checkedAgainst(schema: JsonSchema, value: unknown): ValidationFailure[] | string {
  try {
    return validationFailures(schema, value);
  } catch (error) {
    if (error instanceof ValidatorFailure) return error.message;
    throw error;
  }
}
