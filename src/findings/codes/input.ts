import { pathOf } from '../subject.js';
import { show, type CodeMeta } from './meta.js';
import { generic, place, toolName } from './schema-place.js';

/** What callers may send: the input schema (diff/schema-*.ts). */
export const INPUT_CODES = {
  'required-argument-added': {
    area: 'input',
    severity: 'breaking',
    action: 'rollback',
    title: 'Required arguments added',
    message: (c) => `"${toolName(c)}" now requires argument "${place(c)}".`,
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
  'input-property-removed': {
    area: 'input',
    severity: 'dangerous',
    action: 'hold',
    title: 'Optional arguments removed',
    message: (c) => `"${toolName(c)}" no longer accepts argument "${place(c)}".`,
  },
  'input-type-changed': {
    area: 'input',
    severity: 'breaking',
    action: 'rollback',
    title: 'Argument types narrowed or changed',
    message: generic('input-type-changed'),
  },
  'input-type-widened': {
    area: 'input',
    severity: 'safe',
    action: 'ignore',
    title: 'Argument types widened',
    message: generic('input-type-widened'),
  },
  'input-enum-narrowed': {
    area: 'input',
    severity: 'breaking',
    action: 'rollback',
    title: 'Argument enums narrowed',
    message: generic('input-enum-narrowed'),
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
  'input-constraint-loosened': {
    area: 'input',
    severity: 'safe',
    action: 'ignore',
    title: 'Argument constraints loosened',
    message: generic('input-constraint-loosened'),
  },
  'input-closed': {
    area: 'input',
    severity: 'breaking',
    action: 'rollback',
    title: 'Input schemas closed',
    message: generic('input-closed'),
  },
  'input-opened': { area: 'input', severity: 'safe', action: 'ignore', title: 'Input schemas opened', message: generic('input-opened') },
  'input-default-changed': {
    area: 'input',
    severity: 'dangerous',
    action: 'hold',
    title: 'Argument defaults changed',
    message: generic('input-default-changed'),
  },
  // A baseline input schema that is not an object schema breaks the protocol: what changed against it is a repair.
  'input-schema-repaired': {
    area: 'input',
    severity: 'dangerous',
    action: 'hold',
    title: 'Input schemas repaired from a protocol violation',
    message: (c) =>
      `"${toolName(c)}" input schema was not an object schema (root type ${show(c.before)}), so its changes are a repair to check, not a break.`,
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
} as const satisfies Record<string, CodeMeta>;
