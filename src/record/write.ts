import { parseDocument, stringify } from 'yaml';
import { inert } from '../base/inert.js';
import type { Recording } from './record.js';

/**
 * A recording as a dataset people read and edit: a header that says what the file is, then one
 * case per tool with a comment of what was frozen and what was left out, and the tools that were
 * not recorded as commented-out cases that say why. The server's text (tool names, errors) only
 * reaches comments through `inert`, on one bounded line, so it cannot end a comment and write YAML.
 */

export interface DatasetHeader {
  /** Where the dataset schema is, relative to the dataset (for the editor's `$schema` line). */
  schemaPath: string;
  profile: string;
  server: string;
  role: string;
}

export const RECORDED_MARK = '# Recorded by mcp-gate record';
export const caseIdOf = (tool: string): string => `recorded.${tool}`;

const comment = (text: string, max = 300): string => {
  const line = inert(text);
  return line.length > max ? `${line.slice(0, max)}…` : line;
};

/** Lines of `# ` comments, wrapped near 100 columns, indented. */
function commentLines(text: string, indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of comment(text, 600).split(' ')) {
    if (line && line.length + word.length + 1 > 96) {
      lines.push(`${indent}# ${line}`);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(`${indent}# ${line}`);
  return lines;
}

function caseSpec(recording: Recording): Record<string, unknown> {
  return {
    id: caseIdOf(recording.tool),
    userTask: `Call ${recording.tool} as recorded.`,
    ...(recording.confirmed ? { sideEffects: 'allowed' } : {}),
    requiredTools: [
      {
        toolName: recording.tool,
        probeArguments: recording.args ?? {},
        expect: recording.expect ?? undefined,
        ...(recording.volatile.length ? { volatile: recording.volatile } : {}),
      },
    ],
  };
}

/** One case as list-item YAML lines, indented under `cases:`. */
const itemLines = (spec: Record<string, unknown>): string[] =>
  stringify([spec], { lineWidth: 0, aliasDuplicateObjects: false })
    .trimEnd()
    .split('\n')
    .map((l) => `  ${l}`);

function caseBlock(recording: Recording): string {
  if (recording.skipped) {
    // The case as it would be, commented out: uncommenting it (and allowing the call) makes it a case.
    const body = itemLines(caseSpec(recording)).map((l) => `  # ${comment(l.slice(2))}`);
    return [...commentLines(recording.skipped, '  '), ...body, ''].join('\n');
  }
  const about = [
    `${recording.tool}: called with ${recording.argsFrom === 'file' ? 'the arguments of the --args file' : 'arguments built from its input schema'}; expects what it returned then.`,
    ...(recording.volatile.length
      ? [`Left out as volatile (they differed between two recordings): ${recording.volatile.join(', ')}.`]
      : []),
    ...recording.notes.map((n) => `Note: ${n}.`),
    ...(recording.confirmed
      ? [
          'Called on --confirm-lookups: it declares no hint and its name reads as a lookup, so a person confirmed it changes nothing; sideEffects: allowed lets run call it on both sides.',
        ]
      : []),
  ];
  return [...about.flatMap((line) => commentLines(line, '  ')), ...itemLines(caseSpec(recording)), ''].join('\n');
}

/**
 * When nothing could be called, one case that calls nothing: every tool must still be listed. A
 * dataset needs a case, and this one holds without a call, so the file is valid and gates something
 * while its commented-out cases wait for a person to say which tools are safe to call.
 */
function listedBlock(recordings: Recording[], why: string): string {
  const spec = {
    id: 'recorded.tools-listed',
    userTask: 'The tools recorded are still listed (nothing was called).',
    requiredTools: recordings.map((r) => ({ toolName: r.tool })),
  };
  return [...commentLines(why, '  '), ...itemLines(spec), ''].join('\n');
}

/**
 * A new dataset from a recording. `nothingCalled` says why no tool was recorded, when none was: the
 * cases stay commented out with their reasons, beside one case that only checks the tools are listed.
 */
export function renderDataset(recordings: Recording[], header: DatasetHeader, nothingCalled?: string): string {
  return [
    `# yaml-language-server: $schema=${header.schemaPath}`,
    `${RECORDED_MARK} from profile "${comment(header.profile)}" (${comment(header.server)}).`,
    '# Each case calls one tool and expects what it returned when recorded: isError, the fields that',
    '# were the same in two recordings (expect.structured), and a size budget with headroom. The gate',
    "# also compares the two sides' live results, leaving out the fields listed as volatile.",
    '# Edit freely: a second `mcp-gate record` adds cases for new tools and keeps these.',
    `role: ${stringify(header.role).trim()}`,
    'cases:',
    ...(nothingCalled ? [listedBlock(recordings, nothingCalled)] : []),
    ...recordings.map(caseBlock),
  ].join('\n');
}

/** What a second recording adds to an existing dataset: the text, and the tools added. */
export interface Merge {
  text: string;
  added: string[];
  kept: number;
}

/**
 * New tools appended to a dataset that exists: the cases people edited, their comments and their
 * order are kept as written. A tool counts as covered when a case probes it, or when its recorded
 * case is there, even commented out. Throws with the reason when the file cannot be added to.
 */
export function mergeDataset(existing: string, recordings: Recording[], file: string): Merge {
  const doc = parseDocument(existing);
  if (doc.errors.length)
    throw new Error(`${file} is not valid YAML (${doc.errors[0]!.message.split('\n')[0]}); fix it, or write it anew with --force`);
  const value = doc.toJS() as { cases?: { id?: unknown; requiredTools?: { toolName?: unknown }[] }[] } | null;
  if (!value || !Array.isArray(value.cases)) throw new Error(`${file} has no cases list to add to; fix it, or write it anew with --force`);
  const covered = new Set<string>();
  for (const c of value.cases) {
    if (typeof c.id === 'string') covered.add(c.id);
    for (const t of c.requiredTools ?? []) if (typeof t.toolName === 'string') covered.add(caseIdOf(t.toolName));
  }
  for (const match of existing.matchAll(/^\s*#\s*-\s*id:\s*(\S.*?)\s*$/gm)) covered.add(match[1]!);
  const fresh = recordings.filter((r) => !covered.has(caseIdOf(r.tool)) && !covered.has(comment(caseIdOf(r.tool))));
  const lastKey = [...existing.matchAll(/^([A-Za-z$][\w$-]*):/gm)].at(-1)?.[1];
  if (fresh.length && lastKey !== 'cases') {
    throw new Error(
      `${file}: record appends new cases at the end of the file, so "cases" must be its last key; move it last, or write it anew with --force`,
    );
  }
  let text = existing.endsWith('\n') ? existing : `${existing}\n`;
  // An empty flow list (`cases: []`) cannot be appended to.
  if (fresh.length) text = text.replace(/^cases:\s*\[\s*\]\s*$/m, 'cases:');
  text += fresh.map(caseBlock).join('\n');
  return { text, added: fresh.map((r) => r.tool), kept: value.cases.length };
}
