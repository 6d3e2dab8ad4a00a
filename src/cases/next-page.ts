import type { ContractTool } from '../contract/types.js';
import { resultData } from '../base/result-data.js';
import { isObject } from '../base/json-object.js';

const CURSOR_KEYS = ['nextCursor', 'next_cursor', 'cursor', 'next_page_token', 'nextPageToken'];
const CURSOR_ARGS = /^(cursor|next_?cursor|after|page_?token|pageToken)$/i;
const MORE_FLAGS = ['has_more', 'hasMore', 'more'];
const PAGE_ARGS = /^(page|page_?number|pageNumber)$/i;

/**
 * The arguments that ask for the next page a result claims, when the tool can be asked: a cursor
 * the result hands back passed to the tool's cursor argument, or a "more" flag with the page number
 * one up. Null when the result claims no more, or the tool takes no argument to follow it with.
 */
export function nextPageArgs(tool: ContractTool, args: Record<string, unknown>, result: unknown): Record<string, unknown> | null {
  if (!isObject(result) || result.isError === true) return null;
  const data = resultData(result);
  if (!isObject(data)) return null;
  const names = Object.keys((tool.inputSchema?.properties as object | undefined) ?? {});
  const cursorArg = names.find((n) => CURSOR_ARGS.test(n));
  const cursor = CURSOR_KEYS.map((k) => data[k]).find((v) => typeof v === 'string' && v !== '');
  if (cursorArg && typeof cursor === 'string') return { ...args, [cursorArg]: cursor };
  const pageArg = names.find((n) => PAGE_ARGS.test(n));
  const more = MORE_FLAGS.some((k) => data[k] === true);
  if (pageArg && more) {
    const page = typeof args[pageArg] === 'number' && Number.isSafeInteger(args[pageArg]) ? (args[pageArg] as number) : 1;
    const next = typeof data.next_page === 'number' ? data.next_page : typeof data.nextPage === 'number' ? data.nextPage : page + 1;
    return { ...args, [pageArg]: next };
  }
  return null;
}
