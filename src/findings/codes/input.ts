import { pathOf } from '../subject.js';
import { show, type ChangeMeta } from './meta.js';
import { generic, place, toolName, typeWords, where } from './schema-place.js';

/** The arguments only the baseline's text named (diff/schemas.ts), where the repair is of that kind. */
const namedInText = (before: unknown): string[] | null =>
  typeof before === 'object' && before !== null && Array.isArray((before as { named?: unknown }).named)
    ? (before as { named: unknown[] }).named.filter((n) => typeof n === 'string')
    : null;

const enumList = (values: unknown): string =>
  Array.isArray(values) ? `${values.slice(0, 6).map(show).join(', ')}${values.length > 6 ? ', …' : ''}` : show(values);

/** The argument a `default` belongs to: `"t" n`, not `"t" n.default`. */
const owner = (c: Parameters<typeof where>[0]) => where(c).replace(/\.default$/, '');

/** What callers may send: the input schema (diff/schema-*.ts). */
export const INPUT_CODES = {
  'required-argument-added': {
    area: 'input',
    severity: 'breaking',
    action: 'rollback',
    title: 'Required arguments added',
    message: (c) => `"${toolName(c)}" now requires argument "${place(c)}".`,
  },
  // zod-built servers list a field with a default in `required` and accept calls without it: held
  // until a live call shows the candidate refusing a call that omits it (docs/verdicts.md, "Confirmed live").
  'required-argument-added-with-default': {
    area: 'input',
    severity: 'dangerous',
    action: 'hold',
    title: 'Required arguments added with a default',
    message: (c) =>
      `"${toolName(c)}" lists argument "${place(c)}" as required, but it declares a default, so servers built with zod accept calls without it.`,
  },
  'required-argument-removed': {
    area: 'input',
    severity: 'breaking',
    action: 'rollback',
    title: 'Required arguments removed',
    message: (c) => `"${toolName(c)}" no longer takes required argument "${place(c)}".`,
  },
  'argument-became-optional': {
    area: 'input',
    severity: 'safe',
    action: 'ignore',
    title: 'Arguments became optional',
    message: (c) => `"${toolName(c)}" argument "${place(c)}" is now optional.`,
  },
  'input-property-added': {
    area: 'input',
    severity: 'safe',
    action: 'ignore',
    title: 'Optional arguments added',
    message: (c) => `"${toolName(c)}" accepts new optional argument "${place(c)}".`,
  },
  // A new list value or boolean switch whose name says it deletes or exposes, on a tool that is not read-only (diff/new-options.ts).
  'input-destructive-option-added': {
    area: 'input',
    severity: 'dangerous',
    action: 'hold',
    title: 'Destructive options added to existing tools',
    message: (c) =>
      `"${toolName(c)}" ${c.after === place(c).split('.').pop() ? `gains the switch "${place(c)}"` : `argument "${place(c)}" gains the value ${show(c.after)}`}, and the tool is not read-only: a caller can now ask it to do what the name says.`,
  },
  // A new argument whose text says the caller lifts a guard with it (diff/new-options.ts).
  'input-safety-override-added': {
    area: 'input',
    severity: 'dangerous',
    action: 'hold',
    title: 'Arguments added that lift a safety guard',
    message: (c) =>
      `"${toolName(c)}" accepts new argument ${show(c.after)}, and its text says it lifts a guard: a model that is refused can now set it itself.`,
  },
  'input-property-removed': {
    area: 'input',
    severity: 'dangerous',
    action: 'hold',
    title: 'Optional arguments removed',
    message: (c) => `"${toolName(c)}" no longer accepts argument "${place(c)}".`,
  },
  // The same removal where the input refuses undeclared names: every reviewer of the recorded
  // releases with one rolls back or accepts a Rollback (docs/verdicts.md, "Optional arguments removed").
  'input-property-removed-closed': {
    area: 'input',
    severity: 'breaking',
    action: 'rollback',
    title: 'Optional arguments removed from inputs that refuse undeclared names',
    message: (c) =>
      `"${toolName(c)}" no longer accepts argument "${place(c)}", and its input refuses undeclared names: a caller that still sends it is refused.`,
  },
  'input-type-changed': {
    area: 'input',
    severity: 'breaking',
    action: 'rollback',
    title: 'Argument types narrowed or changed',
    message: typeWords('no longer accepts', 'now accepts'),
  },
  'input-type-widened': {
    area: 'input',
    severity: 'safe',
    action: 'ignore',
    title: 'Argument types widened',
    message: typeWords('no longer accepts', 'now also accepts'),
  },
  'input-enum-narrowed': {
    area: 'input',
    severity: 'breaking',
    action: 'rollback',
    title: 'Argument enums narrowed',
    message: generic('input-enum-narrowed'),
  },
  // Held: the model is now told the values; one outside them is refused, which servers often did already.
  'input-enum-declared': {
    area: 'input',
    severity: 'dangerous',
    action: 'hold',
    title: 'Argument values listed where any were taken',
    message: (c) => `${where(c).replace(/\.enum$/, '')}: now lists the values it takes (${enumList(c.after)}); any other value is refused.`,
  },
  // Listed, not held: the argument's old text listed the values, each still taken (diff/documented-values.ts).
  'input-enum-declared-listed': {
    area: 'input',
    severity: 'safe',
    action: 'ignore',
    title: 'Argument values listed in the schema that the text already listed',
    message: (c) =>
      `${where(c).replace(/\.enum$/, '')}: now lists the values it takes (${enumList(c.after)}) where its text listed them; every value the text named is still taken, so a call made from the text still works.`,
  },
  // Held: a widening for callers, but a loss for the model, which no longer sees the values that work.
  'input-enum-dropped': {
    area: 'input',
    severity: 'dangerous',
    action: 'hold',
    title: 'Argument value lists dropped',
    message: (c) =>
      `${where(c).replace(/\.enum$/, '')}: no longer lists the values it takes (${enumList(c.before)}); the model must guess them now.`,
  },
  'input-enum-widened': {
    area: 'input',
    severity: 'safe',
    action: 'ignore',
    title: 'Argument enums widened',
    message: generic('input-enum-widened'),
  },
  'input-constraint-tightened': {
    area: 'input',
    severity: 'breaking',
    action: 'rollback',
    title: 'Argument constraints tightened',
    message: generic('input-constraint-tightened'),
  },
  'input-constraint-declared': {
    area: 'input',
    severity: 'dangerous',
    action: 'hold',
    title: 'Argument bounds declared where there were none',
    message: (c) =>
      c.after === 'integer' && c.before === 'number'
        ? `${where(c).replace(/\.type$/, '')}: now takes integers only where any number was declared; a fractional value is refused.`
        : c.before === 'any'
          ? `${where(c).replace(/\.type$/, '')}: now takes ${show(c.after)} values only where it declared no type; a value of another kind is refused now, as servers often refused it in code already.`
          : `${where(c)}: declared ${show(c.after)} where there was no such bound; a value outside it is refused now, as servers often refused it in code already.`,
  },
  // A bound that refuses only what no useful call sends (diff/degenerate-bound.ts): listed, not held.
  'input-constraint-declared-degenerate': {
    area: 'input',
    severity: 'safe',
    action: 'ignore',
    title: 'Argument bounds declared that refuse only degenerate values',
    message: (c) =>
      c.after === 'integer' && c.before === 'number'
        ? `${where(c).replace(/\.type$/, '')}: now takes whole numbers only; it counts, and no call that did work sent a fraction of a count.`
        : `${where(c)}: declared ${show(c.after)} where there was no such bound; it refuses only ${c.subject.kind === 'tool' && c.subject.at.at(-1) === 'minLength' ? 'an empty value for an argument every call must send' : 'a count below it'}, which no call that did work sent.`,
  },
  'input-constraint-loosened': {
    area: 'input',
    severity: 'safe',
    action: 'ignore',
    title: 'Argument constraints loosened',
    message: generic('input-constraint-loosened'),
  },
  // Held, not rolled back: a model shown the schema sends the arguments it declares, and only a call
  // that passes an undeclared one is refused now (docs/judgements.md, M1, O3, P1).
  'input-closed': {
    area: 'input',
    severity: 'dangerous',
    action: 'hold',
    title: 'Input schemas closed to undeclared arguments',
    message: (c) => `${where(c)}: undeclared arguments are now refused (additionalProperties: false); a call that passed one fails.`,
  },
  'input-opened': { area: 'input', severity: 'safe', action: 'ignore', title: 'Input schemas opened', message: generic('input-opened') },
  'input-default-changed': {
    area: 'input',
    severity: 'dangerous',
    action: 'hold',
    title: 'Argument defaults changed',
    message: (c) =>
      c.after === null
        ? `${owner(c)}: default ${show(c.before)} removed; a call that omits it gets whatever the server does without it.`
        : c.before === null
          ? `${owner(c)}: default ${show(c.after)} added; a call that omits it now gets that value.`
          : `${owner(c)}: default changed from ${show(c.before)} to ${show(c.after)}; a call that omits it behaves differently.`,
  },
  // A baseline input schema that is not an object schema breaks the protocol: what changed against it is a repair.
  'input-schema-repaired': {
    area: 'input',
    severity: 'dangerous',
    action: 'hold',
    title: 'Input schemas repaired from a protocol violation',
    message: (c) => {
      const named = namedInText(c.before);
      if (named) {
        const one = named.length === 1;
        return `"${toolName(c)}" input schema declared no argument, while its text named ${named.map(show).join(', ')} as a call sends ${one ? 'it' : 'them'}; now ${one ? 'it is' : 'they are'} required, which is the text made schema: a repair to check, not a break.`;
      }
      return Array.isArray(c.before)
        ? `"${toolName(c)}" input schema was not JSON Schema but a serialized validator (it carries ${c.before.map(show).join(', ')} where schemas belong), so its changes are a repair to check, not a break.`
        : `"${toolName(c)}" input schema was not an object schema (root type ${show(c.before)}), so its changes are a repair to check, not a break.`;
    },
  },
  // The witness search found a call the baseline accepted that the candidate refuses where the walk
  // named no break (src/diff/confirm.ts): the witness is the evidence, in the message.
  // A removed argument's probe (diff/confirm-probe.ts), sent live: the candidate refused a call that
  // sends it as invalid input, and the baseline answered it (diff/confirm-live.ts).
  'input-option-refused': {
    area: 'input',
    severity: 'breaking',
    action: 'rollback',
    title: 'Calls that send a removed argument, refused live',
    message: (c) =>
      `"${toolName(c)}" no longer accepts argument "${place(c)}", and refuses, live, a call that sends it which the baseline answered: the operation it chose is gone.`,
  },
  // A removed argument's probe sent on a case's call (cases/witness-grounds.ts): the candidate
  // answered it exactly as it answers the case's call without the argument, and the baseline's
  // answer changed with it (diff/confirm-live.ts).
  'input-option-ignored': {
    area: 'input',
    severity: 'breaking',
    action: 'rollback',
    title: 'Calls that send a removed argument, now answered as if it were not sent',
    message: (c) =>
      `"${toolName(c)}" no longer reads argument "${place(c)}": a call that sends it now gets what the same call without it gets.`,
  },
  'input-call-refused': {
    area: 'input',
    severity: 'breaking',
    action: 'rollback',
    title: 'Calls the baseline accepted, now refused (found by the search)',
    message: (c) => `"${toolName(c)}" refuses a call its baseline accepted, though no change the diff names explains it.`,
  },
  // The invariant: schemas that differ in more than text never diff to nothing. What cannot be ordered lands here.
  'schema-changed': {
    area: 'input',
    severity: 'dangerous',
    action: 'hold',
    title: 'Schema changes the gate cannot classify',
    message: (c) => `"${toolName(c)}" ${pathOf(c.subject)}: the schema changed in a way the gate cannot classify; a person must look.`,
  },
  'schema-annotation-changed': {
    area: 'input',
    severity: 'safe',
    action: 'ignore',
    title: 'Schema annotations changed',
    message: (c) =>
      `"${toolName(c)}" ${pathOf(c.subject)}: a schema annotation changed (${show(c.before)} -> ${show(c.after)}); what is accepted is the same.`,
  },
} as const satisfies Record<string, ChangeMeta>;
