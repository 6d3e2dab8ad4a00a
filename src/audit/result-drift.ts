import type { FindingCode, FindingFacts } from '../findings/codes.js';
import { finding } from '../findings/finding.js';
import { onTool } from '../findings/subject.js';
import type { Finding } from '../findings/types.js';
import { sourceOf } from './result-checks.js';
import type { Observation } from '../cases/types.js';
import { jsonOfText } from '../base/text-json.js';
import { payloadOf } from '../base/result-data.js';
import { judgeWording } from '../diff/wording.js';
import { isObject } from '../base/json-object.js';
import { escapeSegment, pointerMatcher } from '../base/json-pointer.js';

/** How deep and how wide the comparison goes: a result is data of any size, and findings must stay readable. */
const MAX_DEPTH = 32;
const MAX_FINDINGS_PER_PROBE = 20;
/** Items of a list compared with the baseline's item at the same index. */
const MAX_ITEMS = 50;

/** Adds a finding about the probe at hand, at a place in its result. */
type Add = <C extends FindingCode>(code: C, path: string, facts: FindingFacts<C>) => void;

/** One finding per code and place, whichever item shows it first: `/posts/0/eta` and `/posts/7/eta` are one. */
function once(add: Add): Add {
  const seen = new Set<string>();
  return (code, path, facts) => {
    const key = `${code}|${path.replace(/\/\d+(?=\/|$)/g, '/*')}`;
    if (seen.has(key)) return;
    seen.add(key);
    add(code, path, facts);
  };
}

/** Deep equality within MAX_DEPTH: data nested deeper is not called equal (and is not walked). */
function sameData(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) return true;
  if (depth > MAX_DEPTH || typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const [ka, kb] = [Object.keys(a), Object.keys(b)];
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && sameData((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], depth + 1));
}

/**
 * The text the model reads, rewritten while the data stayed the same: a rewrite by the line drawn
 * for descriptions (diff/wording.ts). Text that steers the model is result-steering.ts's.
 */
function textDrift(was: Record<string, unknown>, now: Record<string, unknown>, add: Add): void {
  if (!sameData(was.structuredContent, now.structuredContent, 0)) return;
  const prose = (r: Record<string, unknown>) =>
    (Array.isArray(r.content) ? r.content : [])
      .filter((b): b is { type: 'text'; text: string } => isObject(b) && b.type === 'text' && typeof b.text === 'string')
      .map((b) => b.text)
      .filter((t) => jsonOfText(t) === undefined)
      .join('\n')
      .slice(0, 20_000);
  const [before, after] = [prose(was), prose(now)];
  if (before === after) return;
  const wording = judgeWording(before, after);
  if (wording.kind === 'rewritten') add('result-text-changed', '/content', { why: wording.why });
}

const kindOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
const segment = (key: string | number) => `/${escapeSegment(key)}`;

/**
 * What the candidate returns for the same probe, against what the baseline returned: a field gone,
 * a value of another type, a list that came back empty, an error where there was none, the data
 * moved between `structuredContent` and the text. This catches a breaking output change in a server
 * that declares no outputSchema. Lists are compared item by item (up to 50); pointers the dataset marks
 * `volatile` (timestamps, ids, counters) are left out. Findings are candidate regressions.
 */
export function* resultDrift(baseline: Observation[], candidate: Observation[]): Generator<Finding> {
  const before = new Map<string, Observation>();
  for (const o of baseline) if (!before.has(`${o.caseId}|${o.tool}`)) before.set(`${o.caseId}|${o.tool}`, o);
  for (const o of candidate) {
    const was = before.get(`${o.caseId}|${o.tool}`);
    if (!was || !isObject(was.result) || !isObject(o.result)) continue;
    const volatile = pointerMatcher(o.volatile ?? []);
    const found: Finding[] = [];
    const add: Add = (code, path, facts) =>
      found.push(
        finding(code, facts, { side: 'candidate', subject: onTool(o.tool), caseId: o.caseId, path, regression: true, ...sourceOf(o) }),
      );
    if (was.result.isError !== true && o.result.isError === true) add('result-error-flipped', '/isError', {});
    const b = payloadOf(was.result);
    const c = payloadOf(o.result);
    const has = (p: { structuredContent?: unknown; text?: unknown }, where: 'structuredContent' | 'text') => Object.hasOwn(p, where);
    if (has(b, 'structuredContent') && has(c, 'structuredContent')) {
      compare(b.structuredContent, c.structuredContent, '', 0, 'structuredContent', volatile, once(add));
      // The text block a client or model read is gone, the data left in structuredContent alone
      // (published likec4 1.59.2: `content: []`, FP17).
      if (textBlocks(was.result) > 0 && textBlocks(o.result) === 0 && o.result.isError !== true)
        add('result-content-moved', '/content', { to: 'structuredContent' });
      else textDrift(was.result, o.result, add);
    } else if (has(b, 'structuredContent')) {
      // JSON text turned into prose is still text for the model; structuredContent gone leaves a client without its data.
      if (o.result.isError !== true) add('result-content-moved', '/structuredContent', { to: has(c, 'text') ? 'text' : 'nowhere' });
    } else if (has(b, 'text') && has(c, 'text')) {
      compare(b.text, c.text, '', 0, 'text', volatile, once(add));
    } else if (has(b, 'text') && has(c, 'structuredContent')) {
      add('result-content-moved', '/structuredContent', { to: 'structuredContent' });
    }
    yield* found.slice(0, MAX_FINDINGS_PER_PROBE);
  }
}

/** The text blocks of a result's content. */
const textBlocks = (result: Record<string, unknown>): number =>
  (Array.isArray(result.content) ? result.content : []).filter(
    (b) => isObject(b) && b.type === 'text' && typeof b.text === 'string' && b.text !== '',
  ).length;

function compare(
  was: unknown,
  now: unknown,
  pointer: string,
  depth: number,
  where: string,
  volatile: (pointer: string) => boolean,
  add: Add,
): void {
  if (depth > MAX_DEPTH || volatile(pointer)) return;
  const at = `/${where}${pointer}`;
  if (was === null) return; // null stands in for "no value" too often to call a value there a change
  if (now === null) {
    add('result-field-nulled', at, { at, was: kindOf(was) });
    return;
  }
  if (kindOf(was) !== kindOf(now)) {
    add('result-type-changed', at, { at, was: kindOf(was), now: kindOf(now) });
    return;
  }
  if (Array.isArray(was) && Array.isArray(now)) {
    if (was.length && !now.length) add('result-list-emptied', at, { at, items: was.length });
    // Every item, within bounds: a list whose items after the first are gutted is caught too.
    for (let i = 0; i < Math.min(was.length, now.length, MAX_ITEMS); i++)
      compare(was[i], now[i], `${pointer}/${i}`, depth + 1, where, volatile, add);
    return;
  }
  if (isObject(was) && isObject(now)) {
    for (const key of Object.keys(was).sort()) {
      const child = `${pointer}${segment(key)}`;
      if (volatile(child)) continue;
      if (!Object.hasOwn(now, key)) add('result-field-removed', `/${where}${child}`, { at: `/${where}${child}` });
      else compare(was[key], now[key], child, depth + 1, where, volatile, add);
    }
  }
}
