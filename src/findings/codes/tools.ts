import { toolName, type ChangeMeta } from './meta.js';

/** Tools added, removed and renamed (diff/tools.ts). */
export const TOOL_CODES = {
  'tool-removed': {
    area: 'tools',
    severity: 'breaking',
    action: 'rollback',
    title: 'Tools removed',
    message: (c) => `Tool "${toolName(c)}" was removed.`,
  },
  'tool-added': {
    area: 'tools',
    severity: 'safe',
    action: 'ignore',
    title: 'Tools added',
    message: (c) => `Tool "${toolName(c)}" was added.`,
  },
  'tool-added-destructive': {
    area: 'tools',
    severity: 'dangerous',
    action: 'rollback',
    title: 'New destructive tools',
    message: (c) => `New tool "${toolName(c)}" declares itself destructive (destructiveHint true).`,
  },
  'tool-added-destructive-by-default': {
    area: 'tools',
    severity: 'dangerous',
    action: 'hold',
    title: 'New tools destructive only by the spec defaults',
    message: (c) => `New tool "${toolName(c)}" is destructive only because it leaves its hints to the spec defaults.`,
  },
  'tool-renamed': {
    area: 'tools',
    severity: 'breaking',
    action: 'rollback',
    title: 'Tools likely renamed',
    message: (c) =>
      `Tool "${String(c.before)}" appears to be renamed to "${String(c.after)}" (same schemas); callers of the old name break.`,
  },
} as const satisfies Record<string, ChangeMeta>;
