import type { JsonSchema } from '../contract/types.js';
import { words } from './lookup-name.js';

/**
 * Words of an argument's name that say it counts: a page, a number of results, an offset into them.
 * A count has no use below zero or one, and no fraction of one.
 */
const COUNTS = new Set([
  'page',
  'pages',
  'pageno',
  'skip',
  'offset',
  'limit',
  'count',
  'top',
  'size',
  'results',
  'rows',
  'per',
  'retries',
  'attempts',
  'depth',
]);

const counts = (name: string) => [...words(name)].some((w) => COUNTS.has(w));

const requiredIn = (root: JsonSchema, name: string) => Array.isArray(root.required) && root.required.includes(name);

/**
 * Whether a bound that an argument newly declares refuses only values no call that did work sends
 * (docs/verdicts.md, "Bounds that refuse only what no useful call sends"): a count's lower bound at
 * 0 or 1, a count taking whole numbers only, a required string that may no longer be empty. Only a
 * top-level argument (`inputSchema`, `properties`, its name, the keyword) is read: its name is what
 * says it counts.
 */
export function refusesOnlyDegenerate(path: readonly string[], after: unknown, roots: { before: JsonSchema; after: JsonSchema }): boolean {
  if (path.length !== 4 || path[0] !== 'inputSchema' || path[1] !== 'properties') return false;
  const [, , name, keyword] = path as [string, string, string, string];
  if (keyword === 'minimum') return (after === 0 || after === 1) && counts(name);
  if (keyword === 'exclusiveMinimum') return after === 0 && counts(name);
  if (keyword === 'type') return after === 'integer' && counts(name);
  if (keyword === 'minLength') return after === 1 && requiredIn(roots.before, name) && requiredIn(roots.after, name);
  return false;
}
