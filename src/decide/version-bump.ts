import type { ServerIdentity } from '../contract/types.js';
import type { Code } from '../findings/codes.js';
import { finding } from '../findings/finding.js';
import type { Change, Finding } from '../findings/types.js';
import { inert } from '../base/inert.js';

/** How far a version moved, or how far the changes say it must: semver's levels. */
export type Bump = 'major' | 'minor' | 'patch' | 'none';

/**
 * The version check of a run (docs/releases.md, "The version bump"): the bump the changes call for, the
 * bump `serverInfo.version` shows, and the findings. In every report from this build on; absent in
 * older ones.
 */
export interface ReleaseCheck {
  baselineVersion: string | null;
  candidateVersion: string | null;
  /** semver (`1.4.0`, `v2.0.0-rc.1`), calendar (`2025.8.21`: a year first), or unknown (anything else, or no version). */
  scheme: 'semver' | 'calendar' | 'unknown';
  /** What the changes call for: major for a breaking change, minor for an addition or a deprecation, patch for any other change. */
  needed: Bump;
  /** What the versions show; `lower` when the candidate's is below the baseline's; null when they cannot be compared. */
  actual: Bump | 'lower' | null;
  /** One sentence saying both, for every format. */
  summary: string;
  findings: Finding[];
}

const RANK: Record<Bump, number> = { none: 0, patch: 1, minor: 2, major: 3 };

/** Changes that add to the contract: callers lose nothing, yet the surface grew. The changelog's "Added" too. */
export const CONTRACT_ADDITIONS: readonly Code[] = [
  'tool-added',
  'tool-added-destructive',
  'tool-added-destructive-by-default',
  'prompt-added',
  'resource-added',
  'resource-template-added',
  'capability-added',
  'input-property-added',
  'output-property-added',
  'output-closed-property-added',
  'output-schema-added',
];

/** What calls for semver's minor: an addition, or a new deprecation (callers are told before a removal). */
const ADDITIONS = new Set<Code>([...CONTRACT_ADDITIONS, 'deprecation-marked']);

/** The bump a set of changes calls for. */
export function neededBump(changes: Change[]): Bump {
  if (changes.some((c) => c.severity === 'breaking')) return 'major';
  if (changes.some((c) => ADDITIONS.has(c.code))) return 'minor';
  return changes.length ? 'patch' : 'none';
}

interface Parsed {
  numbers: [number, number, number];
  pre: string | null;
}

const SEMVER = /^v?(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})(?:-([0-9A-Za-z.-]{1,64}))?(?:\+[0-9A-Za-z.-]{1,64})?$/;

function parse(version: string | null): Parsed | null {
  const m = version === null ? null : SEMVER.exec(version.trim());
  return m ? { numbers: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] ?? null } : null;
}

/** A year first (2000-2999), as the reference servers' `2025.8.21`. */
const isCalendar = (p: Parsed) => p.numbers[0] >= 2000 && p.numbers[0] < 3000;

/**
 * The runs of letters and digits an identifier is made of, digits counted: `alpha-2026-06-29` is
 * `a-9999-99-99`, `alpha-1783623505000` is `a-9999999999999`. Semver §11 compares such identifiers
 * as ASCII text, which orders `alpha-10` before `alpha-9` and a timestamp before a date; text
 * orders them as people do only where both have the same runs.
 */
const shapeOf = (identifier: string) => identifier.replace(/[A-Za-z]+/g, 'a').replace(/\d/g, '9');

const NUMERIC = /^\d+$/;

/**
 * Pre-release tags by semver §11.4, identifier by identifier: numbers by value, a number before
 * letters, other identifiers as ASCII text, and a tag that runs out first before the longer one.
 * Two identifiers with letters whose runs differ (a date against a timestamp) cannot be ordered:
 * null. Each tag is at most 64 characters (SEMVER), so this is cheap.
 */
function comparePre(a: string, b: string): number | null {
  const [x, y] = [a.split('.'), b.split('.')];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const [p, q] = [x[i]!, y[i]!];
    if (p === q) continue;
    const [pn, qn] = [NUMERIC.test(p), NUMERIC.test(q)];
    if (pn && qn) return BigInt(p) < BigInt(q) ? -1 : 1;
    if (pn !== qn) return pn ? -1 : 1;
    if (shapeOf(p) !== shapeOf(q)) return null;
    return p < q ? -1 : 1;
  }
  return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
}

/** a < b: -1, equal: 0, a > b: 1, null when their pre-release tags cannot be ordered; a pre-release sorts before its release. */
function compare(a: Parsed, b: Parsed): number | null {
  for (let i = 0; i < 3; i++) if (a.numbers[i] !== b.numbers[i]) return a.numbers[i]! < b.numbers[i]! ? -1 : 1;
  if (a.pre === b.pre) return 0;
  if (a.pre === null) return 1;
  if (b.pre === null) return -1;
  return comparePre(a.pre, b.pre);
}

/**
 * The bump from a to b, as its level counts for callers. Under major 0 every level moves down one
 * (semver §4: anything may change; the common reading, npm's caret and Cargo's, is that 0.y -> 0.(y+1)
 * may break and 0.y.z -> 0.y.(z+1) may add). Null when the two cannot be ordered.
 */
function bumpOf(a: Parsed, b: Parsed): Bump | 'lower' | null {
  const order = compare(a, b);
  if (order === null) return null;
  if (order > 0) return 'lower';
  if (order === 0) return 'none';
  const level: Bump = a.numbers[0] !== b.numbers[0] ? 'major' : a.numbers[1] !== b.numbers[1] ? 'minor' : 'patch';
  if (a.numbers[0] === 0 && b.numbers[0] === 0) return level === 'minor' ? 'major' : level === 'patch' ? 'minor' : level;
  return level;
}

const quoted = (v: string | null) => (v === null ? 'none' : `"${inert(v.slice(0, 80))}"`);

/** The version check's findings are the run's own, and new. */
const RUN = { side: 'candidate', regression: true } as const;

/** Both sides' `serverInfo.version` against what the changes call for. Pure. */
export function checkVersionBump(baseline: ServerIdentity, candidate: ServerIdentity | null, changes: Change[]): ReleaseCheck {
  const needed = neededBump(changes);
  const [was, now] = [baseline.version, candidate?.version ?? null];
  const [a, b] = [parse(was), parse(now)];
  const versions = `${quoted(was)} to ${quoted(now)}`;
  const calls = needed === 'none' ? 'the contract did not change' : `the changes call for a ${needed} bump`;
  const base = { baselineVersion: was, candidateVersion: now, needed };
  if (!candidate)
    return { ...base, scheme: 'unknown', actual: null, summary: 'The candidate was not read: no version to check.', findings: [] };
  if (!a || !b) {
    const which = [!a && `the baseline's ${quoted(was)}`, !b && `the candidate's ${quoted(now)}`].filter(Boolean).join(' and ');
    const why = `${which} ${!a && !b ? 'are' : 'is'} not a semver or calendar version (MAJOR.MINOR.PATCH)`;
    const summary = `Versions ${versions}: ${why}, so the bump is not checked; ${calls}.`;
    return {
      ...base,
      scheme: 'unknown',
      actual: null,
      summary,
      findings: needed === 'none' ? [] : [finding('version-unreadable', { summary }, RUN)],
    };
  }
  const actual = bumpOf(a, b);
  const scheme = isCalendar(a) || isCalendar(b) ? 'calendar' : 'semver';
  if (actual === null) {
    // Neither forward nor back: reading it as "went back" would hold a release for a tag's spelling.
    const summary = `Versions ${versions}: the same release with pre-release tags ${quoted(a.pre)} and ${quoted(b.pre)} of different shapes, which cannot be ordered, so the bump is not checked; ${calls}.`;
    return { ...base, scheme, actual, summary, findings: needed === 'none' ? [] : [finding('version-unreadable', { summary }, RUN)] };
  }
  const findings: Finding[] = [];
  if (isCalendar(a) || isCalendar(b)) {
    // A date says when, not what: only "it moved forward" can be checked.
    const moved = actual === 'none' ? 'unchanged' : actual === 'lower' ? 'went back' : 'moved forward';
    const summary = `Calendar versions ${versions} ${moved}; a date cannot say whether a release breaks, so only the change is checked; ${calls}.`;
    if (needed !== 'none' && actual === 'none') findings.push(finding('version-unchanged', { version: quoted(now), calls }, RUN));
    if (needed !== 'none' && actual === 'lower')
      findings.push(finding('version-bump-too-small', { scheme: 'calendar', versions, calls }, RUN));
    return { ...base, scheme: 'calendar', actual, summary, findings };
  }
  const bumped = actual !== 'none' && actual !== 'lower';
  const zero =
    bumped && a.numbers[0] === 0 && b.numbers[0] === 0 ? ' (under major 0, a minor bump counts as major and a patch bump as minor)' : '';
  const shows = actual === 'none' ? 'unchanged' : actual === 'lower' ? 'lower' : `a ${actual} bump`;
  const summary = `Versions ${versions}: ${shows}${zero}; ${calls}.`;
  if (needed !== 'none') {
    if (actual === 'none') findings.push(finding('version-unchanged', { version: quoted(now), calls }, RUN));
    else if (actual === 'lower') findings.push(finding('version-bump-too-small', { scheme: 'semver', versions, calls }, RUN));
    else if (needed === 'major' && RANK[actual] < RANK.major)
      findings.push(finding('version-bump-too-small', { scheme: 'semver', shows, versions, zero, calls }, RUN));
    else if (needed === 'minor' && actual === 'patch') findings.push(finding('version-bump-additions-as-patch', { versions, calls }, RUN));
  }
  return { ...base, scheme: 'semver', actual, summary, findings };
}
