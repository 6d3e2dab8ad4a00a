/** The codes diff/confirm.ts holds whatever a witness shows, and those it lets go when no instance tells the schemas apart. */

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
  'output-closed-property-added',
]);

/**
 * Held changes that are not held when no instance tells the schemas apart either way: what the
 * walk could not classify, and a bound or value list declared that the rest already implied
 * (`minLength: 0` on a string). Other held changes stay held: a search that misses a witness must
 * not turn a policy Hold into silence.
 */
export const CALMABLE = new Set<string>([
  'schema-changed',
  'input-constraint-declared',
  'input-enum-declared',
  'output-variant-added',
  'output-constraint-loosened',
  'output-enum-widened',
]);
