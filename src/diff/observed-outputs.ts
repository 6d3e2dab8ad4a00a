import type { Observation } from '../cases/types.js';
import type { Contract } from '../contract/types.js';
import { isObject } from '../base/json-object.js';
import { resolvesOf } from '../findings/codes.js';
import type { Change, ResultEvidence } from '../findings/types.js';

/** The output changes whose letter the results can contradict: a field no longer declared, or no longer required. */
const JUDGED = new Set<string>(['output-property-removed', 'output-property-optional']);
/** Instances of one place read in one side's results: enough to judge, bounded for results of any size. */
const MAX_INSTANCES = 1_000;
const MAX_DEPTH = 32;

/** One side's answers without an error from a tool, as the structuredContent its output schema describes. */
interface SideResults {
  data: unknown[];
  /** Places (pattern segments, `*` for any item) the side's cases read through `expect.structured`. */
  read: string[][];
}

/**
 * An output change judged with the results the run saw (docs/verdicts.md, "Output changes and the
 * results"): the schema walk sees two schemas only, the cases saw what each side returns. A field
 * dropped from the schema (or made optional) that every candidate result still carries is no longer
 * declared, still returned: held at most. One the baseline's results held only as null, or never,
 * is part of a fix for the null keys. One a case read, or that the baseline's results carried with
 * data, and the candidate's lack, is a break as before. With no result of the tool, the change is
 * judged from the schemas, and says so: a field the candidate's schema excludes (gone from a closed
 * object) is a break; one it still lets come (made optional, or left out of an open object, as the
 * write-ups' permissive status envelope does) is held, since a Rollback needs the results or the
 * contract to show the field gone. Pure: the same changes and results give the same changes.
 */
export function judgeByResults(
  changes: Change[],
  baseline: Observation[],
  candidate: Observation[],
  after: Contract | null = null,
): Change[] {
  const sides = { baseline: byTool(baseline), candidate: byTool(candidate) };
  const tools = new Map((after?.tools ?? []).map((t) => [t.name, t]));
  return changes.map((c) => {
    if (!JUDGED.has(c.code) || c.subject.kind !== 'tool') return c;
    const place = instancePlace(c.subject.at);
    if (!place) return c;
    const empty: SideResults = { data: [], read: [] };
    const evidence = judge(c, place, sides.baseline.get(c.subject.tool) ?? empty, sides.candidate.get(c.subject.tool) ?? empty);
    const admitted = evidence.outcome === 'unseen' && admits(c, tools.get(c.subject.tool)?.outputSchema);
    return withEvidence(c, admitted ? { ...evidence, admitted: true } : evidence);
  });
}

function byTool(observations: Observation[]): Map<string, SideResults> {
  const out = new Map<string, SideResults>();
  for (const o of observations) {
    if (o.kind === 'resource' || !isObject(o.result) || o.result.isError === true) continue;
    const data = o.result.structuredContent;
    if (!isObject(data) && !Array.isArray(data)) continue;
    const seen = out.get(o.tool) ?? { data: [], read: [] };
    seen.data.push(data);
    if (o.structured !== undefined) seen.read.push(...keyPaths(o.structured));
    out.set(o.tool, seen);
  }
  return out;
}

/**
 * The place in a result a place in an output schema describes, as segments (`*` for any item or
 * map value); null where the schema's place is no one place in the result (patterns, names, refs).
 */
export function instancePlace(at: readonly string[]): string[] | null {
  if (at[0] !== 'outputSchema') return null;
  const place: string[] = [];
  for (let i = 1; i < at.length; i++) {
    const segment = at[i]!;
    if (segment === 'properties' || segment === 'prefixItems') {
      if (at[i + 1] === undefined) return null;
      place.push(at[++i]!);
    } else if (segment === 'items' || segment === 'additionalProperties' || segment === 'contains') place.push('*');
    else if (segment === 'anyOf' || segment === 'oneOf' || segment === 'allOf') i++;
    else if (segment !== 'if' && segment !== 'then' && segment !== 'else') return null;
  }
  return place.length ? place : null;
}

/**
 * Whether the candidate's output schema still lets the field come: made optional (still declared),
 * or left out of an object that takes undeclared members (no `additionalProperties: false`, no
 * `unevaluatedProperties: false`, no schema for them). A place behind a `$ref` or an alternative is
 * not read: the change is judged as a break, as before.
 */
function admits(c: Change, schema: unknown): boolean {
  if (c.code === 'output-property-optional') return true;
  if (c.subject.kind !== 'tool') return false;
  let node: unknown = { outputSchema: schema };
  for (const segment of c.subject.at.slice(0, -2)) node = isObject(node) && Object.hasOwn(node, segment) ? node[segment] : undefined;
  if (!isObject(node) || '$ref' in node || 'anyOf' in node || 'oneOf' in node || 'allOf' in node) return false;
  const open = (value: unknown) => value === undefined || value === true || (isObject(value) && Object.keys(value).length === 0);
  return open(node.additionalProperties) && open(node.unevaluatedProperties);
}

/** How the results of each side hold a place: the objects that could hold it, those that do, those that hold a value. */
function tally(results: unknown[], place: string[]) {
  const key = place.at(-1)!;
  let parents = 0;
  let present = 0;
  let valued = 0;
  for (const data of results) {
    for (const parent of reach(data, place.slice(0, -1))) {
      if (!isObject(parent)) continue;
      parents++;
      if (!Object.hasOwn(parent, key)) continue;
      present++;
      if (parent[key] !== null) valued++;
    }
  }
  return { results: results.length, parents, present, valued };
}

/** Every value at the place (segments, `*` any item or member), up to MAX_INSTANCES. */
function reach(data: unknown, segments: string[]): unknown[] {
  let at = [data];
  for (const segment of segments.slice(0, MAX_DEPTH)) {
    const next: unknown[] = [];
    for (const value of at) {
      if (next.length >= MAX_INSTANCES) break;
      if (segment === '*') {
        if (Array.isArray(value)) next.push(...value.slice(0, MAX_INSTANCES));
        else if (isObject(value)) next.push(...Object.values(value).slice(0, MAX_INSTANCES));
      } else if (Array.isArray(value) && /^\d+$/.test(segment)) {
        if (Number(segment) < value.length) next.push(value[Number(segment)]);
      } else if (isObject(value) && Object.hasOwn(value, segment)) next.push(value[segment]);
    }
    at = next;
  }
  return at;
}

function judge(c: Change, place: string[], base: SideResults, cand: SideResults): ResultEvidence {
  const was = tally(base.data, place);
  const now = tally(cand.data, place);
  const counts = { baseline: was.results, candidate: now.results };
  if (!now.parents) return { outcome: 'unseen', ...counts };
  const read = [...base.read, ...cand.read].some((r) => samePlace(r, place));
  // Still returned: in every result that could hold it, and with a value wherever the baseline gave one.
  if (now.present === now.parents && (now.valued > 0 || was.valued === 0)) return { outcome: 'still-returned', ...counts };
  if (read || was.valued > 0 || !was.parents) return { outcome: 'gone', ...counts, ...(read && { read: true }) };
  const fixes = Object.keys(resolvesOf(c.code))[0];
  return { outcome: 'only-null', ...counts, ...(was.present === 0 && { never: true }), ...(fixes && { fixes }) };
}

/** Whether a place a case read is this place (`*` in either matching any item). */
const samePlace = (read: string[], place: string[]): boolean =>
  read.length === place.length && read.every((s, i) => s === place[i] || s === '*' || place[i] === '*');

/** Every place a case's `expect.structured` names, as segments, list indices as `*`. */
function keyPaths(value: unknown, at: string[] = [], depth = 0): string[][] {
  if (depth > MAX_DEPTH) return [];
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v) => ['*', v]) : isObject(value) ? Object.entries(value) : [];
  return entries.flatMap(([k, v]) => [[...at, k], ...keyPaths(v, [...at, k], depth + 1)]);
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function withEvidence(c: Change, results: ResultEvidence): Change {
  const tool = c.tool ?? '';
  const declared = c.code === 'output-property-optional' ? 'No longer required' : 'No longer declared';
  const held = c.severity === 'breaking' ? { severity: 'dangerous' as const } : {};
  switch (results.outcome) {
    case 'unseen': {
      const none = results.candidate
        ? `No result of "${tool}" seen in this run holds a place for it (an empty list, another shape)`
        : `No result of "${tool}" was seen in this run`;
      if (results.admitted) {
        const how = c.code === 'output-property-optional' ? 'it is still declared' : 'its object takes undeclared fields';
        return {
          ...c,
          ...held,
          results,
          message: `${c.message} ${none}, and the candidate's schema still lets the field come (${how}): whether it is still returned is for a person, so it is held, not rolled back.`,
        };
      }
      return { ...c, results, message: `${c.message} ${none}, so this is judged from the schemas alone.` };
    }
    case 'still-returned':
      return {
        ...c,
        ...held,
        results,
        message: `${c.message} ${declared}, still returned: every result of "${tool}" the candidate gave in this run (${results.candidate}) carries it, so it is held, not rolled back.`,
      };
    case 'only-null':
      return {
        ...c,
        ...held,
        results,
        message: `${c.message} The baseline's results (${results.baseline}) ${results.never ? 'never held it' : 'held it only as null'}, and the candidate's leave it out: part of a fix for ${results.fixes ?? 'the null keys'}, held, not rolled back.`,
      };
    case 'gone': {
      const why = results.read
        ? 'a case reads it'
        : results.baseline
          ? `the baseline's carried it with a value (${plural(results.baseline, 'result')})`
          : 'no result of the baseline was seen';
      return { ...c, results, message: `${c.message} The candidate's results lack it, and ${why}.` };
    }
  }
}
