import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffContracts } from '../../src/diff/index.js';
import { CODES, type Code } from '../../src/findings/codes.js';
import { ROOT } from '../helpers/cli.js';
import { contractOf } from '../helpers/contracts.js';

/**
 * The wording rule measured against a reviewer's labels (test/fixtures/wording/README.md): every
 * description and instructions change between consecutive recorded releases, labelled `steers`,
 * `neutral` or `borderline` by someone who never read the gate's rules. "Held" is the rule's Hold
 * (`description-changed`, `instructions-changed`); precision and recall are of "held" against
 * `steers`, with `borderline` read both ways. The set is split by package before the rule was
 * redesigned: the rule was tuned on one half, and the other half is measured only.
 */
interface Item {
  id: string;
  package: string;
  kind: 'instructions' | 'tool' | 'argument';
  before: string;
  after: string;
  arguments?: { tool: string; argument: string }[];
}
type Label = 'steers' | 'neutral' | 'borderline';

const dir = join(ROOT, 'test/fixtures/wording');
const read = <T>(file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as T;

/** Fixed before any tuning: a package's half is the parity of its name's SHA-256 first byte. */
const halfOf = (pkg: string): 'tuning' | 'heldOut' => ((createHash('sha256').update(pkg).digest()[0]! & 1) === 0 ? 'tuning' : 'heldOut');

/** An input schema with `description` at an argument path as the labels name it (`sort[].direction`). */
function schemaWith(path: string, description: string): Record<string, unknown> {
  const leaf: Record<string, unknown> = { type: 'string', ...(description ? { description } : {}) };
  const steps = path.split('.');
  let node = leaf;
  for (let i = steps.length - 1; i >= 0; i--) {
    const [name, ...arrays] = steps[i]!.split('[]');
    for (let n = 0; n < arrays.length; n++) node = { type: 'array', items: node };
    node = { type: 'object', properties: { [name!]: node } };
  }
  return node;
}

function contractWith(item: Item, text: string) {
  if (item.kind === 'instructions') {
    const contract = contractOf({ name: 't', description: 'A tool.', inputSchema: { type: 'object' } });
    contract.server = { ...contract.server, instructions: text || null };
    return contract;
  }
  if (item.kind === 'tool') return contractOf({ name: 't', ...(text ? { description: text } : {}), inputSchema: { type: 'object' } });
  return contractOf({ name: 't', description: 'A tool.', inputSchema: schemaWith(item.arguments![0]!.argument, text) });
}

/** The codes the gate reports for one item, as `mcp-gate run` would with the default policy. */
const codesOf = (item: Item): Code[] =>
  diffContracts(contractWith(item, item.before), contractWith(item, item.after), null).map((c) => c.code as Code);

const RULE = new Set<Code>(['description-changed', 'instructions-changed']);
/** One labelled set, each item judged by the gate. */
function judgedSet(itemsFile: string, labelsFile: string) {
  const items = read<Item[]>(itemsFile);
  const labels = read<{ id: string; label: Label }[]>(labelsFile);
  return items.map((item, n) => {
    if (labels[n]?.id !== item.id) throw new Error(`${labelsFile} is out of step with ${itemsFile} at ${n}`);
    const codes = codesOf(item);
    return { item, label: labels[n]!.label, half: halfOf(item.package), codes, held: codes.some((c) => RULE.has(c)) };
  });
}
const judged = judgedSet('description-changes.json', 'labels.json');
/** The second set: the changes among the held-out sets' recordings, labelled by five other reviewers. */
const second = judgedSet('description-changes-2.json', 'labels-2.json');
/** The third: the seventeenth held-out set's changes, labelled after the rule's last change. */
const third = judgedSet('description-changes-3.json', 'labels-3.json');
/** The fourth: the eighteenth held-out set's changes, labelled blind before the rule was run on them. */
const fourth = judgedSet('description-changes-4.json', 'labels-4.json');
/** The fifth: the twentieth and twenty-first held-out sets' changes, labelled blind before the rule ran on them. */
const fifth = judgedSet('description-changes-5.json', 'labels-5.json');

type Judged = (typeof judged)[number];

/** Precision and recall of "held" against `steers`, with borderline as steers and as neutral, in per cent to one decimal. */
function figures(rows: Judged[]) {
  const held = rows.filter((r) => r.held);
  const measure = (positive: (r: Judged) => boolean) => {
    const hits = held.filter(positive).length;
    const all = rows.filter(positive).length;
    const pct = (a: number, b: number) => (b ? Math.round((1000 * a) / b) / 10 : 0);
    return { hits, precision: pct(hits, held.length), recall: pct(hits, all), of: all };
  };
  return {
    items: rows.length,
    held: held.length,
    borderlineAsNeutral: measure((r) => r.label === 'steers'),
    borderlineAsSteers: measure((r) => r.label !== 'neutral'),
  };
}

describe('the wording rule against the labelled description changes (test/fixtures/wording)', () => {
  it('the labelled set is whole and the split is fixed: 501 items, labels in the same order', () => {
    expect(judged.length).toBe(501);
    expect(judged.filter((r) => r.half === 'tuning').length).toBe(306);
    const steers = judged.filter((r) => r.label === 'steers');
    expect([steers.filter((r) => r.half === 'tuning').length, steers.length]).toEqual([12, 29]);
  });

  it('the second set is whole, in the same split: 1,489 items, 58 steers and 41 borderline', () => {
    expect(second.length).toBe(1489);
    expect(second.filter((r) => r.half === 'tuning').length).toBe(626);
    expect([second.filter((r) => r.label === 'steers').length, second.filter((r) => r.label === 'borderline').length]).toEqual([58, 41]);
  });

  it('the third set, measured once after the last change to the rule: 11 items, none steers; the rule holds 2 (both neutral)', () => {
    expect([third.length, third.filter((r) => r.label === 'steers').length, third.filter((r) => r.label === 'borderline').length]).toEqual([
      11, 0, 1,
    ]);
    expect(third.filter((r) => r.held).map((r) => r.label)).toEqual(['neutral', 'neutral']);
  });

  it('the fourth set, measured once after the condition reading: 43 items, 1 steers, 2 borderline; the rule holds those 3 and no neutral item', () => {
    expect([
      fourth.length,
      fourth.filter((r) => r.label === 'steers').length,
      fourth.filter((r) => r.label === 'borderline').length,
    ]).toEqual([43, 1, 2]);
    expect(
      fourth
        .filter((r) => r.held)
        .map((r) => r.label)
        .sort(),
    ).toEqual(['borderline', 'borderline', 'steers']);
  });

  it('the fifth set, measured once: 92 items, no steers, 2 borderline; the rule holds none of them', () => {
    expect([fifth.length, fifth.filter((r) => r.label === 'steers').length, fifth.filter((r) => r.label === 'borderline').length]).toEqual([
      92, 0, 2,
    ]);
    expect(fifth.filter((r) => r.held).map((r) => r.label)).toEqual([]);
  });

  // Floors at the figures reached (docs/verdicts.md, "Text that steers the model"). The rule before
  // (held on any directive word, figure or large edit) held 117 of the first set's tuning half's 306
  // items and 129 of the held-out 195: precision on steers 8.5% and 10.1%, recall 83.3% and 76.5%.
  // The second set, first measured with the rule as the first set left it: tuning 38 held, precision
  // 36.8% (57.9%), recall 60.9% (56.4%); held out 82 held, 22.0% (43.9%), 51.4% (60.0%). Then a
  // parameter's steering words were reported, not held (4 steering of the 22 parameter items held).
  // Then a need inside a condition ("when you need to") was read as purpose, written after the
  // held-out half was read: held out 69 held, 24.6% (47.8%), 48.6% (55.0%) before it.
  it.each([
    ['first set, tuning', judged, 'tuning', { held: 12, precision: [83.3, 91.7], recall: [83.3, 57.9] }],
    ['first set, held out', judged, 'heldOut', { held: 16, precision: [68.8, 81.3], recall: [64.7, 50] }],
    ['second set, tuning', second, 'tuning', { held: 36, precision: [38.9, 61.1], recall: [60.9, 56.4] }],
    ['second set, held out', second, 'heldOut', { held: 47, precision: [36.2, 61.7], recall: [48.6, 48.3] }],
  ] as const)('figures on the %s half, borderline as neutral and as steers', (_, set, half, floor) => {
    const f = figures(set.filter((r) => r.half === half));
    expect(f.held, 'items held').toBeLessThanOrEqual(floor.held);
    expect(f.borderlineAsNeutral.precision, 'precision, borderline as neutral').toBeGreaterThanOrEqual(floor.precision[0]);
    expect(f.borderlineAsSteers.precision, 'precision, borderline as steers').toBeGreaterThanOrEqual(floor.precision[1]);
    expect(f.borderlineAsNeutral.recall, 'recall, borderline as neutral').toBeGreaterThanOrEqual(floor.recall[0]);
    expect(f.borderlineAsSteers.recall, 'recall, borderline as steers').toBeGreaterThanOrEqual(floor.recall[1]);
  });

  it('a parameter whose text goes entirely is description-removed, another rule: the model loses what it was told', () => {
    const removed = judged.filter((r) => r.codes.includes('description-removed'));
    expect(removed.map((r) => [r.item.kind, r.item.after, r.label, CODES['description-removed'].action])).toEqual(
      removed.map(() => ['argument', '', 'neutral', 'hold']),
    );
    expect(removed).toHaveLength(17);
  });

  it('a rule on a value stated in text only is description-constraint-added, another question: 35 items in 8 pairs, none labelled steers', () => {
    const stated = judged.filter((r) => r.codes.includes('description-constraint-added'));
    expect(stated.map((r) => r.label)).toEqual(stated.map(() => 'neutral'));
    expect([stated.length, new Set(stated.map((r) => r.item.id.split('/')[0])).size]).toEqual([35, 8]);
  });
});
