import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/config/types.js';
import { decide, type Verdict } from '../../src/decide/decide.js';
import { collectSignals, unannotatedSiblings } from '../../src/decide/signals.js';
import { diffContracts } from '../../src/diff/index.js';
import { judgeByResults } from '../../src/diff/observed-outputs.js';
import type { Contract } from '../../src/contract/types.js';
import type { Change } from '../../src/findings/types.js';
import { ROOT } from '../helpers/cli.js';
import { recordedContract } from '../helpers/releases.js';

// docs/judgements.md: consecutive published releases, recorded, with a reviewer's verdict (the
// truth) and the gate's (what the code says today, kept true by this test).
const page = readFileSync(join(ROOT, 'docs/judgements.md'), 'utf8');
/**
 * The held-out sets, each recorded and judged by a reviewer who had not read the rules, after the
 * one before it was measured (and partly fixed): each is held apart, in its own section with its own
 * figures. HO's verdicts live only on the page; the others' were committed with their recordings.
 */
const SETS = [
  { heading: '## Held-out pairs', name: 'the held-out pairs', pairs: 39, servers: 6 },
  { heading: '## Fresh pairs', name: 'the fresh pairs', pairs: 36, servers: 6, file: 'FRESH-2026-12-02.md', prefix: 'FS' },
  { heading: '## Third held-out set', name: 'the third set', pairs: 44, servers: 7, file: 'FRESH-2026-12-02-c.md', prefix: 'FC' },
  { heading: '## Fourth held-out set', name: 'the fourth set', pairs: 45, servers: 12, file: 'FRESH-2026-12-02-d.md', prefix: 'FD' },
  { heading: '## Fifth held-out set', name: 'the fifth set', pairs: 46, servers: 23, file: 'FRESH-2026-12-02-e.md', prefix: 'FE' },
  { heading: '## Sixth held-out set', name: 'the sixth set', pairs: 42, servers: 16, file: 'FRESH-2026-12-02-f.md', prefix: 'FF' },
  { heading: '## Seventh held-out set', name: 'the seventh set', pairs: 43, servers: 15, file: 'FRESH-2026-12-02-g.md', prefix: 'FG' },
  { heading: '## Eighth held-out set', name: 'the eighth set', pairs: 34, servers: 16, file: 'FRESH-2026-12-02-h.md', prefix: 'FH' },
  { heading: '## Ninth held-out set', name: 'the ninth set', pairs: 35, servers: 14, file: 'FRESH-2026-12-02-i.md', prefix: 'FI' },
  { heading: '## Tenth held-out set', name: 'the tenth set', pairs: 37, servers: 14, file: 'FRESH-2026-12-02-j.md', prefix: 'FJ' },
  { heading: '## Eleventh held-out set', name: 'the eleventh set', pairs: 34, servers: 15, file: 'FRESH-2026-12-02-k.md', prefix: 'FK' },
  { heading: '## Twelfth held-out set', name: 'the twelfth set', pairs: 38, servers: 10, file: 'FRESH-2026-12-02-l.md', prefix: 'FL' },
  {
    heading: '## Thirteenth held-out set',
    name: 'the thirteenth set',
    pairs: 30,
    servers: 11,
    file: 'FRESH-2026-12-02-m.md',
    prefix: 'FM',
  },
  {
    heading: '## Fourteenth held-out set',
    name: 'the fourteenth set',
    pairs: 31,
    servers: 9,
    file: 'FRESH-2026-12-03-n.md',
    prefix: 'FN',
  },
  {
    heading: '## Fifteenth held-out set',
    name: 'the fifteenth set',
    pairs: 30,
    servers: 7,
    file: 'FRESH-2026-12-03-o.md',
    prefix: 'FO',
  },
  {
    heading: '## Sixteenth held-out set',
    name: 'the sixteenth set',
    pairs: 30,
    servers: 7,
    file: 'FRESH-2026-12-03-p.md',
    prefix: 'FP',
  },
  {
    heading: '## Seventeenth held-out set',
    name: 'the seventeenth set',
    pairs: 26,
    servers: 6,
    file: 'FRESH-2026-12-03-q.md',
    prefix: 'FQ',
  },
  {
    heading: '## Eighteenth held-out set',
    name: 'the eighteenth set',
    pairs: 15,
    servers: 6,
    file: 'FRESH-2026-12-03-r.md',
    prefix: 'FR',
  },
  {
    heading: '## Nineteenth held-out set',
    name: 'the nineteenth set',
    pairs: 6,
    servers: 2,
    file: 'FRESH-2026-12-03-t.md',
    prefix: 'FT',
  },
  {
    heading: '## Twentieth held-out set',
    name: 'the twentieth set',
    pairs: 15,
    servers: 8,
    file: 'FRESH-2026-12-03-u.md',
    prefix: 'FU',
    // A side of each exits before answering, so it has no recording: judged live, in a table of its own.
    liveOnly: ['FU10', 'FU14', 'FU18'],
  },
  {
    heading: '## Twenty-first held-out set',
    name: 'the twenty-first set',
    pairs: 12,
    servers: 6,
    file: 'FRESH-2026-12-03-v.md',
    prefix: 'FV',
  },
  {
    heading: '## Twenty-second held-out set',
    name: 'the twenty-second set',
    pairs: 14,
    servers: 6,
    file: 'FRESH-2026-12-03-w.md',
    prefix: 'FW',
    liveOnly: ['FW9', 'FW14', 'FW15'],
  },
  {
    heading: '## Twenty-third held-out set',
    name: 'the twenty-third set',
    pairs: 17,
    servers: 6,
    file: 'FRESH-2026-12-03-x.md',
    prefix: 'FX',
  },
  {
    heading: '## Twenty-fourth held-out set',
    name: 'the twenty-fourth set',
    pairs: 9,
    servers: 6,
    file: 'FRESH-2026-12-03-y.md',
    prefix: 'FY',
    liveOnly: ['FY8', 'FY9'],
  },
  {
    heading: '## Twenty-fifth held-out set',
    name: 'the twenty-fifth set',
    pairs: 20,
    servers: 9,
    file: 'FRESH-2026-12-03-z.md',
    prefix: 'FZ',
  },
  {
    heading: '## Twenty-sixth held-out set',
    name: 'the twenty-sixth set',
    pairs: 9,
    servers: 9,
    file: 'FRESH-2026-12-03-ga.md',
    prefix: 'GA',
  },
];
const starts = SETS.map((set) => page.indexOf(set.heading));
const table = page.slice(0, starts[0]);
const sections = SETS.map((_, i) => page.slice(starts[i], starts[i + 1]));
const tableRows = (text: string) =>
  [...text.matchAll(/^\| (\w+) \| `([^`]+)` \| (\S+) → (\S+) \| ([^|]+) \| (\w+) \| (.+) \|$/gm)].map(
    ([, id, pkg, before, after, reviewer, gate]) => ({
      id: id!,
      pkg: pkg!,
      before: before!,
      after: after!,
      // "Hold", "Hold (borderline)", "Promote or Hold" or "Hold or Promote, lean Hold": the verdicts a reviewer accepts.
      accepts: reviewer!.split(' or ').map((v) => v.trim().split(/[ ,]/)[0] as Verdict),
      gate: gate!,
    }),
  );
const rows = tableRows(table);

const fixture = (pkg: string, version: string) =>
  join(ROOT, 'test/fixtures/releases', `${pkg.replace(/^@/, '').replace('/', '__')}@${version}.json`);

const contract = recordedContract;

/**
 * A recorded pair's contracts and changes, as a run with no dataset judges them: no result seen of
 * any tool (diff/observed-outputs.ts). Diffed once per row; the tests below decide under other policies.
 */
const judgedPairs = new Map<string, { before: Contract; after: Contract; changes: Change[] }>();
function judgedPair(row: { pkg: string; before: string; after: string }) {
  const key = `${row.pkg}@${row.before}..${row.after}`;
  let known = judgedPairs.get(key);
  if (!known) {
    const [before, after] = [contract(row.pkg, row.before), contract(row.pkg, row.after)];
    judgedPairs.set(key, (known = { before, after, changes: judgeByResults(diffContracts(before, after), [], [], after) }));
  }
  return known;
}

/** The gate on a recorded pair, as `mcp-gate run` judges it with no datasets and the default policy. */
const verdictOf = (row: (typeof rows)[number]): Verdict =>
  decide(collectSignals(judgedPair(row).changes, [], []), { ...DEFAULTS.promotion, rules: {}, exceptions: [] }, '2026-11-23').verdict;

const verdicts = new Map(rows.map((r) => [r.id, verdictOf(r)]));
const disagreeing = rows.filter((r) => !r.accepts.includes(verdicts.get(r.id)!));
const disagreements = table.slice(table.indexOf('## Open disagreements'));

describe('judgements on published releases (docs/judgements.md)', () => {
  it('the table holds 145 pairs from at least 39 servers, 97 of them recorded after their verdict was written', () => {
    expect(rows.length).toBe(145);
    expect(new Set(rows.map((r) => r.pkg)).size).toBeGreaterThanOrEqual(39);
    // P1 to Q2 (2026-11-25), AT1 to PU1 and SH1 to DR2 (2026-11-28): reviewer verdicts committed
    // before the gate ran.
    expect(rows.findIndex((r) => r.id === 'P1')).toBe(48);
    expect(rows.findIndex((r) => r.id === 'AT1')).toBe(81);
    expect(new Set(rows.slice(81, 115).map((r) => r.pkg)).size).toBeGreaterThanOrEqual(6);
    expect(rows.findIndex((r) => r.id === 'SH1')).toBe(115);
    expect(new Set(rows.slice(115).map((r) => r.pkg)).size).toBeGreaterThanOrEqual(12);
  });

  it.each(rows.map((r) => [r.id, r] as const))('%s: the gate column says what the gate says', (_, row) => {
    expect(verdicts.get(row.id)).toBe(row.gate);
  });

  it('agreement with the reviewer is the figure the page states, and every disagreement is listed with its cause', () => {
    const agree = rows.length - disagreeing.length;
    expect(disagreements).toContain(`(${agree} of ${rows.length} rows agree today`);
    for (const row of disagreeing) expect(disagreements).toMatch(new RegExp(`\\*\\*[^*]*\\b${row.id}\\b[^*]*\\*\\*`));
  });

  it('the page says what the figure rests on: byte-identical tool lists, and agreement where the tools changed', () => {
    const tools = (pkg: string, version: string) =>
      JSON.stringify((JSON.parse(readFileSync(fixture(pkg, version), 'utf8')) as { tools: unknown[] }).tools);
    const changed = rows.filter((r) => tools(r.pkg, r.before) !== tools(r.pkg, r.after));
    const agreeing = changed.filter((r) => r.accepts.includes(verdicts.get(r.id)!));
    expect(disagreements).toContain(`in ${rows.length - changed.length} rows the two \`tools/list\` results are byte-identical`);
    expect(disagreements).toContain(`${rows.filter((r) => r.accepts.length > 1).length} rows accept two verdicts`);
    expect(disagreements).toContain(`${agreeing.length} of ${changed.length} rows agree`);
  });

  it('no silent break: the gate never promotes a pair the reviewer only rolls back', () => {
    const silent = rows.filter((r) => verdicts.get(r.id) === 'Promote' && r.accepts.every((v) => v === 'Rollback'));
    expect(silent.map((r) => r.id)).toEqual([]);
  });

  it('false Rollbacks are the ones the page names, and no more', () => {
    const falseRollbacks = rows.filter((r) => verdicts.get(r.id) === 'Rollback' && !r.accepts.includes('Rollback')).map((r) => r.id);
    expect(disagreements).toContain(`false Rollbacks: ${falseRollbacks.length === 0 ? 'none' : falseRollbacks.join(', ')}`);
  });

  // docs/verdicts.md: the default holds a new bare tool on a server that annotates none; the setting is the way through.
  it('what promotion.unannotatedServers: like-siblings would change is what the page says, and none of it is a Rollback or a silent break', () => {
    const under = rows.map((row) => {
      const { before, after, changes } = judgedPair(row);
      const unannotated = unannotatedSiblings(before, after);
      const signals = collectSignals(changes, [], [], unannotated ? { unannotated } : {});
      const policy = { ...DEFAULTS.promotion, rules: {}, exceptions: [], unannotatedServers: 'like-siblings' as const };
      const bare = changes.some((c) => c.code === 'tool-added-destructive-by-default' && unannotated?.tools.has(c.tool!));
      return { row, bare, verdict: decide(signals, policy, '2026-11-23').verdict };
    });
    const moved = under.filter((u) => u.verdict !== verdicts.get(u.row.id));
    expect(moved.every((u) => verdicts.get(u.row.id) === 'Hold' && u.verdict === 'Promote')).toBe(true);
    const ids = moved.map((u) => u.row.id);
    const accepted = moved.filter((u) => u.row.accepts.includes('Promote')).map((u) => u.row.id);
    const agree = under.filter((u) => u.row.accepts.includes(u.verdict)).length;
    const line = table.replace(/\s+/g, ' ');
    expect(line).toContain(
      `On this table it would change ${moved.length} rows: ${under.filter((u) => u.bare).length} rows add such a tool`,
    );
    expect(line).toContain(`${moved.length} of them move from Hold to Promote (${ids.join(', ')})`);
    expect(line).toContain(`The reviewer accepts Promote on ${accepted.length} of the ${moved.length} (${accepted.join(', ')})`);
    expect(line).toContain(`bring agreement to ${agree} of ${rows.length} rows`);
    expect(under.filter((u) => u.verdict === 'Promote' && u.row.accepts.every((v) => v === 'Rollback'))).toEqual([]);
  });

  it('a release against itself is Promote with no change, for every recorded release', () => {
    for (const row of rows) {
      const same = contract(row.pkg, row.after);
      expect(diffContracts(same, contract(row.pkg, row.after))).toEqual([]);
    }
  });
});

type Row = (typeof rows)[number];

/** The reviewer column of a verdict file committed with its recordings, read as the tables here are. */
function committedReviewer(file: string, prefix: string) {
  const committed = readFileSync(join(ROOT, 'test/fixtures/releases', file), 'utf8');
  const rowStart = new RegExp(String.raw`^(\| ${prefix}\d+ \| [^|]+\| [^|]+\| [^|]+\|)`, 'gm');
  return tableRows(committed.replace(rowStart, '$1 x |')).map((r) => [r.id, r.accepts]);
}

/**
 * A set of pairs measured apart from the main table: its own section, the gate column held, and the
 * figures it states (agreement, no silent break, the false Rollbacks and the noise Holds, each
 * disagreement with its cause).
 */
function measuredApart(section: string, set: Row[], before: Row[]) {
  const gate = new Map(set.map((r) => [r.id, verdictOf(r)]));
  const missed = set.filter((r) => !r.accepts.includes(gate.get(r.id)!));
  const listed = (ids: string[]) => (ids.length ? ids.join(', ') : 'none');

  it('holds no server that the sets before it hold', () => {
    expect(set.filter((r) => before.some((m) => m.pkg === r.pkg))).toEqual([]);
  });

  it.each(set.map((r) => [r.id, r] as const))('%s: the gate column says what the gate says', (_, row) => {
    expect(gate.get(row.id)).toBe(row.gate);
  });

  it('the figures the section states: agreement, the silent passes, the false Rollbacks and the noise Holds, each disagreement with its cause', () => {
    const text = section.replace(/\s+/g, ' ');
    expect(text).toContain(`(${set.length - missed.length} of ${set.length} rows agree today)`);
    // A silent pass is stated, never hidden: a set's figures are what they are (its first run above all).
    const silent = set.filter((r) => gate.get(r.id) === 'Promote' && r.accepts.every((v) => v === 'Rollback')).map((r) => r.id);
    expect(text).toContain(silent.length ? `silent passes: ${silent.join(', ')};` : 'with no silent break');
    const falseRollbacks = missed.filter((r) => gate.get(r.id) === 'Rollback').map((r) => r.id);
    const noise = missed.filter((r) => gate.get(r.id) === 'Hold' && r.accepts.every((v) => v === 'Promote')).map((r) => r.id);
    expect(text).toContain(`false Rollbacks: ${listed(falseRollbacks)}; noise Holds: ${listed(noise)}.`);
    for (const row of missed) expect(section).toMatch(new RegExp(`\\*\\*${row.id}\\*\\* \\(`));
  });
}

SETS.forEach((set, i) => {
  const pairs = tableRows(sections[i]!);
  const before = [rows, ...sections.slice(0, i).map(tableRows)].flat();
  describe(`${set.name} (docs/judgements.md, "${set.heading.slice(3)}")`, () => {
    it(`${set.pairs} pairs from ${set.servers} servers`, () => {
      expect(pairs).toHaveLength(set.pairs);
      expect(new Set(pairs.map((r) => r.pkg)).size).toBe(set.servers);
    });
    measuredApart(sections[i]!, pairs, before);

    if (set.file)
      it('the reviewer column is the one committed with the recordings, before the gate ran', () => {
        const ids = new Set(pairs.map((r) => r.id));
        const committed = committedReviewer(set.file, set.prefix);
        expect(committed.filter(([id]) => !ids.has(id as string)).map(([id]) => id)).toEqual(set.liveOnly ?? []);
        expect(committed.filter(([id]) => ids.has(id as string))).toEqual(pairs.map((r) => [r.id, r.accepts]));
      });
  });
});
