import type { Change, LiveCheck } from '../findings/types.js';
import { toolChange } from './change.js';
import { instancePath, isClosingProbe, UNDECLARED_ARGUMENT, witnessArgument } from '../findings/instance-path.js';
import { evidence, schemaClaim } from './confirm-words.js';
import { closedPlace } from './confirm-closed.js';
import { literal } from '../base/safe-regex.js';

/**
 * What a witness sent live (cases/witness-calls.ts) makes of its change, as data and as a sentence:
 * - refuted: the candidate answered without an error, so a break is held, not rolled back
 *   (decide/signals.ts caps it; its severity becomes dangerous);
 * - confirmed: the candidate refused the call as invalid input and the baseline answered it. A
 *   required argument that declares a default is then no longer a claim of zod's: it is
 *   `required-argument-added`, a Rollback, when the witness is a call that leaves it out;
 * - already refused: both refused it as invalid input, and the baseline's refusal names the
 *   argument the change is about. Its listed schema did not say what it took, so the witness shows
 *   no call that worked: a break is held, not rolled back (docs/verdicts.md, "Confirmed live");
 * - the same failure: both failed on their way to another host with the same error
 *   (cases/witness-answers.ts), so the candidate took the arguments its schema says it refuses: a
 *   break is held, not rolled back;
 * - default kept: a call that leaves out an argument the candidate now requires, where the baseline
 *   declared a default for it, failed on both sides with the same error, and that error names the
 *   old default: the candidate got as far as using the argument, and still filled the default in.
 *   The break is held, not rolled back;
 * - ignored (a removed argument's probe sent on a case's call): the candidate answered as it answers
 *   the case's call without the argument, where the baseline's answer changed with it: a break,
 *   `input-option-ignored`;
 * - unconfirmed or not called: the change stands as the search left it, and says why.
 * A witness sent on a case's call (cases/witness-grounds.ts) says so, after what it showed.
 */
export function applyLive(changes: Change[], checks: Map<number, LiveCheck>): Change[] {
  return changes.map((c, i) => {
    const live = checks.get(i);
    return live && c.witness ? withLive(c, live, droppedDefault(changes, c)) : c;
  });
}

/**
 * The default the baseline declared for the argument a `required-argument-added` is about, when the
 * candidate dropped it (the `input-default-changed` beside it, to none): a string, or undefined.
 */
function droppedDefault(changes: Change[], c: Change): string | undefined {
  if (c.code !== 'required-argument-added' || c.subject.kind !== 'tool') return undefined;
  const at = JSON.stringify([...c.subject.at, 'default']);
  const dropped = changes.find(
    (d) => d.code === 'input-default-changed' && d.tool === c.tool && d.subject.kind === 'tool' && JSON.stringify(d.subject.at) === at,
  );
  return dropped && dropped.after === null && typeof dropped.before === 'string' ? dropped.before : undefined;
}

const clip = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max)}…` : text);

function withLive(c: Change, live: LiveCheck, oldDefault: string | undefined): Change {
  const judged = judgedLive(c, live, oldDefault);
  return live.case === undefined ? judged : { ...judged, message: `${judged.message} ${onCase(c, live.case)}` };
}

/** Which call the witness went out as: the case's, with the witness's value for the argument the change is about. */
function onCase(c: Change, caseId: string): string {
  // A closing's probe inside the arguments goes in the case's own object (cases/witness-grounds.ts).
  if (isClosingProbe(c) && instancePath(c).length)
    return `It was sent on the arguments of case "${clip(caseId, 80)}", which both sides answered without an error, with "${UNDECLARED_ARGUMENT}": true added in ${closedPlace(c)}.`;
  const name = witnessArgument(c) ?? '';
  const instance = c.witness?.instance as Record<string, unknown> | undefined;
  const value =
    instance && Object.hasOwn(instance, name) ? `"${name}": ${clip(JSON.stringify(instance[name]) ?? '', 80)}` : `"${name}" left out`;
  return `It was sent on the arguments of case "${clip(caseId, 80)}", which both sides answered without an error, with ${value}.`;
}

function judgedLive(c: Change, live: LiveCheck, oldDefault: string | undefined): Change {
  const witness = { ...c.witness!, live };
  const said = (side: 'candidate' | 'baseline') => (live[side]?.text ? ` ("${clip(live[side]!.text)}")` : '');
  if (witness.status === 'probe') return probed(c, witness, live, said);
  if (isClosingProbe(c)) return closing(c, witness, live, said);
  if (live.outcome === 'unconfirmed' && oldDefault !== undefined && keptDefault(c, live, oldDefault)) {
    const kept: LiveCheck = {
      ...live,
      outcome: 'default-kept',
      note: "both sides gave the same error, which names the argument's old default, past the input",
    };
    const sentence = `Not refused live: both sides failed at the same work with the same error${said('candidate')}, which names ${JSON.stringify(oldDefault)}, the default the baseline declared for it: the candidate still fills it in`;
    return heldLive(c, { ...witness, live: kept }, sentence);
  }
  if (live.outcome === 'unconfirmed' && refusedOverTheSameArgument(c, live)) {
    const already: LiveCheck = {
      ...live,
      outcome: 'already-refused',
      note: 'the baseline refused the same call as invalid input, over the same argument',
    };
    const sentence = `Not a break live: the baseline refused this call as invalid input too${said('baseline')}, over the same argument, so its listed schema did not say what it took`;
    return heldLive(c, { ...witness, live: already }, sentence);
  }
  switch (live.outcome) {
    case 'refuted':
      return heldLive(c, witness, `Refuted live: the candidate answered this call without an error${said('candidate')}`);
    case 'same-failure':
      return heldLive(
        c,
        witness,
        `Not refused live: both sides took this call and failed at the same work with the same error${said('candidate')}`,
      );
    case 'confirmed': {
      const sentence = `Confirmed live: the candidate refused this call as invalid input${said('candidate')}, and the baseline answered it.`;
      if (c.code === 'required-argument-added-with-default' && leavesOut(c)) {
        const at = c.subject.kind === 'tool' ? c.subject.at : [];
        const required = toolChange('required-argument-added', c.tool!, at, c.before, c.after);
        const shown = evidence('input', witness.instance, witness.refusal ?? '');
        return {
          ...required,
          witness,
          message: `${required.message} It declares a default, but the candidate does not fill it in: ${shown} ${sentence}`,
        };
      }
      return { ...c, witness, message: `${c.message} ${sentence}` };
    }
    case 'unconfirmed':
    case 'already-refused': // made here, above, never by the answers' judgement
    case 'default-kept':
    case 'ignored': // made for a probe only (cases/witness-calls.ts)
      return { ...c, witness, message: `${c.message} Not confirmed live: ${live.note}${said('candidate')}.` };
    case 'not-called':
      return { ...c, witness, message: `${c.message} Not sent live: ${live.note}.` };
  }
}

/**
 * A break the live answers show no call that worked for: held, not rolled back, its severity
 * dangerous, and "is now refused" said as the schemas' claim only, with the answers' sentence.
 */
function heldLive(c: Change, witness: NonNullable<Change['witness']>, sentence: string): Change {
  const held = c.severity === 'breaking' ? ', so it is held, not rolled back' : '';
  const claimed = evidence(witness.side, witness.instance, witness.refusal ?? '');
  const message = c.message.includes(claimed)
    ? c.message.replace(claimed, schemaClaim(witness.side, witness.instance, witness.refusal ?? ''))
    : c.message;
  return { ...c, severity: c.severity === 'breaking' ? 'dangerous' : c.severity, witness, message: `${message} ${sentence}${held}.` };
}

/**
 * A removed argument's probe (diff/confirm-probe.ts): a call that sends it, which both schemas take.
 * Refused as invalid input where the baseline answered, the operation it chose is gone: a break. An
 * answer leaves the removal held as it was: the argument may only be ignored.
 */
function probed(
  c: Change,
  witness: NonNullable<Change['witness']>,
  live: LiveCheck,
  said: (side: 'candidate' | 'baseline') => string,
): Change {
  // A probe sent on a case's call is named by the case (withLive says which), not by the search's instance.
  const call = live.case === undefined ? `the call ${JSON.stringify(witness.instance)}` : 'the call';
  switch (live.outcome) {
    case 'confirmed': {
      const refused = toolChange('input-option-refused', c.tool!, c.subject.kind === 'tool' ? c.subject.at : [], c.before, c.after);
      return {
        ...refused,
        witness,
        message: `${refused.message} Confirmed live: the candidate refused ${call} as invalid input${said('candidate')}, and the baseline answered it.`,
      };
    }
    case 'ignored': {
      const ignored = toolChange('input-option-ignored', c.tool!, c.subject.kind === 'tool' ? c.subject.at : [], c.before, c.after);
      return {
        ...ignored,
        witness,
        message: `${ignored.message} Confirmed live: the baseline's answer to ${call} changed when it sent the argument, and the candidate's did not.`,
      };
    }
    case 'refuted':
      return {
        ...c,
        witness,
        message: `${c.message} Sent live: the candidate answered ${call} without an error${said('candidate')}, so it may only ignore the argument.`,
      };
    case 'unconfirmed':
    case 'already-refused':
    case 'same-failure':
    case 'default-kept':
      return { ...c, witness, message: `${c.message} Sent live, ${call}: not confirmed, ${live.note}${said('candidate')}.` };
    case 'not-called':
      return { ...c, witness, message: `${c.message} Not sent live: ${live.note}.` };
  }
}

/**
 * A closing's probe (diff/confirm-closed.ts): a call both schemas take, with an undeclared argument
 * added. Taken by the candidate (answered without an error, or failed at the same work as the
 * baseline with the same error, past the input), the closing is on paper only: it stays
 * `input-closed`, its severity safe, and is not held (decide/signals.ts). An answer that names the
 * undeclared argument may be a refusal written as data, and shows nothing. Refused as invalid input
 * where the baseline answered, the closing stands, held by policy, with its evidence.
 */
function closing(
  c: Change,
  witness: NonNullable<Change['witness']>,
  live: LiveCheck,
  said: (side: 'candidate' | 'baseline') => string,
): Change {
  const call = live.case === undefined ? `the call ${clip(JSON.stringify(witness.instance) ?? '', 200)}` : 'the call';
  // The same change, let go (decide/signals.ts caps it at ignore): its code and fingerprint stay,
  // so an exception written for it still matches.
  const taken = (how: string): Change => ({
    ...c,
    severity: 'safe',
    witness,
    message: `"${c.tool}" now lists ${closedWhat(c)} as closed to undeclared arguments (additionalProperties: false), but the candidate took, live, a call that sends one there: no call that worked is refused, so it is not held. Sent live: ${how}.`,
  });
  // An answer that names the undeclared argument may be a refusal written as data: it shows nothing.
  if ((live.outcome === 'refuted' || live.outcome === 'same-failure') && namesUndeclared(live)) {
    const named: LiveCheck = { ...live, outcome: 'unconfirmed', note: "the candidate's answer names the undeclared argument" };
    return {
      ...c,
      witness: { ...witness, live: named },
      message: `${c.message} Sent live, ${call}: not confirmed, ${named.note}${said('candidate')}.`,
    };
  }
  switch (live.outcome) {
    case 'refuted':
      return taken(`the candidate answered ${call} without an error${said('candidate')}`);
    case 'same-failure':
      return taken(`both sides took ${call} and failed at the same work with the same error${said('candidate')}`);
    case 'confirmed':
      return {
        ...c,
        witness,
        message: `${c.message} Confirmed live: the candidate refused ${call} as invalid input${said('candidate')}, and the baseline answered it.`,
      };
    case 'unconfirmed':
    case 'already-refused':
    case 'default-kept':
    case 'ignored': // made for a removed argument's probe only (cases/witness-calls.ts)
      return { ...c, witness, message: `${c.message} Sent live, ${call}: not confirmed, ${live.note}${said('candidate')}.` };
    case 'not-called':
      return { ...c, witness, message: `${c.message} Not sent live: ${live.note}.` };
  }
}

/** What a closing closes: the tool's input, or an object inside it (diff/confirm-closed.ts, `closedPlace`). */
function closedWhat(c: Change): string {
  return instancePath(c).length ? `${closedPlace(c)} in its input` : 'its input';
}

/** Whether the candidate's answer names the argument a closing's probe added. */
const namesUndeclared = (live: LiveCheck) => standsAlone(UNDECLARED_ARGUMENT, live.candidate?.text ?? '');

/**
 * Whether both sides refused the witness as invalid input and the baseline's refusal names the
 * argument the change is about (a name of 3 characters or more, standing alone in its text): the
 * baseline's validator took what its listed schema did not say, as context-mode 1.0.131's
 * `ctx_purge` required `confirm` behind an empty schema.
 */
function refusedOverTheSameArgument(c: Change, live: LiveCheck): boolean {
  if (live.candidate?.kind !== 'error' || !live.candidate.validation) return false;
  if (live.baseline?.kind !== 'error' || !live.baseline.validation || !live.baseline.text) return false;
  const name = instancePath(c).at(-1);
  if (name === undefined || name.length < 3 || /^\d+$/.test(name)) return false;
  return standsAlone(name, live.baseline.text);
}

/** Whether `word` stands alone in `text`: not inside a longer name (`confirm` is not in `confirmation`). */
const standsAlone = (word: string, text: string) => new RegExp(`(?:^|[^A-Za-z0-9_])${literal(word)}(?:[^A-Za-z0-9_]|$)`).test(text);

/**
 * Whether a witness that leaves the argument out met, on both sides, the same error that is no
 * input validation and names the argument's old default (three characters or more, a letter or
 * digit among them, standing alone): the handler read the argument, and found the baseline's
 * default in it. An error that names no such value (a key or a browser checked first) shows
 * nothing, and the break stands.
 */
function keptDefault(c: Change, live: LiveCheck, oldDefault: string): boolean {
  const { candidate, baseline } = live;
  if (candidate?.kind !== 'error' || candidate.validation || !candidate.text) return false;
  if (baseline?.kind !== 'error' || baseline.validation || baseline.text !== candidate.text) return false;
  return oldDefault.trim().length >= 3 && /[A-Za-z0-9]/.test(oldDefault) && leavesOut(c) && standsAlone(oldDefault, candidate.text);
}

/** Whether the witness is a call without the argument the change is about (at any depth of objects). */
function leavesOut(c: Change): boolean {
  const path = instancePath(c);
  let at: unknown = c.witness?.instance;
  for (const key of path.slice(0, -1)) {
    if (at === null || typeof at !== 'object') return false;
    at = Object.hasOwn(at, key) ? (at as Record<string, unknown>)[key] : undefined;
  }
  return path.length > 0 && at !== null && typeof at === 'object' && !Array.isArray(at) && !Object.hasOwn(at, path.at(-1)!);
}
