import { pointerOf } from '../base/json-pointer.js';
/**
 * What a change or a finding is about, as data: a tool (and the place inside its definition), the
 * server (or one of its fields), a prompt (and its argument), a resource, a resource template, or a
 * capability. A change's JSON pointer and the name a reason shows are derived from it here, in one
 * direction: nothing reads a pointer back to learn what a change was about.
 */
export type Subject =
  /** A tool, or a place in its definition: `at` is the pointer's segments (`['inputSchema', 'properties', 'q']`); [] for the tool itself. */
  | { kind: 'tool'; tool: string; at: readonly string[] }
  /** The server, or a field of its own: its instructions, its negotiated protocol version (a finding may be about the server as a whole). */
  | { kind: 'server'; field?: 'instructions' | 'protocolVersion' }
  | { kind: 'prompt'; prompt: string; argument?: string }
  | { kind: 'resource'; uri: string; field?: 'mimeType' }
  | { kind: 'template'; uriTemplate: string; field?: 'mimeType' }
  /** A capability as its segments: `['resources', 'subscribe']`. */
  | { kind: 'capability'; capability: readonly string[] };

/** RFC 6901 escaping for one pointer segment. */
export const pointer = (...segments: (string | number)[]): string => pointerOf(segments);

/** The change's JSON pointer: into the tool definition for tools, into the server's features otherwise. */
export function pathOf(subject: Subject): string {
  switch (subject.kind) {
    case 'tool':
      return pointer(...subject.at);
    case 'server':
      return subject.field === undefined ? '' : pointer(subject.field);
    case 'prompt':
      return pointer('prompts', subject.prompt, ...(subject.argument === undefined ? [] : ['arguments', subject.argument]));
    case 'resource':
      return pointer('resources', subject.uri, ...(subject.field ? [subject.field] : []));
    case 'template':
      return pointer('resourceTemplates', subject.uriTemplate, ...(subject.field ? [subject.field] : []));
    case 'capability':
      return pointer('capabilities', ...subject.capability);
  }
}

/** The tool a change or finding is about, or null for the server and its features. */
export const toolOf = (subject: Subject): string | null => (subject.kind === 'tool' ? subject.tool : null);

/** A tool, or a place in its definition. */
export const onTool = (tool: string, ...at: string[]): Subject => ({ kind: 'tool', tool, at });

/** The server as a whole: what a finding on no one tool is about. */
export const SERVER: Subject = { kind: 'server' };

/**
 * The name a reason lists for a change beside the tools: `Incident.Triage`, `Incident.Triage: service`,
 * a resource's URI, a template, `resources.subscribe`. Null for tools (reasons list those by tool) and the server.
 */
export function featureNameOf(subject: Subject): string | null {
  switch (subject.kind) {
    case 'prompt':
      return subject.argument === undefined ? subject.prompt : `${subject.prompt}: ${subject.argument}`;
    case 'resource':
      return subject.uri;
    case 'template':
      return subject.uriTemplate;
    case 'capability':
      return subject.capability.join('.');
    default:
      return null;
  }
}

/**
 * The argument (or output field) a place in a tool names, as a dotted path of property names from
 * the last `properties` chain: `['inputSchema', 'properties', 'a', 'properties', 'b']` is `a.b`.
 * A place that names no property is told as its pointer.
 */
export function placeName(at: readonly string[]): string {
  const last = at.lastIndexOf('properties');
  if (last === -1 || at[last + 1] === undefined) return pointer(...at);
  let first = last;
  while (first >= 2 && at[first - 2] === 'properties') first -= 2;
  return at
    .slice(first + 1)
    .filter((s, i) => !(s === 'properties' && i % 2 === 1))
    .join('.');
}
