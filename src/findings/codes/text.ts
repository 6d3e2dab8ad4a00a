import { pathOf } from '../subject.js';
import { show, toolName, type ChangeFacts, type ChangeMeta } from './meta.js';

/** ` at /inputSchema/properties/q/description` for a parameter's text; nothing for the tool's own description. */
const at = (c: ChangeFacts): string => (pathOf(c.subject) === '/description' ? '' : ` at ${pathOf(c.subject)}`);

/** What the model reads: descriptions, titles, the server's instructions (diff/text.ts, diff/wording.ts). */
export const TEXT_CODES = {
  // Text that newly steers the model: when to call, a preference, an always/never rule, words to the model (diff/steering.ts).
  'description-changed': {
    area: 'text',
    severity: 'dangerous',
    action: 'hold',
    title: 'Descriptions that newly steer the model',
    message: (c) => `Description of "${toolName(c)}"${at(c)} newly steers the model.`,
  },
  // Any other edit, however large: it documents (what a tool returns, a limit, syntax), so it is reported.
  'description-reworded': {
    area: 'text',
    severity: 'safe',
    action: 'ignore',
    title: 'Descriptions edited without new steering',
    message: (c) => `Description of "${toolName(c)}"${at(c)} edited.`,
  },
  // A parameter that keeps its place but loses its description: the model loses what it was told
  // (docs/verdicts.md, "Text that steers the model").
  'description-removed': {
    area: 'text',
    severity: 'dangerous',
    action: 'hold',
    title: 'Descriptions removed',
    message: (c) => `Description of "${toolName(c)}"${at(c)} removed: the model is no longer told ${show(c.before)}.`,
  },
  'description-added': {
    area: 'text',
    severity: 'safe',
    action: 'ignore',
    title: 'Descriptions added',
    message: (c) => `Description of "${toolName(c)}"${at(c)} added.`,
  },
  // A rule on what a call may send, stated in words only where the schema shows none (diff/stated-constraint.ts).
  'description-constraint-added': {
    area: 'text',
    severity: 'dangerous',
    action: 'hold',
    title: 'Argument rules stated in descriptions only',
    message: (c) =>
      `Description of "${toolName(c)}"${at(c)} newly states a rule on what a call may send that the schema does not declare; a call that followed the old text may be refused.`,
  },
  // A tool that is not read-only whose own text newly says what the call removes or overwrites
  // (diff/stated-constraint.ts): the tool does more now, or its callers were not told.
  'description-effect-added': {
    area: 'text',
    severity: 'dangerous',
    action: 'hold',
    title: 'Descriptions that newly say what a call removes or overwrites',
    message: (c) =>
      `Description of "${toolName(c)}" newly says that a call removes or overwrites something; either the tool now does more, or its callers were not told: a person should check.`,
  },
  // The reasons (with the matched text, clipped) are the message: the whole texts stay in before/after.
  'description-suspicious': { area: 'text', severity: 'breaking', action: 'rollback', title: 'Suspicious descriptions', message: () => '' },
  'title-changed': {
    area: 'text',
    severity: 'safe',
    action: 'ignore',
    title: 'Titles changed',
    message: (c) => `Title of "${toolName(c)}" changed from ${show(c.before)} to ${show(c.after)}.`,
  },
  'instructions-changed': {
    area: 'text',
    severity: 'dangerous',
    action: 'hold',
    title: 'Server instructions that newly steer the model',
    message: () => `The server's instructions newly steer the model.`,
  },
  'instructions-reworded': {
    area: 'text',
    severity: 'safe',
    action: 'ignore',
    title: 'Server instructions edited without new steering',
    message: () => `The server's instructions were edited.`,
  },
} as const satisfies Record<string, ChangeMeta>;
