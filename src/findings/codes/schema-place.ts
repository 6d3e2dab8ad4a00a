import { pathOf, placeName } from '../subject.js';
import { show, toolName, type ChangeFacts } from './meta.js';

/** The argument or field a schema change is at: `"tool" a.b`, for messages. */
export const where = (c: ChangeFacts): string =>
  c.subject.kind === 'tool' ? `"${c.subject.tool}" ${placeName(c.subject.at)}` : pathOf(c.subject);

/** The property a schema change names (`a.b`). */
export const place = (c: ChangeFacts): string => (c.subject.kind === 'tool' ? placeName(c.subject.at) : pathOf(c.subject));

/** The message of a schema change with no sentence of its own: where, what, and the two values. */
export const generic =
  (code: string) =>
  (c: ChangeFacts): string =>
    `${where(c)}: ${code.replace(/-/g, ' ')} (${show(c.before)} -> ${show(c.after)}).`;

export { toolName };
