import type { Change } from '../findings/types.js';
import { CODES } from '../findings/codes.js';

export interface DiffSummary {
  addedTools: number;
  removedTools: number;
  schemaBreakages: number;
  readOnlyHintRegressions: number;
  addedDestructiveTools: number;
  breaking: number;
  dangerous: number;
  safe: number;
}

const DESTRUCTIVE_ADDED = new Set(['tool-added-destructive', 'tool-added-destructive-by-default', 'tool-added-unannotated-lookup']);

const toolsWith = (changes: Change[], keep: (c: Change) => boolean): number => new Set(changes.filter(keep).map((c) => c.tool)).size;

/** The summary counts tools, not changes, as the interface defines; the severity totals count changes. */
export function summarize(changes: Change[]): DiffSummary {
  return {
    addedTools: toolsWith(changes, (c) => c.code === 'tool-added'),
    removedTools: toolsWith(
      changes,
      (c) => c.code === 'tool-removed' || c.code === 'tool-removed-after-deprecation' || c.code === 'tool-renamed',
    ),
    schemaBreakages: toolsWith(changes, (c) => CODES[c.code].area === 'input' && c.severity === 'breaking'),
    readOnlyHintRegressions: toolsWith(changes, (c) => c.code === 'readonly-hint-regression'),
    // A bare lookup is not held, but by the spec's defaults it is destructive all the same.
    addedDestructiveTools: toolsWith(changes, (c) => DESTRUCTIVE_ADDED.has(c.code)),
    breaking: changes.filter((c) => c.severity === 'breaking').length,
    dangerous: changes.filter((c) => c.severity === 'dangerous').length,
    safe: changes.filter((c) => c.severity === 'safe').length,
  };
}
