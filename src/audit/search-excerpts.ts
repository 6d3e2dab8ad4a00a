import { isObject } from '../base/json-object.js';
import { resultData } from '../base/result-data.js';
import type { Observation } from '../cases/types.js';
import { finding } from '../findings/finding.js';
import { onTool } from '../findings/subject.js';
import type { Finding, Side } from '../findings/types.js';

/** The argument that carries what a search looks for. */
export const QUERY = /^(?:q|query|search|search_?query|keywords?|terms?)$/i;
/** A hit's field that shows the match: an excerpt, a snippet, a highlight, a preview. */
const EXCERPT = /excerpt|snippet|highlight|preview/i;
/** Words of a query that say nothing about a match. */
const STOP = new Set(['the', 'and', 'for', 'with', 'from', 'that', 'this', 'are', 'was', 'not', 'but', 'how', 'what', 'who', 'why']);
const MAX_DEPTH = 3;

/** The query's words worth finding: three letters or more, lower case, a plural's `s` dropped ("tickets" finds "ticket"). */
function queryWords(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [];
  return [...new Set(words.filter((w) => !STOP.has(w)).map((w) => (w.length > 4 && /[^s]s$/.test(w) ? w.slice(0, -1) : w)))];
}

/** The first list of hits in the data (at most three levels down) whose items carry an excerpt-like string field. */
export function hitsOf(data: unknown, depth = 0): { field: string; items: Record<string, unknown>[] } | null {
  if (depth > MAX_DEPTH) return null;
  if (Array.isArray(data)) {
    const items = data.filter(isObject);
    const field = items.length ? Object.keys(items[0]!).find((k) => EXCERPT.test(k) && typeof items[0]![k] === 'string') : undefined;
    if (field) return { field, items: items.filter((i) => typeof i[field] === 'string') };
    return null;
  }
  if (!isObject(data)) return null;
  for (const value of Object.values(data)) {
    const hits = hitsOf(value, depth + 1);
    if (hits) return hits;
  }
  return null;
}

/**
 * A search whose hits carry excerpts that hold none of the query's words (the write-ups: "the agent
 * receives a hit whose excerpt does not show why it is a hit"; centre the excerpt on the match).
 * Said when half the hits or more miss every word: one excerpt may show a match in the title instead.
 */
export function excerptsMissingQuery(o: Observation, side: Side): Finding[] {
  if (o.kind === 'resource' || !isObject(o.result) || o.result.isError === true) return [];
  const query = Object.entries(o.args).find(([key, value]) => QUERY.test(key) && typeof value === 'string')?.[1] as string | undefined;
  const words = query ? queryWords(query) : [];
  if (!query || !words.length) return [];
  const hits = hitsOf(resultData(o.result));
  if (!hits?.items.length) return [];
  const missing = hits.items.filter((hit) => {
    const text = (hit[hits.field] as string).toLowerCase();
    return !words.some((w) => text.includes(w));
  }).length;
  if (missing * 2 < hits.items.length || missing === 0) return [];
  const facts = { query, missing, hits: hits.items.length, field: hits.field };
  return [finding('search-excerpt-misses-query', facts, { side, subject: onTool(o.tool), caseId: o.caseId })];
}
