/**
 * Tool annotations as the spec means them: a hint the server left out takes its default.
 * An unannotated tool is therefore, by the spec, a non-read-only, destructive, open-world tool.
 */
export const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
export type Hint = (typeof HINTS)[number];
export type EffectiveAnnotations = Record<Hint, boolean>;

const SPEC_DEFAULTS: EffectiveAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

/** The value of each hint that makes a tool riskier for an agent to call. */
export const RISKY_VALUE: EffectiveAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

export function effectiveAnnotations(raw: unknown): { effective: EffectiveAnnotations; defaulted: Hint[] } {
  const given = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const effective = { ...SPEC_DEFAULTS };
  const defaulted: Hint[] = [];
  for (const hint of HINTS) {
    if (typeof given[hint] === 'boolean') effective[hint] = given[hint];
    else defaulted.push(hint);
  }
  // destructiveHint and idempotentHint are meaningful only when readOnlyHint is false.
  if (effective.readOnlyHint) {
    effective.destructiveHint = false;
    effective.idempotentHint = true;
  }
  return { effective, defaulted };
}

/** A tool that can change the world in a way that cannot be undone: not read-only, and destructive. */
export const isDestructive = (effective: EffectiveAnnotations): boolean => !effective.readOnlyHint && effective.destructiveHint;

/**
 * A tool that declares none of the four hints: every one is the spec's default. A server whose
 * tools all do has told its clients nothing (docs/verdicts.md, `promotion.unannotatedServers`).
 */
export const declaresNoHint = (tool: { defaultedHints: readonly Hint[] }): boolean => tool.defaultedHints.length === HINTS.length;
