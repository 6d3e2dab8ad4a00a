import type { CodeMeta, ChangeFacts } from './meta.js';

/** What a deprecation change is about, in words: a tool, a tool's argument, a prompt or a prompt's argument. */
function deprecatedThing(c: ChangeFacts): string {
  const s = c.subject;
  if (s.kind === 'tool') {
    const argument = s.at[0] === 'inputSchema' && s.at[1] === 'properties' ? s.at[2] : undefined;
    return argument === undefined ? `Tool "${s.tool}"` : `Argument "${argument}" of tool "${s.tool}"`;
  }
  if (s.kind === 'prompt') return s.argument === undefined ? `Prompt "${s.prompt}"` : `Argument "${s.argument}" of prompt "${s.prompt}"`;
  return 'It';
}

/** An argument removed (`before`: `required` or `optional`): breaking when callers had to send it, dangerous otherwise. */
const wasRequired = (c: ChangeFacts): 'breaking' | 'dangerous' => (c.before === 'required' ? 'breaking' : 'dangerous');

/**
 * Release language (issue 30; docs/releases.md): deprecation as the diff sees it, the version bump
 * the changes call for (decide/version-bump.ts), and what the clients a team depends on accept
 * (audit/clients.ts).
 */
export const RELEASE_CODES = {
  'deprecation-marked': {
    area: 'release',
    severity: 'safe',
    action: 'ignore',
    title: 'Marked deprecated',
    message: (c) => `${deprecatedThing(c)} is now marked deprecated.`,
  },
  'tool-removed-after-deprecation': {
    area: 'release',
    severity: 'breaking',
    action: 'hold',
    title: 'Deprecated tools removed',
    message: (c) => {
      const s = c.subject;
      return `Tool "${s.kind === 'tool' ? s.tool : ''}" was removed after the baseline marked it deprecated.`;
    },
  },
  // The same lifecycle for what a tool or a prompt takes, and for prompts (issue 30 §3): sibling
  // codes, so a rule or an exception can treat a removed tool apart from a removed argument. An
  // argument keeps the severity its removal has unmarked (`before`: required or optional): the
  // mark changes what the gate does, not what callers lose.
  'argument-removed-after-deprecation': {
    area: 'release',
    severity: wasRequired,
    action: 'hold',
    title: 'Deprecated arguments removed',
    message: (c) => `${deprecatedThing(c)} was removed after the baseline marked it deprecated.`,
  },
  'prompt-removed-after-deprecation': {
    area: 'release',
    severity: 'breaking',
    action: 'hold',
    title: 'Deprecated prompts removed',
    message: (c) => `${deprecatedThing(c)} was removed after the baseline marked it deprecated.`,
  },
  'prompt-argument-removed-after-deprecation': {
    area: 'release',
    severity: wasRequired,
    action: 'hold',
    title: 'Deprecated prompt arguments removed',
    message: (c) => `${deprecatedThing(c)} was removed after the baseline marked it deprecated.`,
  },
  'version-bump-too-small': { area: 'release', action: 'hold', title: 'Breaking changes under a version bump too small for them' },
  'version-bump-additions-as-patch': { area: 'release', action: 'ignore', title: 'Additions under a patch bump' },
  'version-unchanged': { area: 'release', action: 'ignore', title: 'Contract changed, version unchanged' },
  'version-unreadable': { area: 'release', action: 'ignore', title: 'Versions the gate cannot compare' },
  'client-rejects-tool': { area: 'release', action: 'hold', title: 'Tools a declared client rejects' },
} as const satisfies Record<string, CodeMeta>;
