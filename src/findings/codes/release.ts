import type { ChangeFacts, ChangeMeta, FindingMeta } from './meta.js';

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

/** Release language (docs/releases.md): deprecation as the diff sees it. */
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
  // The same lifecycle for what a tool or a prompt takes, and for prompts (docs/releases.md, "Deprecation"): sibling
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
} as const satisfies Record<string, ChangeMeta>;

/** A client's problems named per tool at most; the rest are counted. */
const MAX_NAMED = 3;
/** The first problems, then how many more: `a; b; c; and 2 more`. */
const firstFew = (problems: string[]): string =>
  `${problems.slice(0, MAX_NAMED).join('; ')}${problems.length > MAX_NAMED ? `; and ${problems.length - MAX_NAMED} more` : ''}`;

/** The version check's sentence parts (decide/version-bump.ts): both versions, and the bump the changes call for. */
interface Versions {
  /** `"1.4.0" to "1.4.1"`. */
  versions: string;
  /** `the changes call for a major bump`. */
  calls: string;
}

/**
 * The version bump the changes call for, against both sides' `serverInfo.version`
 * (decide/version-bump.ts), and what the clients a team depends on accept (audit/clients.ts).
 */
export const RELEASE_FINDING_CODES = {
  // A calendar version that went back is dangerous, not breaking: a date says when, not what.
  'version-bump-too-small': {
    area: 'release',
    severity: (f: { scheme: 'semver' | 'calendar' }) => (f.scheme === 'calendar' ? 'dangerous' : 'breaking'),
    action: 'hold',
    title: 'Breaking changes under a version bump too small for them',
    noun: ['version bump too small', 'version bumps too small'],
    message: (f: Versions & { scheme: 'semver' | 'calendar'; shows?: string; zero?: string }) =>
      f.shows === undefined
        ? `The version went back (${f.versions}) while ${f.calls}.`
        : `Breaking changes ship under ${f.shows} (${f.versions})${f.zero ?? ''}; ${f.calls}.`,
  },
  'version-bump-additions-as-patch': {
    area: 'release',
    severity: 'safe',
    action: 'ignore',
    title: 'Additions under a patch bump',
    noun: ['addition under a patch bump', 'additions under a patch bump'],
    message: (f: Versions) => `Additions ship under a patch bump (${f.versions}); ${f.calls}.`,
  },
  'version-unchanged': {
    area: 'release',
    severity: 'dangerous',
    action: 'ignore',
    title: 'Contract changed, version unchanged',
    noun: ['version left unchanged', 'versions left unchanged'],
    message: (f: { version: string; calls: string }) => `The contract changed but the version stayed ${f.version}; ${f.calls}.`,
  },
  'version-unreadable': {
    area: 'release',
    severity: 'safe',
    action: 'ignore',
    title: 'Versions the gate cannot compare',
    noun: ['version the gate cannot compare', 'versions the gate cannot compare'],
    /** The check's summary says it whole: which version, and what the changes call for. */
    message: (f: { summary: string }) => f.summary,
  },
  'client-rejects-tool': {
    area: 'release',
    severity: 'dangerous',
    action: 'hold',
    title: 'Tools a declared client rejects',
    doc: "a client named in `audit.clients` refuses the tool: its name breaks the client's rule, its input schema does not meet the client's rules (a keyword it refuses, an object it needs closed), or its output schema declares a dialect the client refuses ([releases.md](releases.md#client-profiles) has each rule and its source).",
    noun: ['tool a declared client rejects', 'tools a declared client rejects'],
    message: (f: { label: string; client: string; tool: string; problems: string[] }) =>
      `${f.label} (audit.clients: ${f.client}) rejects tool "${f.tool}": ${firstFew(f.problems)}.`,
  },
  // An error result these clients throw on, where the caller should have read the tool's own error.
  'client-rejects-result': {
    area: 'release',
    severity: 'dangerous',
    action: 'hold',
    title: 'Results a declared client refuses',
    doc: "a client named in `audit.clients` refuses a live result of a case. By default that is the MCP TypeScript SDK's 1.x client, which holds an error's `structuredContent` to the output schema too and throws instead of handing the error over ([releases.md](releases.md#client-profiles)).",
    noun: ['result a declared client refuses', 'results a declared client refuses'],
    message: (f: { label: string; client: string; failures: string[] }) =>
      `${f.label} (audit.clients: ${f.client}) refuses this error result: it checks an error's structuredContent against the outputSchema too, which it fails (${firstFew(f.failures)}). The caller gets "Structured content does not match the tool's output schema" instead of the tool's error.`,
  },
  // A watched client the config does not name (config/clients.ts): told, not judged, until named.
  'client-would-reject-tool': {
    area: 'release',
    severity: 'dangerous',
    action: 'ignore',
    title: 'Tools a client in use would reject (not in audit.clients)',
    doc: 'the same as `client-rejects-tool`, from a watched client the config does not name: reported only, until `audit.clients` names it.',
    noun: ['tool a client in use would reject', 'tools a client in use would reject'],
    message: (f: { label: string; client: string; tool: string; problems: string[]; added: boolean }) =>
      `${f.label} would reject ${f.added ? 'new tool' : 'tool'} "${f.tool}"${f.added ? '' : ', which it accepted on the baseline'}: ${firstFew(f.problems)}. Add ${f.client} to audit.clients to hold on it.`,
  },
} as const satisfies Record<string, FindingMeta>;
