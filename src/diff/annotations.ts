import { HINTS, RISKY_VALUE, type Hint } from '../contract/annotations.js';
import type { ContractTool } from '../contract/types.js';
import type { ChangeCode } from '../findings/codes.js';
import type { Change } from '../findings/types.js';
import { toolChange } from './change.js';

const REGRESSION: Record<Hint, ChangeCode> = {
  readOnlyHint: 'readonly-hint-regression',
  destructiveHint: 'destructive-hint-regression',
  idempotentHint: 'idempotent-hint-regression',
  openWorldHint: 'open-world-hint-regression',
};

/**
 * Compares effective hints, so a hint going from absent to its spec default is no change.
 * Moving toward the risky value is a regression; moving away is reported as safe.
 */
export function diffAnnotations(before: ContractTool, after: ContractTool): Change[] {
  const out: Change[] = [];
  for (const hint of HINTS) {
    const was = before.effectiveAnnotations[hint];
    const now = after.effectiveAnnotations[hint];
    if (was === now) continue;
    out.push(toolChange(now === RISKY_VALUE[hint] ? REGRESSION[hint] : 'annotation-improved', after.name, ['annotations', hint], was, now));
  }
  return out;
}
