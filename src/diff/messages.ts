import type { Code } from '../findings/codes.js';
import type { Change } from '../findings/types.js';
import { revisionKey } from './revision.js';

type ChangeFacts = Pick<Change, 'code' | 'tool' | 'path' | 'before' | 'after'>;

const show = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? 'absent'));

/** The last pointer segment that names a property, for messages. */
const subject = (path: string): string => {
  const segments = path
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const at = segments.lastIndexOf('properties');
  return at >= 0 && segments[at + 1]
    ? segments
        .slice(at + 1)
        .filter((s) => s !== 'properties')
        .join('.')
    : path;
};

/** The pointer's segments after the first: a prompt's name, a resource's URI, an argument. */
const segment = (path: string, index: number): string => (path.split('/')[index + 1] ?? '').replace(/~1/g, '/').replace(/~0/g, '~');

const MESSAGES: Partial<Record<Code, (c: ChangeFacts) => string>> = {
  'prompt-removed': (c) => `Prompt "${segment(c.path, 1)}" was removed.`,
  'prompt-renamed': (c) => `Prompt "${c.before}" appears to be renamed to "${c.after}"; clients that offer the old name break.`,
  'prompt-argument-required': (c) =>
    `Prompt "${segment(c.path, 1)}" now requires argument "${segment(c.path, 3)}"${c.before === null ? ' (a new one)' : ''}.`,
  'prompt-argument-removed': (c) => `Prompt "${segment(c.path, 1)}" no longer takes argument "${segment(c.path, 3)}".`,
  'prompt-added': (c) => `Prompt "${segment(c.path, 1)}" was added.`,
  'resource-template-removed': (c) => `Resource template ${show(c.before)} was removed.`,
  'resource-template-variables-changed': (c) => `Resource template ${show(c.before)} became ${show(c.after)}: its variables changed.`,
  'resource-template-added': (c) => `Resource template ${show(c.after)} was added.`,
  'resource-removed': (c) => `Resource ${show(c.before)} is no longer listed.`,
  'resource-mime-type-changed': (c) =>
    `${c.path.startsWith('/resourceTemplates/') ? 'Resource template' : 'Resource'} ${JSON.stringify(segment(c.path, 1))} changed its MIME type from ${show(c.before)} to ${show(c.after)}.`,
  'resource-added': (c) => `Resource ${show(c.after)} was added.`,
  'capability-removed': (c) => `The server no longer declares the ${c.path.split('/').slice(2).join('.')} capability.`,
  'capability-added': (c) => `The server now declares the ${c.path.split('/').slice(2).join('.')} capability.`,
  'tool-removed': (c) => `Tool "${c.tool}" was removed.`,
  'tool-added': (c) => `Tool "${c.tool}" was added.`,
  'tool-added-destructive': (c) => `New tool "${c.tool}" declares itself destructive (destructiveHint true).`,
  'tool-added-destructive-by-default': (c) => `New tool "${c.tool}" is destructive only because it leaves its hints to the spec defaults.`,
  'tool-renamed': (c) => `Tool "${c.before}" appears to be renamed to "${c.after}" (same schemas); callers of the old name break.`,
  'required-argument-added': (c) => `"${c.tool}" now requires argument "${subject(c.path)}".`,
  'required-argument-removed': (c) => `"${c.tool}" no longer takes required argument "${subject(c.path)}".`,
  'argument-became-optional': (c) => `"${c.tool}" argument "${subject(c.path)}" is now optional.`,
  'input-property-added': (c) => `"${c.tool}" accepts new optional argument "${subject(c.path)}".`,
  'input-property-removed': (c) => `"${c.tool}" no longer accepts argument "${subject(c.path)}".`,
  'output-schema-added': (c) => `"${c.tool}" now declares an outputSchema.`,
  'output-schema-removed': (c) => `"${c.tool}" no longer declares an outputSchema; structured results lose their contract.`,
  'output-property-added': (c) => `"${c.tool}" output gains field "${subject(c.path)}".`,
  'output-property-removed': (c) => `"${c.tool}" output no longer has field "${subject(c.path)}".`,
  'output-property-optional': (c) => `"${c.tool}" output field "${subject(c.path)}" is no longer required.`,
  'schema-changed': (c) => `"${c.tool}" ${c.path}: the schema changed in a way the gate cannot classify; a person must look.`,
  'input-schema-repaired': (c) =>
    `"${c.tool}" input schema was not an object schema (root type ${show(c.before)}), so its changes are a repair to check, not a break.`,
  'schema-annotation-changed': (c) =>
    `"${c.tool}" ${c.path}: a schema annotation changed (${show(c.before)} -> ${show(c.after)}); what is accepted is the same.`,
  // The reasons (with the matched text, clipped) are the message: the whole texts stay in before/after.
  'description-suspicious': () => '',
  'description-changed': (c) =>
    `Description of "${c.tool}"${c.path === '/description' ? '' : ` at ${c.path}`} changed what the model is told.`,
  'description-reworded': (c) => `Description of "${c.tool}"${c.path === '/description' ? '' : ` at ${c.path}`} reworded.`,
  'title-changed': (c) => `Title of "${c.tool}" changed from ${show(c.before)} to ${show(c.after)}.`,
  'instructions-changed': () => `The server's instructions changed what the model is told.`,
  'instructions-reworded': () => `The server's instructions were reworded.`,
  'protocol-version-changed': (c) =>
    `Negotiated protocol version changed from ${show(c.before)} to ${show(c.after)}${protocolDirection(c)}.`,
};

/** Only the direction is told; the severity (and so the policy) is decided in diff/protocol.ts. */
const protocolDirection = (c: ChangeFacts): string => {
  const [b, a] = [revisionKey(String(c.before)), revisionKey(String(c.after))];
  return b !== null && a !== null && a > b
    ? ' (a newer revision)'
    : ' (an older or unknown revision: what the baseline negotiated may be gone)';
};

const HINT_NAMES: Record<string, string> = {
  'readonly-hint-regression': 'readOnlyHint',
  'destructive-hint-regression': 'destructiveHint',
  'idempotent-hint-regression': 'idempotentHint',
  'open-world-hint-regression': 'openWorldHint',
};

export function changeMessage(c: ChangeFacts): string {
  const specific = MESSAGES[c.code];
  if (specific) return specific(c);
  const hint = HINT_NAMES[c.code];
  if (hint) return `"${c.tool}" effective ${hint} went from ${show(c.before)} to ${show(c.after)}.`;
  if (c.code === 'annotation-improved')
    return `"${c.tool}" effective ${c.path.split('/').pop()} went from ${show(c.before)} to ${show(c.after)} (safer).`;
  const where = c.tool ? `"${c.tool}" ${subject(c.path)}` : subject(c.path);
  return `${where}: ${c.code.replace(/-/g, ' ')} (${show(c.before)} -> ${show(c.after)}).`;
}
