import { isObject } from '../base/json-object.js';
import { resultData } from '../base/result-data.js';
import type { Observation } from '../cases/types.js';
import type { Contract } from '../contract/types.js';
import { finding } from '../findings/finding.js';
import { onTool } from '../findings/subject.js';
import type { Finding } from '../findings/types.js';

/** Words by which a description promises the whole record ("full ticket details"): what a thinned result no longer gives. */
const PROMISE =
  /\b(?:full|complete|all|every|entire)\s+(?:[\p{L}-]+\s+)?(?:details?|records?|fields?|data|information|contents?)\b|\bin full\b|\bdetailed\b/iu;

/**
 * The description's first promise of the whole record in a sentence that names no other tool the
 * server lists: "call get_ticket for the full details" sends the model on, which is the fix.
 */
function promiseOf(description: string, others: Set<string>): string | null {
  for (const sentence of description.split(/(?<=[.!?;])\s+/)) {
    const promise = PROMISE.exec(sentence);
    const words = sentence.match(/[\w.-]+/g) ?? [];
    if (promise && !words.some((w) => others.has(w.replace(/\.+$/, '')))) return promise[0];
  }
  return null;
}

const MAX_DEPTH = 3;
const MAX_ITEMS = 50;

/**
 * The names of the fields the records of a result carry, nested ones too (a hit `{ticket: {...},
 * score}` carries the ticket's fields): the records are the first list of objects in its data
 * (breadth first, a few levels down, so an envelope around it does not matter), or the object itself.
 */
function recordFields(data: unknown): Set<string> {
  const names = new Set<string>();
  const walk = (value: unknown, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    if (Array.isArray(value)) for (const item of value.slice(0, MAX_ITEMS)) walk(item, depth + 1);
    else if (isObject(value))
      for (const [key, child] of Object.entries(value)) {
        names.add(key);
        walk(child, depth + 1);
      }
  };
  let level: unknown[] = [data];
  for (let depth = 0; depth <= MAX_DEPTH && level.length; depth++) {
    const next: unknown[] = [];
    for (const value of level) {
      if (Array.isArray(value) && value.some(isObject)) {
        walk(value, 0);
        return names;
      }
      if (isObject(value)) next.push(...Object.values(value));
    }
    level = next;
  }
  walk(data, 0);
  return names;
}

/**
 * Where the data moved between the JSON text and `structuredContent` (`result-content-moved`), the
 * drift compares no fields: the envelope changed with the place. The records still can be, whatever
 * wraps them (the write-ups' list tool went from the REST envelope to thin records in one release):
 * they thinned when they lost more fields than they gained.
 */
function recordsLost(drift: Finding[], baseline: Observation[], candidate: Observation[]): Finding[] {
  const out: Finding[] = [];
  const first = (list: Observation[], f: Finding) => list.find((o) => o.caseId === f.caseId && o.tool === f.tool && o.kind !== 'resource');
  for (const f of drift) {
    if (f.code !== 'result-content-moved' || f.tool === null) continue;
    const [was, now] = [first(baseline, f), first(candidate, f)];
    if (!was || !now) continue;
    const [before, after] = [recordFields(resultData(was.result)), recordFields(resultData(now.result))];
    const lost = [...before].filter((name) => !after.has(name)).sort();
    const gained = [...after].filter((name) => !before.has(name));
    if (after.size && lost.length > gained.length)
      for (const name of lost) out.push({ ...f, code: 'result-field-removed', path: `*/${name}` });
  }
  return out;
}

/**
 * Results that lost fields while the tool's description still promises the whole record, left as it
 * was or rewritten in the same release (the write-ups' "code and description land together"): the
 * model keeps reading "full details" and takes the thin record for all there is. One finding per
 * tool, on the first probe that shows the thinning; the field losses stay their own
 * `result-field-removed`.
 */
export function thinnedUnderPromise(
  baseline: { contract: Contract | null; observations: Observation[] },
  candidate: { contract: Contract | null; observations: Observation[] },
  drift: Finding[],
): Finding[] {
  if (!baseline.contract || !candidate.contract) return [];
  const after = new Map(candidate.contract.tools.map((t) => [t.name, t.description]));
  const removed = new Map<string, Finding[]>();
  for (const f of [...drift, ...recordsLost(drift, baseline.observations, candidate.observations)])
    if (f.code === 'result-field-removed' && f.tool !== null) removed.set(f.tool, [...(removed.get(f.tool) ?? []), f]);
  const out: Finding[] = [];
  for (const [tool, losses] of [...removed].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const description = after.get(tool);
    if (!description) continue;
    const promise = promiseOf(description, new Set([...after.keys()].filter((name) => name !== tool)));
    if (!promise) continue;
    const fields = [...new Set(losses.map((f) => f.path?.replace(/\/\d+(?=\/|$)/g, '/*') ?? ''))];
    const first = losses[0]!;
    const at = {
      side: 'candidate',
      subject: onTool(tool),
      caseId: first.caseId,
      regression: true,
      direction: 'new',
      source: first.source,
    } as const;
    out.push(finding('result-thinned-description-unchanged', { fields, promise }, at));
  }
  return out;
}
