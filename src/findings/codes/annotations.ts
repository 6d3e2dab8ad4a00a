import { show, toolName, type ChangeFacts, type ChangeMeta } from './meta.js';

/** What a hint at its safe value claims of the tool. */
const CLAIMS: Record<string, string> = {
  readOnlyHint: 'that it changes nothing',
  destructiveHint: 'that it destroys nothing',
  idempotentHint: 'that calling it again with the same arguments does nothing more',
  openWorldHint: 'that it reaches nothing outside the server',
};

const hintMoved = (hint: string) => (c: ChangeFacts) =>
  `"${toolName(c)}" effective ${hint} went from ${show(c.before)} to ${show(c.after)}.`;

/** Effective hints, compared after the spec's defaults are applied (diff/annotations.ts). */
export const ANNOTATION_CODES = {
  'readonly-hint-regression': {
    area: 'annotations',
    severity: 'breaking',
    action: 'rollback',
    title: 'Read-only hint regressions',
    message: hintMoved('readOnlyHint'),
  },
  // Held, not rolled back: a tool that already writes now says it may destroy. Clients ask before
  // calling it, so nothing runs that did not before; a person checks whether the code changed (F2).
  'destructive-hint-regression': {
    area: 'annotations',
    severity: 'dangerous',
    action: 'hold',
    title: 'Destructive hint regressions',
    message: hintMoved('destructiveHint'),
  },
  'idempotent-hint-regression': {
    area: 'annotations',
    severity: 'dangerous',
    action: 'hold',
    title: 'Idempotent hint regressions',
    message: hintMoved('idempotentHint'),
  },
  'open-world-hint-regression': {
    area: 'annotations',
    severity: 'dangerous',
    action: 'hold',
    title: 'Open-world hint regressions',
    message: hintMoved('openWorldHint'),
  },
  // A hint the server declared at its risky value, now at the safe one, by that hint or by
  // readOnlyHint: true (MO6: destructiveHint true -> false on 15 tools that tap and type). Hosts that
  // asked before calling it, or kept it away from other systems, may stop, on the server's word
  // alone: held for a person to check the tool really does less. A hint the server had not declared
  // (the server annotating at last) stays `annotation-improved`.
  'annotation-relaxed': {
    area: 'annotations',
    severity: 'dangerous',
    action: 'hold',
    title: 'Declared hints relaxed',
    message: (c) => {
      const hint = c.subject.kind === 'tool' ? (c.subject.at.at(-1) ?? '') : '';
      return `"${toolName(c)}" declared ${hint} ${show(c.before)}; its effective ${hint} is now ${show(c.after)}, a claim ${CLAIMS[hint] ?? 'that it does less'}, on the server's word alone: check that the tool really does less.`;
    },
  },
  'annotation-improved': {
    area: 'annotations',
    severity: 'safe',
    action: 'ignore',
    title: 'Annotations made safer',
    message: (c) =>
      `"${toolName(c)}" effective ${c.subject.kind === 'tool' ? c.subject.at.at(-1) : ''} went from ${show(c.before)} to ${show(c.after)} (safer).`,
  },
  // A hint written out at the value it already had in effect, or left out where its default is the same.
  'hint-declaration-changed': {
    area: 'annotations',
    severity: 'safe',
    action: 'ignore',
    title: 'Hints declared or left out at the same effect',
    message: (c) => {
      const hint = c.subject.kind === 'tool' ? (c.subject.at.at(-1) ?? '') : '';
      if (c.before === null) return `"${toolName(c)}" now declares ${hint} ${show(c.after)}, the value it already had in effect.`;
      if (c.after === null) return `"${toolName(c)}" no longer declares ${hint} (${show(c.before)}); in effect it keeps the same value.`;
      return `"${toolName(c)}" declared ${hint} went from ${show(c.before)} to ${show(c.after)}, with the same effect.`;
    },
  },
} as const satisfies Record<string, ChangeMeta>;
