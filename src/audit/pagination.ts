import type { ContractTool } from '../contract/types.js';
import { resultData } from '../base/result-data.js';
import { isObject } from '../base/json-object.js';

// What a result says about more pages, and whether the model can follow it.

/** Keys that say whether a list has more: a null or false one says it ends, not that a value is absent. */
export const MORE_KEYS = ['has_more', 'hasMore', 'nextCursor', 'next_cursor', 'next_page', 'nextPage', 'next', 'cursor'];
const LIMIT_ARGS = ['limit', 'per_page', 'perPage', 'pageSize', 'page_size', 'max_results', 'maxResults', 'count'];
/** Words in a text that tell the model how to get more. */
export const HINT_IN_TEXT =
  /(next\s*page|more\s+results|nextCursor|next_cursor|cursor|has_?more|page\s*\d+\s*of|call again|showing (?:the )?(?:first|top) \d+|narrow (?:the|your) (?:query|search)|\bof \d+ (?:total|results|items)\b)/i;

/** Keys that say how many items there are in all. */
const TOTAL_KEYS = ['total', 'total_count', 'totalCount', 'totalResults', 'total_results'];

/**
 * What in the structured result signals more results: a key such as nextCursor, or a list exactly
 * as long as the limit asked. A result that says it is the end (`has_more: false`, a next cursor of
 * null, a total equal to the items returned) signals nothing: a full last page is not a hidden one.
 */
export function moreSignal(structured: unknown, args: Record<string, unknown>): string | null {
  const key = moreKey(structured);
  if (key) return `"${key}"`;
  if (!isObject(structured) || endSignal(structured)) return null;
  const limitArg = LIMIT_ARGS.find((k) => typeof args[k] === 'number');
  if (limitArg) {
    const full = Object.entries(structured).find(([, v]) => Array.isArray(v) && v.length === args[limitArg]);
    if (full) return `"${full[0]}" holds exactly ${limitArg}=${String(args[limitArg])} items`;
  }
  return null;
}

/** The key of a structured result that claims more results (`has_more: true`, a next cursor), if one does. */
export function moreKey(structured: unknown): string | null {
  if (!isObject(structured)) return null;
  for (const key of MORE_KEYS) {
    const value = structured[key];
    if (value === true || (typeof value === 'string' && value !== '') || (typeof value === 'number' && value > 0)) return key;
  }
  return null;
}

/** Whether the result says there is no more: a more key set to false, null or empty, or a total equal to a list it holds. */
function endSignal(structured: Record<string, unknown>): boolean {
  if (MORE_KEYS.some((k) => Object.hasOwn(structured, k) && (structured[k] === false || structured[k] === null || structured[k] === '')))
    return true;
  const lists = Object.values(structured).filter(Array.isArray);
  return TOTAL_KEYS.some((k) => typeof structured[k] === 'number' && lists.some((l) => l.length === structured[k]));
}

const PAGE_ARGS = /^(page|page_?number|pageNumber|cursor|next_?cursor|offset|after|page_?token|pageToken|start)$/i;
const PAGE_HINT = /\b(?:call (?:this tool )?again|next page|(?:pass|with|use|set)\s+(?:page|cursor)\s*=)/i;
/** A word every PAGE_HINT match holds: most texts lack all three, and this finds that 2 to 4 times faster. */
const PAGE_WORD = /again|page|cursor/i;

/**
 * A text that tells the model to ask for the next page of a tool that takes no page, cursor or
 * offset argument: the model cannot follow it (the write-ups' "a list that claims more").
 */
export function unusablePageHint(texts: string[], tool: ContractTool): string | null {
  const hint = texts.map((t) => (PAGE_WORD.test(t) ? PAGE_HINT.exec(t) : null)).find(Boolean);
  if (!hint) return null;
  const args = Object.keys((tool.inputSchema?.properties as object | undefined) ?? {});
  if (args.some((a) => PAGE_ARGS.test(a))) return null;
  return `the text tells the model to ask for more ("${hint[0]}") but the tool takes no page, cursor or offset argument (it takes ${args.length ? args.join(', ') : 'none'}).`;
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
