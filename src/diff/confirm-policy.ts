/** The codes diff/confirm.ts holds whatever a witness shows, and those whose search's silence it says proves nothing. */

/**
 * Codes held by documented policy though an instance may witness them (README, "Documented
 * policy"): a witness is their evidence, not a reason to roll back.
 */
export const POLICY_HELD = new Set<string>([
  'input-constraint-declared',
  'input-enum-declared',
  'input-enum-dropped',
  'input-closed',
  'input-property-removed',
  'argument-removed-after-deprecation',
  'required-argument-added-with-default',
  'input-default-changed',
  'input-schema-repaired',
  'output-enum-widened',
  'output-constraint-loosened',
  'output-variant-added',
]);

/**
 * Held changes a search that found nothing used to let go, and that now stay held and say so (the
 * search's silence proves nothing; docs/verdicts.md, "Calm needs a proof"): what the walk could not
 * classify, and a bound, value list or output alternative declared. The deeper spot check looks
 * for a break hidden under them, which is a Rollback, not a Hold.
 */
export const CALMABLE = new Set<string>([
  'schema-changed',
  'input-constraint-declared',
  'input-enum-declared',
  'output-variant-added',
  'output-constraint-loosened',
  'output-enum-widened',
]);

/**
 * Safe changes that explain a witness found where they are: an output value the baseline's schema
 * refused only for being null, now admitted (docs/verdicts.md, "An output that may now be null");
 * an argument the baseline did not declare, now declared, where the baseline's input said
 * `additionalProperties: true` (zod's passthrough): the witness sends a name no model was shown,
 * which is no break (docs/verdicts.md, the witness search); a bound that refuses only degenerate
 * values, and values the argument's text already listed (each still taken), where the witness
 * sends what no call made from the schema and text sends; a field added to an output the baseline
 * closed, which the schema listed now declares (docs/verdicts.md, "An output that may now be null").
 */
export const EXPLAINS_WITNESS = new Set<string>([
  'output-type-nullable',
  'input-property-added',
  'input-constraint-declared-degenerate',
  'input-enum-declared-listed',
  'output-closed-property-added',
]);
