import { show, toolName, type ChangeFacts, type ChangeMeta } from './meta.js';

/** A task support value in effect: absent means forbidden (MCP 2025-11-25, `execution.taskSupport`). */
const inEffect = (value: unknown) => value ?? 'forbidden';
/** Whether a client that runs tools as tasks could call it so. */
const takesTasks = (value: unknown) => inEffect(value) === 'optional' || inEffect(value) === 'required';

/** A task support move other than to `required`: who may call it, and how, in words. */
function taskSupportMoved(c: ChangeFacts): string {
  const moved = `(execution.taskSupport ${show(c.before)} -> ${show(c.after)})`;
  const name = toolName(c);
  if (inEffect(c.before) === inEffect(c.after))
    return `"${name}" ${c.after === null ? 'no longer declares' : 'now declares'} the task support it has by default ${moved}: nothing changes for callers.`;
  if (inEffect(c.before) === 'required')
    return takesTasks(c.after)
      ? `"${name}" no longer requires a task ${moved}: clients without tasks can call it now.`
      : `"${name}" no longer requires a task, nor takes one ${moved}: clients without tasks can call it now, and one that runs it as a task gets an error.`;
  if (takesTasks(c.before) && !takesTasks(c.after))
    return `"${name}" no longer takes a call as a task ${moved}: a client that ran it as a task gets an error.`;
  return `"${name}" task support changed ${moved}.`;
}

/** A place in a tool's definition, in words: `_meta "ui"`, `annotations.title`, `icons`. */
const fieldOf = (c: ChangeFacts): string => {
  const at = (c.subject.kind === 'tool' ? c.subject.at : []).map(fieldName);
  return at[0] === '_meta' && at.length > 1 ? `_meta key ${at.slice(1).join('.')}` : at.join('.');
};

/** A field's name as a message shows it: as it is when it reads as a name, else quoted and bounded (a server chose it). */
const fieldName = (name: unknown): string => {
  const text = String(name);
  return /^[A-Za-z_$][\w$-]{0,63}$/.test(text) ? text : JSON.stringify(text.slice(0, 100));
};

/** What happened to a field: added, removed or changed. */
const moved = (c: ChangeFacts): string => (c.before === null ? 'was added' : c.after === null ? 'was removed' : 'changed');

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
  // A new bare tool whose name reads as a lookup: listed, not held (diff/lookup-name.ts;
  // docs/verdicts.md, "A new tool on a server that annotates nothing").
  'tool-added-unannotated-lookup': {
    area: 'tools',
    severity: 'safe',
    action: 'ignore',
    title: 'New tools that declare no hint and read as lookups',
    message: (c) =>
      `New tool "${toolName(c)}" declares no hint; its name reads as a lookup and no word of it writes, so it is listed, not held. By the spec's defaults clients treat it as destructive and may ask before each call: declare readOnlyHint.`,
  },
  'tool-renamed': {
    area: 'tools',
    severity: 'breaking',
    action: 'rollback',
    title: 'Tools likely renamed',
    message: (c) =>
      `Tool "${String(c.before)}" appears to be renamed to "${String(c.after)}" (same schemas); callers of the old name break.`,
  },
  // Only a client that supports tasks can call a task-only tool (MCP 2025-11-25): every other client,
  // the SDK's plain callTool() among them, is refused before the call. Held: clients with tasks still
  // call it, and whether the team's do is a person's call.
  'task-support-required': {
    area: 'tools',
    severity: 'breaking',
    action: 'hold',
    title: 'Tools that now require a task',
    message: (c) =>
      `"${toolName(c)}" now requires task-based execution (execution.taskSupport ${show(c.before)} -> "required"): a client without tasks cannot call it at all.`,
  },
} as const satisfies Record<string, ChangeMeta>;

/**
 * The rest of a tool's definition (diff/tasks.ts, diff/tool-fields.ts), listed after what callers
 * must act on: every move of a tool's contract hash is named by a change, calm unless it says why not.
 */
export const TOOL_FIELD_CODES = {
  'task-support-changed': {
    area: 'tools',
    severity: (c) => (takesTasks(c.before) && !takesTasks(c.after) ? 'dangerous' : 'safe'),
    action: 'ignore',
    title: 'Task support changed',
    message: taskSupportMoved,
  },
  'tool-icons-changed': {
    area: 'tools',
    severity: 'safe',
    action: 'ignore',
    title: 'Tool icons changed',
    message: (c) => `The icons of "${toolName(c)}" ${c.before === null ? 'were added' : c.after === null ? 'were removed' : 'changed'}.`,
  },
  'tool-meta-changed': {
    area: 'tools',
    severity: 'safe',
    action: 'ignore',
    title: 'Tool _meta changed',
    message: (c) => `The ${fieldOf(c)} of "${toolName(c)}" ${moved(c)}.`,
  },
  'tool-field-changed': {
    area: 'tools',
    severity: 'safe',
    action: 'ignore',
    title: 'Other tool fields changed',
    message: (c) => `The ${fieldOf(c)} of "${toolName(c)}" ${moved(c)}.`,
  },
  // What moved a tool's hash that no other change names: written as another text that reads the same.
  'tool-definition-changed': {
    area: 'tools',
    severity: 'safe',
    action: 'ignore',
    title: 'Tool definitions rewritten with the same meaning',
    message: (c) => {
      const fields = (c.after as { fields?: unknown } | null)?.fields;
      const where = Array.isArray(fields) && fields.length ? fields.map(fieldName).join(', ') : 'a part the contract does not keep';
      return `The definition of "${toolName(c)}" changed (${where}) in a way no other change names: the gate compares it as the same.`;
    },
  },
} as const satisfies Record<string, ChangeMeta>;
