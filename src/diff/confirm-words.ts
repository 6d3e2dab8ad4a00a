import type { Change, Witness } from '../findings/types.js';
import type { WitnessOutcome } from '../witness/search.js';
import { toolChange } from './change.js';
import type { Side } from './confirm-ask.js';

/** What a witness, or its absence, adds to a change: its `witness` and the sentence in its message. */
const clip = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max)}…` : text);
const shown = (instance: unknown) => `\`${clip(JSON.stringify(instance) ?? 'undefined')}\``;

export function withWitness(c: Change, side: Side, outcome: WitnessOutcome): Change {
  if (outcome.kind === 'found') {
    const witness: Witness = {
      status: 'found',
      side,
      instance: outcome.instance,
      refusal: clip(outcome.refusal, 300),
      tried: outcome.tried,
    };
    return { ...c, witness, message: `${c.message} ${evidence(side, outcome.instance, witness.refusal!)}` };
  }
  if (outcome.kind === 'unsearchable') {
    const witness: Witness = { status: 'unsearchable', side, tried: outcome.tried, note: outcome.reason };
    return { ...c, witness, message: `${c.message} Not confirmed by a search: ${outcome.reason}.` };
  }
  const note = outcome.strategies.join('; ');
  const witness: Witness = { status: 'unconfirmed', side, tried: outcome.tried, note };
  const what =
    side === 'input'
      ? 'no call the baseline accepts and the candidate refuses'
      : 'no result the candidate may return and the baseline refused';
  return {
    ...c,
    severity: 'dangerous',
    witness,
    message: `${c.message} Unconfirmed: ${what} was found in ${outcome.tried} tries (${clip(note, 160)}). A search that finds nothing proves nothing, so it is held, not rolled back.`,
  };
}

/**
 * A break whose every refused call found passes an argument that starts with '-': held, with the
 * witness and why (docs/verdicts.md, "Argument-injection hardening").
 */
export function hardening(c: Change, side: Side, outcome: Extract<WitnessOutcome, { kind: 'found' }>, tried: number): Change {
  const witness: Witness = {
    status: 'found',
    side,
    instance: outcome.instance,
    refusal: clip(outcome.refusal, 300),
    tried,
    optionLike: true,
  };
  return {
    ...c,
    severity: 'dangerous',
    witness,
    message: `${c.message} ${evidence(side, outcome.instance, witness.refusal!)} Every refused call found passes an argument that starts with '-', which a command line reads as an option: argument-injection hardening, so it is held, not rolled back.`,
  };
}

/** A held change with the witness that shows what it refuses: evidence, not a verdict. */
export function evidenced(c: Change, side: Side, outcome: Extract<WitnessOutcome, { kind: 'found' }>): Change {
  const witness: Witness = { status: 'found', side, instance: outcome.instance, refusal: clip(outcome.refusal, 300), tried: outcome.tried };
  return { ...c, witness, message: `${c.message} For example: ${evidence(side, outcome.instance, witness.refusal!)}` };
}

/** The sentence a witness adds to a change's message. */
export function evidence(side: Side, instance: unknown, refusal: string): string {
  return side === 'input'
    ? `${shown(instance)} was accepted and is now refused: ${refusal}.`
    : `A result like ${shown(instance)} may now be returned, which the baseline's schema refused: ${refusal}.`;
}

/** What a witness shows of the schemas alone, where a live answer contradicts what they claim of the server. */
export function schemaClaim(side: Side, instance: unknown, refusal: string): string {
  return side === 'input'
    ? `${shown(instance)} is refused by the candidate's schema (${refusal}); the baseline's accepted it.`
    : `${shown(instance)} is allowed by the candidate's schema; the baseline's refused it (${refusal}).`;
}

export const spotted = (side: Side, tool: string): Change =>
  side === 'input'
    ? toolChange('input-call-refused', tool, ['inputSchema'], null, null)
    : toolChange('output-result-unpromised', tool, ['outputSchema'], null, null);

/**
 * A held change let go because a proof shows the two schemas accept the same instances (normal-form
 * equality, a structural rule, patterns compared as languages): never because a search found nothing.
 */
export function proven(c: Change, side: Side, proof: string): Change {
  const witness: Witness = { status: 'proven', side, tried: 0, note: proof };
  return { ...c, severity: 'safe', witness, message: `${c.message} Proven calm: ${proof}, so it is not held.` };
}

/**
 * A held change no instance was found for, either way, and no proof lets go: it stays held, and says
 * that the search's silence is no evidence (docs/verdicts.md, "Calm needs a proof").
 */
export function unproven(c: Change, side: Side, tried: number): Change {
  const what =
    side === 'input'
      ? 'no call the baseline accepts and the candidate refuses'
      : 'no result the candidate may return and the baseline refused';
  const witness: Witness = {
    status: 'unconfirmed',
    side,
    tried,
    note: `${what} was found; nothing proves the schemas accept the same instances`,
  };
  return {
    ...c,
    witness,
    message: `${c.message} Not proven calm: the search found ${what} in ${tried} tries, but a search that finds nothing proves nothing, so it is held.`,
  };
}
