import type { JsonSchema } from '../contract/types.js';
import type { Change } from '../findings/types.js';
import { isObject } from '../base/json-object.js';
import { patternDifference } from '../witness/pattern-language.js';
import { instancePath } from '../findings/instance-path.js';
import { type SchemaPair, type Side } from './confirm-ask.js';

/**
 * Values the search tries first where a pattern changed: words one pattern's language holds and
 * the other's does not (witness/pattern-language.ts), a proof that the schemas differ there. A
 * search that draws its own strings never met `-`, `/` or `.` where a real value carries them;
 * these words do, and ajv still judges every instance built from them.
 */
export interface Hint {
  path: string[];
  values: string[];
}

/** Where a hint cannot stand for the value at the change's instance path: the word would land elsewhere. */
const ELSEWHERE = new Set([
  'propertyNames',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'prefixItems',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'dependentSchemas',
  '$defs',
  'definitions',
]);

export function patternHints(own: Change[], side: Side, pair: SchemaPair): Hint[] {
  const hints: Hint[] = [];
  for (const c of own) {
    const at = c.subject.kind === 'tool' ? c.subject.at : [];
    if (at.at(-1) !== 'pattern' || at.some((s) => ELSEWHERE.has(s))) continue;
    const [before, after] = [patternOf(c.before), patternOf(c.after)];
    if (before === undefined || after === undefined) continue;
    // Input: a string the baseline took and the candidate refuses. Output: one the candidate may return.
    const [taken, refused] = side === 'input' ? [before, after] : [after, before];
    const lengths = lengthsAt(at.slice(1, -1), [pair.rawBefore, pair.rawAfter]);
    const apart = patternDifference(taken, refused, lengths);
    if ('words' in apart && apart.words.length) hints.push({ path: instancePath(c), values: apart.words });
  }
  return hints;
}

const patternOf = (value: unknown): string | null | undefined =>
  typeof value === 'string' ? value : value === null || value === undefined ? null : undefined;

/** The lengths both schemas allow at a node, where each side's node is found by its path. */
function lengthsAt(at: readonly string[], roots: JsonSchema[]): { min: number; max: number } {
  let min = 0;
  let max = Infinity;
  for (const root of roots) {
    let node: unknown = root;
    for (const step of at) node = Array.isArray(node) ? node[Number(step)] : isObject(node) ? node[step] : undefined;
    if (!isObject(node)) continue;
    if (typeof node.minLength === 'number') min = Math.max(min, node.minLength);
    if (typeof node.maxLength === 'number') max = Math.min(max, node.maxLength);
  }
  return { min, max };
}
