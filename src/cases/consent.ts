import { callRefusal } from '../contract/callable.js';
import type { Contract, ContractTool } from '../contract/types.js';

/** What a side's profile consents to (`allowSideEffects`, `safeTools`); a snapshot consents to nothing. */
export interface SideConsent {
  allowSideEffects: boolean;
  /** Tools a person declared safe to call, though their hints do not say read-only. */
  safeTools?: string[];
}

/**
 * Why the gate may not call a tool, or null when it may. The one consent rule for every tools/call
 * the gate makes (case probes, record, witnesses sent live):
 * - `never`: listed twice or with contradicting hints (contract/callable.ts), whatever consent was given;
 * - `side-effects`: not read-only by its effective annotations, and neither the profile
 *   (`allowSideEffects`, `safeTools`) nor the caller (`granted`: a case marked `sideEffects: allowed`)
 *   consented;
 * - `open-world`: asked only by callers that chose the arguments themselves (`closedWorld`, the
 *   witnesses): the tool may reach outside systems by its effective openWorldHint, and the profile
 *   did not consent. A case's arguments are a person's; a witness is the gate's, so it never
 *   reaches a live external API unasked.
 */
export type ConsentGap = { kind: 'never'; reason: string } | { kind: 'side-effects' } | { kind: 'open-world' };

export function consentGap(
  tool: ContractTool,
  contract: Pick<Contract, 'discovery'>,
  consent: SideConsent,
  options: { granted?: boolean; closedWorld?: boolean } = {},
): ConsentGap | null {
  const refusal = callRefusal(tool, contract);
  if (refusal) return { kind: 'never', reason: refusal };
  const profile = consent.allowSideEffects || (consent.safeTools ?? []).includes(tool.name);
  if (!tool.effectiveAnnotations.readOnlyHint && !profile && !options.granted) return { kind: 'side-effects' };
  if (options.closedWorld && tool.effectiveAnnotations.openWorldHint && !profile) return { kind: 'open-world' };
  return null;
}

/** How a tool's readOnlyHint came to be false, for the sentence that says why it is not called. */
export const notReadOnlyWhy = (tool: ContractTool): string =>
  tool.defaultedHints.includes('readOnlyHint') ? 'it declares no readOnlyHint, and the spec default is false' : 'its readOnlyHint is false';

/** How a tool's openWorldHint came to be true. */
export const openWorldWhy = (tool: ContractTool): string =>
  tool.defaultedHints.includes('openWorldHint')
    ? 'it declares no openWorldHint, and the spec default is true'
    : 'its openWorldHint is true';
