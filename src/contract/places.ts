import type { Subject } from '../findings/subject.js';
import type { Source } from '../findings/types.js';

/** Where a snapshot file writes a contract: the line of each tool, prompt, resource and template it lists. */
export interface ContractSource {
  /** Relative to the working directory of the run. */
  file: string;
  /** The line of the entry a subject names (a tool's `name`, a prompt's `name`, a resource's `uri`…), or null when the file has none. */
  lineOf(subject: Subject): number | null;
}

type Lines = (path: (string | number)[]) => number | null;

/**
 * A snapshot's places, from its value as read and the reader's line finder (input/source.ts, which
 * finds a line without building the yaml package's Document). Each list is indexed by name once, on
 * the first subject looked up in it.
 */
export function snapshotSource(file: string, value: Record<string, unknown>, lines: Lines): ContractSource {
  const features = (value.features ?? {}) as Record<string, unknown>;
  const lists = {
    tool: { at: ['tools'], items: value.tools, key: 'name' },
    prompt: { at: ['features', 'prompts'], items: features.prompts, key: 'name' },
    resource: { at: ['features', 'resources'], items: features.resources, key: 'uri' },
    template: { at: ['features', 'resourceTemplates'], items: features.resourceTemplates, key: 'uriTemplate' },
  } as const;
  const indexes = new Map<keyof typeof lists, Map<unknown, number>>();
  const entry = (kind: keyof typeof lists, name: string): number | null => {
    const list = lists[kind];
    let index = indexes.get(kind);
    if (!index) {
      index = new Map();
      (Array.isArray(list.items) ? list.items : []).forEach((item: unknown, i) => {
        const named = (item as Record<string, unknown> | null)?.[list.key];
        if (!index!.has(named)) index!.set(named, i);
      });
      indexes.set(kind, index);
    }
    const i = index.get(name);
    return i === undefined ? null : lines([...list.at, i, list.key]);
  };
  return {
    file,
    lineOf(subject) {
      switch (subject.kind) {
        case 'tool':
          return entry('tool', subject.tool);
        case 'prompt':
          return entry('prompt', subject.prompt);
        case 'resource':
          return entry('resource', subject.uri);
        case 'template':
          return entry('template', subject.uriTemplate);
        case 'server':
          return subject.field === undefined ? null : lines(present(value, ['server', subject.field]));
        case 'capability':
          return lines(present(value, ['features', 'capabilities', ...subject.capability]));
      }
    },
  };
}

/**
 * The part of a path the value has: a capability the baseline lacks is placed at its parent. Asking
 * the reader for a path that is not there would build the yaml package's Document of the whole file.
 */
function present(value: unknown, path: string[]): string[] {
  let at = value;
  for (const [i, key] of path.entries()) {
    if (at === null || typeof at !== 'object' || !Object.hasOwn(at, key)) return path.slice(0, i);
    at = (at as Record<string, unknown>)[key];
  }
  return path;
}

/**
 * A change or finding with the place its subject has in the baseline's snapshot, when it has no
 * place of its own: a candidate's tool is placed at the baseline's entry for it, the one place in
 * the repository that writes it down. Unchanged without a snapshot, or for a subject it does not list.
 */
export const placedIn =
  (source: ContractSource | undefined) =>
  <T extends { subject: Subject; source?: Source }>(item: T): T => {
    if (!source || item.source) return item;
    const line = source.lineOf(item.subject);
    return line === null ? item : { ...item, source: { file: source.file, line } };
  };
