import { HINTS, RISKY_VALUE, type Hint } from '../contract/annotations.js';
import { canonicalJson } from '../contract/canonical.js';
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
 * Moving toward the risky value is a regression. Moving away is held where the server had declared
 * the hint at its risky value (`annotation-relaxed`: the tool now claims to do less, on its word
 * alone, whether by that hint or by `readOnlyHint: true`), and safe where it had declared nothing
 * for it (the server annotating at last). A hint written out or left out at the value it had in
 * effect is `hint-declaration-changed`, calm.
 */
export function diffAnnotations(before: ContractTool, after: ContractTool): Change[] {
  const out: Change[] = [];
  for (const hint of HINTS) {
    const was = before.effectiveAnnotations[hint];
    const now = after.effectiveAnnotations[hint];
    if (was === now) {
      // Written out, or left out, at the value it had in effect: no one's call changes, the hash does.
      const [declared, declares] = [before.annotations?.[hint] ?? null, after.annotations?.[hint] ?? null];
      if (canonicalJson(declared) !== canonicalJson(declares))
        out.push(toolChange('hint-declaration-changed', after.name, ['annotations', hint], declared, declares));
      continue;
    }
    const declaredRisky = before.annotations?.[hint] === RISKY_VALUE[hint];
    const code = now === RISKY_VALUE[hint] ? REGRESSION[hint] : declaredRisky ? 'annotation-relaxed' : 'annotation-improved';
    out.push(toolChange(code, after.name, ['annotations', hint], was, now));
  }
  return out;
}
