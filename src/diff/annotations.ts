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
 * Moving toward the risky value is a regression. Moving away is safe where the server declares a
 * hint it did not before (it annotates at last), and held where it changes a hint it declared at
 * the risky value (`annotation-relaxed`: the tool claims to do less, on its word alone).
 */
export function diffAnnotations(before: ContractTool, after: ContractTool): Change[] {
  const out: Change[] = [];
  for (const hint of HINTS) {
    const was = before.effectiveAnnotations[hint];
    const now = after.effectiveAnnotations[hint];
    if (was === now) continue;
    const relaxed = before.annotations?.[hint] === RISKY_VALUE[hint] && after.annotations?.[hint] === !RISKY_VALUE[hint];
    const code = now === RISKY_VALUE[hint] ? REGRESSION[hint] : relaxed ? 'annotation-relaxed' : 'annotation-improved';
    out.push(toolChange(code, after.name, ['annotations', hint], was, now));
  }
  return out;
}
