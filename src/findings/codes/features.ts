import { resourceCatalogue } from '../../base/resource-catalogue.js';
import { show, type ChangeFacts, type ChangeMeta } from './meta.js';

const prompt = (c: ChangeFacts): string => (c.subject.kind === 'prompt' ? c.subject.prompt : '');
const argument = (c: ChangeFacts): string => (c.subject.kind === 'prompt' ? (c.subject.argument ?? '') : '');
const capability = (c: ChangeFacts): string => (c.subject.kind === 'capability' ? c.subject.capability.join('.') : '');
const addressed = (c: ChangeFacts): string =>
  c.subject.kind === 'template'
    ? `Resource template ${JSON.stringify(c.subject.uriTemplate)}`
    : `Resource ${JSON.stringify(c.subject.kind === 'resource' ? c.subject.uri : '')}`;

const catalogueOf = (c: ChangeFacts): string => resourceCatalogue(String(c.before)) ?? String(c.before);

/** Beside the tools (contract/features.ts, diff/features.ts): what clients offer users, and what they read. */
export const FEATURE_CODES = {
  'prompt-removed': {
    area: 'prompts',
    severity: 'breaking',
    action: 'rollback',
    title: 'Prompts removed',
    message: (c) => `Prompt "${prompt(c)}" was removed.`,
  },
  'prompt-renamed': {
    area: 'prompts',
    severity: 'breaking',
    action: 'rollback',
    title: 'Prompts likely renamed',
    message: (c) => `Prompt "${String(c.before)}" appears to be renamed to "${String(c.after)}"; clients that offer the old name break.`,
  },
  'prompt-argument-required': {
    area: 'prompts',
    severity: 'breaking',
    action: 'rollback',
    title: 'Prompt arguments now required',
    message: (c) => `Prompt "${prompt(c)}" now requires argument "${argument(c)}"${c.before === null ? ' (a new one)' : ''}.`,
  },
  'prompt-argument-removed': {
    area: 'prompts',
    severity: 'dangerous',
    action: 'hold',
    title: 'Prompt arguments removed',
    message: (c) => `Prompt "${prompt(c)}" no longer takes argument "${argument(c)}".`,
  },
  'prompt-added': {
    area: 'prompts',
    severity: 'safe',
    action: 'ignore',
    title: 'Prompts added',
    message: (c) => `Prompt "${prompt(c)}" was added.`,
  },
  'resource-template-removed': {
    area: 'resources',
    severity: 'breaking',
    action: 'rollback',
    title: 'Resource templates removed',
    message: (c) => `Resource template ${show(c.before)} was removed.`,
  },
  'resource-template-variables-changed': {
    area: 'resources',
    severity: 'breaking',
    action: 'rollback',
    title: 'Resource template variables changed',
    message: (c) => `Resource template ${show(c.before)} became ${show(c.after)}: its variables changed.`,
  },
  'resource-template-added': {
    area: 'resources',
    severity: 'safe',
    action: 'ignore',
    title: 'Resource templates added',
    message: (c) => `Resource template ${show(c.after)} was added.`,
  },
  // A resource whose whole catalogue (scheme and authority) is gone: a host that reads it by URI finds
  // nothing. Held for a person, not rolled back: static resources are often data that come and go.
  'resource-removed': {
    area: 'resources',
    severity: 'dangerous',
    action: 'hold',
    title: 'Resources removed',
    message: (c) => `Resource ${show(c.before)} is no longer listed, nor anything else under ${show(catalogueOf(c))}.`,
  },
  // An entry gone from a catalogue the candidate still lists entries in: a host offers what the list
  // holds when it reads it, so this is content that moved (a doc page, a file), reported, not held.
  'resource-entry-removed': {
    area: 'resources',
    severity: 'safe',
    action: 'ignore',
    title: 'Entries gone from a resource catalogue still listed',
    message: (c) =>
      `Resource ${show(c.before)} is no longer listed; the server still lists resources under ${show(catalogueOf(c))}, which a host reads afresh each time, so this is content that moved, not a contract removed.`,
  },
  'resource-mime-type-changed': {
    area: 'resources',
    severity: 'dangerous',
    action: 'hold',
    title: 'Resource MIME types changed',
    message: (c) => `${addressed(c)} changed its MIME type from ${show(c.before)} to ${show(c.after)}.`,
  },
  'resource-added': {
    area: 'resources',
    severity: 'safe',
    action: 'ignore',
    title: 'Resources added',
    message: (c) => `Resource ${show(c.after)} was added.`,
  },
  'capability-removed': {
    area: 'capabilities',
    severity: 'dangerous',
    action: 'hold',
    title: 'Capabilities removed',
    message: (c) => `The server no longer declares the ${capability(c)} capability.`,
  },
  // Declared, yet every list under it answered "Method not found" on the baseline (docs/verdicts.md, "A capability that served nothing").
  'capability-removed-unserved': {
    area: 'capabilities',
    severity: 'safe',
    action: 'ignore',
    title: 'Capabilities removed that served nothing',
    message: (c) =>
      `The server no longer declares the ${capability(c)} capability, which served nothing: every list under it answered "Method not found" on the baseline, so no client read through it.`,
  },
  'capability-added': {
    area: 'capabilities',
    severity: 'safe',
    action: 'ignore',
    title: 'Capabilities added',
    message: (c) => `The server now declares the ${capability(c)} capability.`,
  },
} as const satisfies Record<string, ChangeMeta>;
