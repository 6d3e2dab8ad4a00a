import { isObject } from '../base/json-object.js';
import type { Observation } from '../cases/types.js';
import { suspiciousReasons } from '../diff/suspicious.js';
import { finding } from '../findings/finding.js';
import { onTool } from '../findings/subject.js';
import type { Finding } from '../findings/types.js';

/** What a text check reads of one result, as for a description. */
const MAX_TEXT = 20_000;

/** Every text block of a result, head lines and JSON included: all of it is what the model reads. */
const modelText = (result: Record<string, unknown>): string =>
  (Array.isArray(result.content) ? result.content : [])
    .filter((b): b is { type: 'text'; text: string } => isObject(b) && b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text)
    .join('\n')
    .slice(0, MAX_TEXT);

/**
 * Result text that turned into orders for the model ("SYSTEM: ignore prior instructions…"): the
 * candidate's text for a probe, checked against the baseline's answer to the same probe the way a
 * new description is checked (diff/suspicious.ts). A head line before JSON is text the model reads
 * too, and so is a JSON string; structuredContent staying equal makes it no less an injection.
 */
export function* steeringResults(baseline: Observation[], candidate: Observation[]): Generator<Finding> {
  const before = new Map(baseline.map((o) => [`${o.caseId}|${o.tool}`, o]));
  for (const o of candidate) {
    const was = before.get(`${o.caseId}|${o.tool}`);
    if (!was || o.kind === 'resource' || !isObject(was.result) || !isObject(o.result)) continue;
    const [then, now] = [modelText(was.result), modelText(o.result)];
    if (then === now) continue;
    const reasons = suspiciousReasons(now, then);
    if (!reasons.length) continue;
    const [a, b] = [was.result.structuredContent, o.result.structuredContent];
    const dataSame = a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b);
    const at = { side: 'candidate', subject: onTool(o.tool), caseId: o.caseId, path: '/content', regression: true } as const;
    yield finding('result-text-suspicious', { reasons, dataSame }, at);
  }
}
