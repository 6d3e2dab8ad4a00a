/**
 * Every finding code the gate can emit, with its typed meta. Codes are the public vocabulary:
 * users write them in `promotion.rules` and `exceptions`, so they never change spelling.
 */
export type Action = 'rollback' | 'hold' | 'ignore';
export type Severity = 'breaking' | 'dangerous' | 'safe';
type Subject =
  | 'tools'
  | 'input'
  | 'output'
  | 'annotations'
  | 'text'
  | 'prompts'
  | 'resources'
  | 'capabilities'
  | 'cases'
  | 'discovery'
  | 'audit'
  | 'roles'
  | 'bundle'
  | 'policy';

export interface CodeMeta {
  subject: Subject;
  /** What `decide/` does when the code fires and no rule overrides it. */
  action: Action;
  /** What a short label for a reason says, before counts. */
  title: string;
}

export const CODES = {
  'tool-removed': { subject: 'tools', action: 'rollback', title: 'Tools removed' },
  'tool-added': { subject: 'tools', action: 'ignore', title: 'Tools added' },
  'tool-added-destructive': { subject: 'tools', action: 'rollback', title: 'New destructive tools' },
  'tool-added-destructive-by-default': { subject: 'tools', action: 'hold', title: 'New tools destructive only by the spec defaults' },
  'tool-renamed': { subject: 'tools', action: 'rollback', title: 'Tools likely renamed' },

  'required-argument-added': { subject: 'input', action: 'rollback', title: 'Required arguments added' },
  'required-argument-removed': { subject: 'input', action: 'rollback', title: 'Required arguments removed' },
  'argument-became-optional': { subject: 'input', action: 'ignore', title: 'Arguments became optional' },
  'input-property-added': { subject: 'input', action: 'ignore', title: 'Optional arguments added' },
  'input-property-removed': { subject: 'input', action: 'hold', title: 'Optional arguments removed' },
  'input-type-changed': { subject: 'input', action: 'rollback', title: 'Argument types narrowed or changed' },
  'input-type-widened': { subject: 'input', action: 'ignore', title: 'Argument types widened' },
  'input-enum-narrowed': { subject: 'input', action: 'rollback', title: 'Argument enums narrowed' },
  'input-enum-widened': { subject: 'input', action: 'ignore', title: 'Argument enums widened' },
  'input-constraint-tightened': { subject: 'input', action: 'rollback', title: 'Argument constraints tightened' },
  'input-constraint-loosened': { subject: 'input', action: 'ignore', title: 'Argument constraints loosened' },
  'input-closed': { subject: 'input', action: 'rollback', title: 'Input schemas closed' },
  'input-opened': { subject: 'input', action: 'ignore', title: 'Input schemas opened' },
  'input-default-changed': { subject: 'input', action: 'hold', title: 'Argument defaults changed' },
  // A baseline input schema that is not an object schema breaks the protocol: what changed against it is a repair.
  'input-schema-repaired': { subject: 'input', action: 'hold', title: 'Input schemas repaired from a protocol violation' },
  // The invariant: schemas that differ in more than text never diff to nothing. What cannot be ordered lands here.
  'schema-changed': { subject: 'input', action: 'hold', title: 'Schema changes the gate cannot classify' },
  'schema-annotation-changed': { subject: 'input', action: 'ignore', title: 'Schema annotations changed' },

  'output-schema-added': { subject: 'output', action: 'ignore', title: 'Output schemas added' },
  'output-schema-removed': { subject: 'output', action: 'rollback', title: 'Output schemas removed' },
  'output-property-added': { subject: 'output', action: 'ignore', title: 'Output fields added' },
  'output-property-removed': { subject: 'output', action: 'rollback', title: 'Output fields removed' },
  'output-property-optional': { subject: 'output', action: 'rollback', title: 'Output fields no longer guaranteed' },
  'output-type-changed': { subject: 'output', action: 'rollback', title: 'Output types widened or changed' },
  'output-type-narrowed': { subject: 'output', action: 'ignore', title: 'Output types narrowed' },
  'output-enum-widened': { subject: 'output', action: 'hold', title: 'Output enums widened' },
  'output-enum-narrowed': { subject: 'output', action: 'ignore', title: 'Output enums narrowed' },
  'output-constraint-loosened': { subject: 'output', action: 'hold', title: 'Output constraints loosened' },
  'output-constraint-tightened': { subject: 'output', action: 'ignore', title: 'Output constraints tightened' },

  'readonly-hint-regression': { subject: 'annotations', action: 'rollback', title: 'Read-only hint regressions' },
  'destructive-hint-regression': { subject: 'annotations', action: 'rollback', title: 'Destructive hint regressions' },
  'idempotent-hint-regression': { subject: 'annotations', action: 'hold', title: 'Idempotent hint regressions' },
  'open-world-hint-regression': { subject: 'annotations', action: 'hold', title: 'Open-world hint regressions' },
  'annotation-improved': { subject: 'annotations', action: 'ignore', title: 'Annotations made safer' },

  'description-changed': { subject: 'text', action: 'hold', title: 'Descriptions rewritten' },
  // A small wording edit that adds, removes or flips no instruction and changes no figure (diff/wording.ts).
  'description-reworded': { subject: 'text', action: 'ignore', title: 'Descriptions reworded' },
  'description-suspicious': { subject: 'text', action: 'rollback', title: 'Suspicious descriptions' },
  'title-changed': { subject: 'text', action: 'ignore', title: 'Titles changed' },
  'instructions-changed': { subject: 'text', action: 'hold', title: 'Server instructions rewritten' },
  'instructions-reworded': { subject: 'text', action: 'ignore', title: 'Server instructions reworded' },

  // Beside the tools (contract/features.ts, diff/features.ts): what clients offer users, and what they read.
  'prompt-removed': { subject: 'prompts', action: 'rollback', title: 'Prompts removed' },
  'prompt-renamed': { subject: 'prompts', action: 'rollback', title: 'Prompts likely renamed' },
  'prompt-argument-required': { subject: 'prompts', action: 'rollback', title: 'Prompt arguments now required' },
  'prompt-argument-removed': { subject: 'prompts', action: 'hold', title: 'Prompt arguments removed' },
  'prompt-added': { subject: 'prompts', action: 'ignore', title: 'Prompts added' },
  'resource-template-removed': { subject: 'resources', action: 'rollback', title: 'Resource templates removed' },
  'resource-template-variables-changed': { subject: 'resources', action: 'rollback', title: 'Resource template variables changed' },
  'resource-template-added': { subject: 'resources', action: 'ignore', title: 'Resource templates added' },
  // Static resources are often data (files, records) that come and go: held for a person, not rolled back.
  'resource-removed': { subject: 'resources', action: 'hold', title: 'Resources removed' },
  'resource-mime-type-changed': { subject: 'resources', action: 'hold', title: 'Resource MIME types changed' },
  'resource-added': { subject: 'resources', action: 'ignore', title: 'Resources added' },
  'capability-removed': { subject: 'capabilities', action: 'hold', title: 'Capabilities removed' },
  'capability-added': { subject: 'capabilities', action: 'ignore', title: 'Capabilities added' },

  'case-broken': { subject: 'cases', action: 'rollback', title: 'Frozen role cases broken' },
  // A case the baseline fails the same way: pre-existing, so reported and not judged unless a rule says hold.
  'case-already-failing': { subject: 'cases', action: 'ignore', title: 'Cases failing on the baseline too' },
  'forbidden-tool-exposed': { subject: 'cases', action: 'rollback', title: 'Forbidden tools exposed' },

  'candidate-unavailable': { subject: 'discovery', action: 'rollback', title: 'Candidate unavailable' },
  'protocol-violation': { subject: 'discovery', action: 'hold', title: 'Protocol violations' },
  // Fires (and holds) only when the negotiated revision goes down, severity dangerous. An upgrade is
  // a safe change: listed in diff.changes, never a signal (see decide/signals.ts).
  'protocol-version-changed': { subject: 'discovery', action: 'hold', title: 'Protocol version went down' },

  // Audit (model seat): judged as regressions, so a finding the baseline shares does not move the verdict.
  'structured-content-invalid': { subject: 'audit', action: 'hold', title: 'Structured content fails its outputSchema' },
  'structured-content-without-text': { subject: 'audit', action: 'ignore', title: 'Structured content without a text copy' },
  'error-not-flagged': { subject: 'audit', action: 'hold', title: 'Errors returned without isError' },
  'pagination-hint-hidden': { subject: 'audit', action: 'hold', title: 'Next-page signal hidden from the model' },
  'result-too-large': { subject: 'audit', action: 'hold', title: 'Results over the byte budget' },
  'result-pretty-json': { subject: 'audit', action: 'ignore', title: 'Pretty-printed JSON in results' },
  'result-size-regression': { subject: 'audit', action: 'hold', title: 'Results grew' },
  // The candidate's live result against the baseline's for the same probe (audit/result-drift.ts).
  'result-field-removed': { subject: 'audit', action: 'hold', title: 'Result fields gone' },
  'result-type-changed': { subject: 'audit', action: 'hold', title: 'Result values of another type' },
  'result-list-emptied': { subject: 'audit', action: 'hold', title: 'Result lists now empty' },
  'result-error-flipped': { subject: 'audit', action: 'hold', title: 'Probes that now return an error' },
  'result-content-moved': { subject: 'audit', action: 'hold', title: 'Result data moved between text and structuredContent' },
  'annotations-missing': { subject: 'audit', action: 'ignore', title: 'Tools without annotations' },
  'open-world-hint-missing': { subject: 'audit', action: 'ignore', title: 'openWorldHint left to its default' },
  'description-missing': { subject: 'audit', action: 'ignore', title: 'Tools without a description' },
  'description-weak': { subject: 'audit', action: 'ignore', title: 'Tool descriptions under 20 characters' },
  'parameter-description-missing': { subject: 'audit', action: 'ignore', title: 'Parameters without a description' },
  'tool-name-invalid': { subject: 'audit', action: 'ignore', title: 'Tool names outside the allowed characters' },
  'tool-name-duplicate': { subject: 'audit', action: 'ignore', title: 'Tool names listed twice' },
  'input-schema-invalid': { subject: 'audit', action: 'hold', title: 'Invalid input schemas' },
  'output-schema-invalid': { subject: 'audit', action: 'ignore', title: 'Invalid output schemas' },
  'tool-definition-cost': { subject: 'audit', action: 'ignore', title: 'Tool definition cost' },
  'tool-definition-cost-regression': { subject: 'audit', action: 'hold', title: 'Tool definitions grew' },
  'confusable-tools': { subject: 'audit', action: 'ignore', title: 'Confusable tools' },
  'prompt-description-missing': { subject: 'audit', action: 'ignore', title: 'Prompts without a description' },
  'resource-description-missing': { subject: 'audit', action: 'ignore', title: 'Resources and templates without a description' },
  'instructions-cost-regression': { subject: 'audit', action: 'hold', title: 'Server instructions grew' },

  // Roles: a dataset's `role: { name, allowedTools, maxDestructiveTools }`. Hold, not rollback: the tool
  // may be sound and the allowlist stale, so a person decides which one to change. A new destructive
  // tool is already a rollback through tool-added-destructive.
  'role-surface-leak': { subject: 'roles', action: 'hold', title: "Tools outside a role's allowlist" },
  'role-destructive-limit': { subject: 'roles', action: 'hold', title: 'Roles over their destructive tool cap' },

  // Bundles: two servers of one bundle whose candidates expose the same tool name. An agent connected
  // to both cannot tell which one it calls.
  'cross-server-name-collision': { subject: 'bundle', action: 'hold', title: 'Tool names exposed by more than one server' },

  // The change under review edits the gate's own config or datasets (see config/policy-drift.ts).
  'gate-policy-changed': { subject: 'policy', action: 'hold', title: 'Gate policy changed by this change' },
  'exception-expired': { subject: 'policy', action: 'hold', title: 'Expired exceptions' },
  'exception-stale': { subject: 'policy', action: 'hold', title: 'Stale exceptions' },
} as const satisfies Record<string, CodeMeta>;

export type Code = keyof typeof CODES;

export const isCode = (value: string): value is Code => Object.hasOwn(CODES, value);

/** Codes in declaration order: the order reasons and changes are listed in. */
export const CODE_ORDER: readonly Code[] = Object.keys(CODES) as Code[];
export const codeRank = (code: string): number => {
  const rank = CODE_ORDER.indexOf(code as Code);
  return rank === -1 ? CODE_ORDER.length : rank;
};
