import { pathOf } from '../subject.js';
import { show, toolName, type ChangeFacts, type ChangeMeta } from './meta.js';

/** ` at /inputSchema/properties/q/description` for a parameter's text; nothing for the tool's own description. */
const at = (c: ChangeFacts): string => (pathOf(c.subject) === '/description' ? '' : ` at ${pathOf(c.subject)}`);

/** What the model reads: descriptions, titles, the server's instructions (diff/text.ts, diff/wording.ts). */
export const TEXT_CODES = {
  'description-changed': {
    area: 'text',
    severity: 'dangerous',
    action: 'hold',
    title: 'Descriptions rewritten',
    message: (c) => `Description of "${toolName(c)}"${at(c)} changed what the model is told.`,
  },
  // A small wording edit that adds, removes or flips no instruction and changes no figure (diff/wording.ts).
  'description-reworded': {
    area: 'text',
    severity: 'safe',
    action: 'ignore',
    title: 'Descriptions reworded',
    message: (c) => `Description of "${toolName(c)}"${at(c)} reworded.`,
  },
  // A parameter that keeps its place but loses its description: the model loses what it was told (issue 27 §6).
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
    title: 'Server instructions rewritten',
    message: () => `The server's instructions changed what the model is told.`,
  },
  'instructions-reworded': {
    area: 'text',
    severity: 'safe',
    action: 'ignore',
    title: 'Server instructions reworded',
    message: () => `The server's instructions were reworded.`,
  },
} as const satisfies Record<string, ChangeMeta>;
