import type { Contract } from '../contract/types.js';
import { finding } from '../findings/finding.js';
import { onTool } from '../findings/subject.js';
import type { Finding } from '../findings/types.js';

/** Words by which a description promises the whole record: what a thinned result no longer gives. */
const PROMISE =
  /\b(?:full|complete|all|every|entire)\s+(?:details?|records?|fields?|data|information|contents?)\b|\bin full\b|\bdetailed\b/i;

/**
 * Results that lost fields while the tool's description stayed word for word the same and still
 * promises the whole record (the write-ups' "code and description land together"): the model keeps
 * reading "full details" and takes the thin record for all there is. One finding per tool, on the
 * first probe that shows the thinning; the field losses stay their own `result-field-removed`.
 */
export function thinnedUnderSameDescription(baseline: Contract | null, candidate: Contract | null, drift: Finding[]): Finding[] {
  if (!baseline || !candidate) return [];
  const before = new Map(baseline.tools.map((t) => [t.name, t.description]));
  const after = new Map(candidate.tools.map((t) => [t.name, t.description]));
  const removed = new Map<string, Finding[]>();
  for (const f of drift) if (f.code === 'result-field-removed' && f.tool !== null) removed.set(f.tool, [...(removed.get(f.tool) ?? []), f]);
  const out: Finding[] = [];
  for (const [tool, losses] of [...removed].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const description = after.get(tool);
    if (!description || before.get(tool) !== description) continue;
    const promise = PROMISE.exec(description);
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
    out.push(finding('result-thinned-description-unchanged', { fields, promise: promise[0] }, at));
  }
  return out;
}
