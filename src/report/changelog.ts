import { CONTRACT_ADDITIONS, neededBump, type Bump } from '../decide/version-bump.js';
import { CODES, type Code } from '../findings/codes.js';
import type { Change, Finding } from '../findings/types.js';
import { markdownText } from '../base/inert.js';
import type { Report } from './types.js';

/**
 * Release notes in markdown, ready to paste into CHANGELOG.md (docs/releases.md, "The changelog"): the
 * contract's changes grouped by what callers must do (breaking, deprecated, added, changed), then
 * what the audit found fixed. A pure function of the report: a saved report gives the same notes.
 * Every sentence from a server is inert markdown; the order is the report's (stable).
 */
const ADDED = new Set<Code>([...CONTRACT_ADDITIONS, 'description-added']);

/** The sections, in the order a reader acts on them. */
const SECTIONS = ['Breaking', 'Deprecated', 'Added', 'Changed', 'Fixed'] as const;
type Section = (typeof SECTIONS)[number];

function sectionOf(c: Change): Section {
  if (c.severity === 'breaking') return 'Breaking';
  if (c.code === 'deprecation-marked') return 'Deprecated';
  return ADDED.has(c.code) ? 'Added' : 'Changed';
}

/**
 * What is said once: a new tool that declares itself destructive by its destructive entry, not twice;
 * an argument's new `deprecated: true` by its deprecation entry, not again as an annotation change.
 */
function withoutEchoes(changes: Change[]): Change[] {
  const destructive = new Set(
    changes.filter((c) => c.code === 'tool-added-destructive' || c.code === 'tool-added-destructive-by-default').map((c) => c.tool),
  );
  const marked = new Set(changes.filter((c) => c.code === 'deprecation-marked').map((c) => `${c.tool ?? ''}${c.path}/deprecated`));
  return changes.filter(
    (c) =>
      !(c.code === 'tool-added' && destructive.has(c.tool)) &&
      !(c.code === 'schema-annotation-changed' && marked.has(`${c.tool ?? ''}${c.path}`)),
  );
}

const fixedLine = (f: Finding): string => `${CODES[f.code].title}${f.tool ? ` (${f.tool})` : ''}: fixed. Was: ${f.message}`;

const BUMP_WORDS: Record<Bump, string> = {
  major: 'a major release: callers must change',
  minor: 'a minor release: additions only, callers need not change',
  patch: 'a patch release: nothing was added or broken',
  none: 'no release: the contract did not change',
};

export function renderChangelog(report: Report): string {
  const c = report.candidate;
  const version = c.server.version ?? 'Unreleased';
  const name = c.server.name ?? report.server ?? c.profile;
  const lines = [`## ${markdownText(name)} ${markdownText(version)}`, ''];
  if (!c.available) {
    lines.push(
      `The candidate "${markdownText(c.profile)}" could not be read, so there are no release notes: ${markdownText(c.error?.message ?? 'unavailable')}`,
    );
    return `${lines.join('\n')}\n`;
  }
  const changes = withoutEchoes(report.diff.changes);
  const needed = report.release?.needed ?? neededBump(report.diff.changes);
  lines.push(
    `Compared with ${markdownText(report.baseline.server.version ?? `profile ${report.baseline.profile}`)}. The changes make this ${BUMP_WORDS[needed]}.`,
  );
  if (report.release) lines.push('', markdownText(report.release.summary));
  const bySection = new Map<Section, string[]>(SECTIONS.map((s) => [s, []]));
  for (const change of changes) bySection.get(sectionOf(change))!.push(change.message);
  const fixed = report.audit.findings.filter((f) => f.side === 'baseline' && f.direction === 'fixed');
  // One line per code and tool: a fix seen by several probes is one fix.
  const seen = new Set<string>();
  for (const f of fixed) {
    const key = `${f.code}|${f.tool ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    bySection.get('Fixed')!.push(fixedLine(f));
  }
  const any = [...bySection.values()].some((l) => l.length);
  if (!any) lines.push('', 'No changes to the tools, prompts, resources or capabilities.');
  for (const section of SECTIONS) {
    const items = bySection.get(section)!;
    if (!items.length) continue;
    lines.push('', `### ${section}`, '', ...items.map((m) => `- ${markdownText(m)}`));
  }
  return `${lines.join('\n')}\n`;
}
