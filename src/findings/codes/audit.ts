import type { CodeMeta } from './meta.js';

/**
 * The audit, from the model's seat: judged as regressions, so a finding the baseline shares does
 * not move the verdict (audit/). The checks write each finding's message.
 */
export const AUDIT_CODES = {
  'structured-content-invalid': { area: 'audit', action: 'hold', title: 'Structured content fails its outputSchema' },
  'structured-content-without-text': { area: 'audit', action: 'ignore', title: 'Structured content without a text copy' },
  'error-not-flagged': { area: 'audit', action: 'hold', title: 'Errors returned without isError' },
  'pagination-hint-hidden': { area: 'audit', action: 'hold', title: 'Next-page signal hidden from the model' },
  'result-too-large': { area: 'audit', action: 'hold', title: 'Results over the byte budget' },
  'result-pretty-json': { area: 'audit', action: 'ignore', title: 'Pretty-printed JSON in results' },
  'result-size-regression': { area: 'audit', action: 'hold', title: 'Results grew' },
  // The candidate's live result against the baseline's for the same probe (audit/result-drift.ts).
  'result-field-removed': { area: 'audit', action: 'hold', title: 'Result fields gone' },
  'result-type-changed': { area: 'audit', action: 'hold', title: 'Result values of another type' },
  'result-list-emptied': { area: 'audit', action: 'hold', title: 'Result lists now empty' },
  'result-error-flipped': { area: 'audit', action: 'hold', title: 'Probes that now return an error' },
  'result-content-moved': { area: 'audit', action: 'hold', title: 'Result data moved between text and structuredContent' },
  'annotations-missing': { area: 'audit', action: 'ignore', title: 'Tools without annotations' },
  'open-world-hint-missing': { area: 'audit', action: 'ignore', title: 'openWorldHint left to its default' },
  'description-missing': { area: 'audit', action: 'ignore', title: 'Tools without a description' },
  'description-weak': { area: 'audit', action: 'ignore', title: 'Tool descriptions under 20 characters' },
  'parameter-description-missing': { area: 'audit', action: 'ignore', title: 'Parameters without a description' },
  'tool-name-invalid': { area: 'audit', action: 'ignore', title: 'Tool names outside the allowed characters' },
  'tool-name-duplicate': { area: 'audit', action: 'ignore', title: 'Tool names listed twice' },
  'tool-hints-contradict': { area: 'audit', action: 'hold', title: 'Tools whose hints contradict each other' },
  'input-schema-invalid': { area: 'audit', action: 'hold', title: 'Invalid input schemas' },
  'output-schema-invalid': { area: 'audit', action: 'ignore', title: 'Invalid output schemas' },
  // A result that cannot be checked at a bounded cost is not taken on trust (issue 28 §4).
  'output-schema-too-complex': { area: 'audit', action: 'hold', title: 'Results not checked: output schema too complex' },
  'structured-content-unchecked': { area: 'audit', action: 'hold', title: 'Results not checked: the validator failed on them' },
  'tool-definition-cost': { area: 'audit', action: 'ignore', title: 'Tool definition cost' },
  'tool-definition-cost-regression': { area: 'audit', action: 'hold', title: 'Tool definitions grew' },
  'confusable-tools': { area: 'audit', action: 'ignore', title: 'Confusable tools' },
  'prompt-description-missing': { area: 'audit', action: 'ignore', title: 'Prompts without a description' },
  'resource-description-missing': { area: 'audit', action: 'ignore', title: 'Resources and templates without a description' },
  'instructions-cost-regression': { area: 'audit', action: 'hold', title: 'Server instructions grew' },
  // The write-ups' lessons (issue 27 §5-§7; docs/writeups-lessons.md).
  'tool-reference-missing': { area: 'audit', action: 'hold', title: 'Tools named that the server does not list' },
  'server-unannotated': { area: 'audit', action: 'ignore', title: 'Servers that annotate no tool' },
  'result-field-nulled': { area: 'audit', action: 'hold', title: 'Result values now null' },
  'result-text-changed': { area: 'audit', action: 'hold', title: 'Result text rewritten with the same data' },
  'result-null-fields': { area: 'audit', action: 'hold', title: 'Result fields null in every item' },
  'pagination-hint-unusable': { area: 'audit', action: 'hold', title: 'Next-page hints the tool cannot follow' },
  'pagination-next-page-empty': { area: 'audit', action: 'hold', title: 'Next pages claimed that come back empty' },
  'result-thinned-description-unchanged': {
    area: 'audit',
    action: 'hold',
    title: 'Results thinned under a description that still promises them',
  },
} as const satisfies Record<string, CodeMeta>;
