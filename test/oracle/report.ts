import type { Schema } from './ajv.js';
import { CLASSES, nodeAt } from './classes.js';
import type { Outcome } from './judge.js';
import type { Pair } from './pairs.js';

/**
 * The figures, overall and per row (class × side × direction), and the text the runner prints.
 * Definitions (also in test/oracle/README.md):
 *  - agreement: pairs where the gate says breaking exactly when a breaking witness exists, plus
 *    pairs whose disagreement a documented policy explains, over all pairs;
 *  - silent pass: a breaking witness exists and the gate reports nothing dangerous or breaking;
 *  - false alarm: the gate says breaking and the search (fast, then generous) finds no witness;
 *  - under-rated: a breaking witness exists and the gate says dangerous, not breaking;
 *  - calm held: no witness either way (the schemas accept the same instances) and the gate says
 *    dangerous or breaking, over the pairs with no witness either way.
 */
export interface Row {
  cls: string;
  side: string;
  dir: string;
  pairs: number;
  agree: number;
  silent: number[];
  falseAlarm: number[];
  underRated: number[];
  calmHeld: number[];
  /** Pairs with no witness either way. */
  calm: number;
  policy: Record<string, number>;
  /** Ground truth: witnesses known to exist, those the search did not find, those found only with the generous budget. */
  truthWitnesses: number;
  searchMisses: number[];
  fastMisses: number;
  contradicted: number[];
}

export interface Summary {
  pairs: number;
  agreement: number;
  silent: number;
  falseAlarm: number;
  underRated: number;
  calmHeld: number;
  calm: number;
  compatibleHeld: number;
  compatible: number;
  policy: Record<string, number>;
  truthWitnesses: number;
  searchMisses: number;
  fastMisses: number;
  contradicted: number;
  rows: Row[];
  classes: number;
}

const rowKey = (p: Pair) => `${p.cls}\u0000${p.side}\u0000${p.dir}`;

export function summarize(pairs: Pair[], outcomes: Outcome[]): Summary {
  const rows = new Map<string, Row>();
  const s: Summary = {
    pairs: 0,
    agreement: 0,
    silent: 0,
    falseAlarm: 0,
    underRated: 0,
    calmHeld: 0,
    calm: 0,
    compatibleHeld: 0,
    compatible: 0,
    policy: {},
    truthWitnesses: 0,
    searchMisses: 0,
    fastMisses: 0,
    contradicted: 0,
    rows: [],
    classes: new Set(pairs.map((p) => p.cls)).size,
  };
  let agree = 0;
  for (const o of outcomes) {
    const p = pairs[o.id]!;
    let row = rows.get(rowKey(p));
    if (!row) {
      row = {
        cls: p.cls,
        side: p.side,
        dir: p.dir,
        pairs: 0,
        agree: 0,
        silent: [],
        falseAlarm: [],
        underRated: [],
        calmHeld: [],
        calm: 0,
        policy: {},
        truthWitnesses: 0,
        searchMisses: [],
        fastMisses: 0,
        contradicted: [],
      };
      rows.set(rowKey(p), row);
    }
    row.pairs++;
    s.pairs++;
    if (o.policy) {
      row.policy[o.policy] = (row.policy[o.policy] ?? 0) + 1;
      s.policy[o.policy] = (s.policy[o.policy] ?? 0) + 1;
    }
    if (o.category === 'agree' || o.policy) {
      row.agree++;
      agree++;
    }
    if (!o.policy) {
      if (o.category === 'silent') row.silent.push(o.id);
      if (o.category === 'false-alarm') row.falseAlarm.push(o.id);
      if (o.category === 'under-rated') row.underRated.push(o.id);
      if (o.calmHeld) row.calmHeld.push(o.id);
    }
    if (!o.breaking.found && o.reverse && !o.reverse.found) row.calm++;
    if (!o.breaking.found) {
      s.compatible++;
      if (o.worst !== 'safe' && !o.policy) s.compatibleHeld++;
    }
    if (p.truth !== undefined) {
      row.truthWitnesses += p.truth === 'incomparable' ? 2 : p.truth === 'same' ? 0 : 1;
      row.fastMisses += o.fastMissed ?? 0;
      for (const _miss of o.truthMiss ?? []) row.searchMisses.push(o.id);
      if (o.truthContradicted) row.contradicted.push(o.id);
    }
  }
  s.rows = [...rows.values()];
  for (const r of s.rows) {
    s.silent += r.silent.length;
    s.falseAlarm += r.falseAlarm.length;
    s.underRated += r.underRated.length;
    s.calmHeld += r.calmHeld.length;
    s.calm += r.calm;
    s.truthWitnesses += r.truthWitnesses;
    s.searchMisses += r.searchMisses.length;
    s.fastMisses += r.fastMisses;
    s.contradicted += r.contradicted.length;
  }
  s.agreement = s.pairs ? agree / s.pairs : 1;
  return s;
}

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : '-');
const clip = (text: string, n: number) => (text.length > n ? `${text.slice(0, n)}…` : text);
const json = (v: unknown) => JSON.stringify(v) ?? 'undefined';

/** The failing rows, most failures first (silent passes, false alarms and calm changes held; then under-rated). */
export function failingRows(s: Summary): Row[] {
  const weight = (r: Row) => r.silent.length + r.falseAlarm.length + r.calmHeld.length;
  return s.rows
    .filter((r) => weight(r) + r.underRated.length > 0)
    .sort((a, b) => weight(b) - weight(a) || b.underRated.length - a.underRated.length || a.cls.localeCompare(b.cls));
}

function pointerSteps(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The part of a pair worth reading: the node the class edited, before and after (the whole schema when it is short). */
export function describePair(p: Pair, o: Outcome, width = 700): string[] {
  const whole = json(p.before).length + json(p.after).length < 600;
  const at = (s: Schema) => {
    try {
      return json(nodeAt(s, pointerSteps(p.pointer)));
    } catch {
      return 'undefined';
    }
  };
  const [b, a] = whole ? [json(p.before), json(p.after)] : [at(p.before), at(p.after)];
  const where = whole ? 'schema' : `node ${p.pointer || '(root)'}`;
  const changes = o.changes.length ? o.changes.map((c) => `${c.code} (${c.severity}) at ${c.path}`).join('; ') : 'none';
  const witness = o.breaking.found
    ? `witness (${p.side === 'input' ? 'baseline accepts, candidate refuses' : 'candidate may return, baseline refused'}): ${clip(json(o.breaking.witness), 300)}`
    : `no witness within the generous budget (${o.breaking.tried} instances)${o.reverse?.found ? `; reverse witness ${clip(json(o.reverse.witness), 200)}` : o.reverse ? '; none the other way either' : ''}`;
  return [
    `#${p.id} ${p.origin} "${p.base}"${p.truth ? `, by construction ${p.truth}` : ''}`,
    `${where} before: ${clip(b, width)}`,
    `${where} after:  ${clip(a, width)}`,
    `gate: ${changes}`,
    witness,
  ];
}

/** The smallest example among ids, so the report shows the clearest one. */
export const smallest = (ids: number[], pairs: Pair[]): number =>
  ids.reduce((best, id) => (json(pairs[id]!.before).length < json(pairs[best]!.before).length ? id : best), ids[0]!);

export function formatReport(s: Summary, pairs: Pair[], outcomes: Outcome[], opts: { examples: boolean; seconds: number }): string {
  const out: string[] = [];
  const byId = new Map(outcomes.map((o) => [o.id, o]));
  out.push(
    `oracle: ${s.pairs} pairs from ${s.classes} mutation classes (${CLASSES.length} defined), ${opts.seconds.toFixed(1)} s`,
    `  agreement        ${pct(s.pairs * s.agreement, s.pairs)}   (gate says breaking exactly when a witness exists, or a documented policy explains it)`,
    `  silent passes    ${s.silent} (${pct(s.silent, s.pairs)})   (a witness exists; the gate reports nothing dangerous or breaking)`,
    `  false alarms     ${s.falseAlarm} (${pct(s.falseAlarm, s.pairs)})   (the gate says breaking; no witness within the generous budget)`,
    `  under-rated      ${s.underRated} (${pct(s.underRated, s.pairs)})   (a witness exists; the gate says dangerous, not breaking)`,
    `  calm held        ${s.calmHeld} of ${s.calm} calm pairs (${pct(s.calmHeld, s.calm)})   (no witness either way; the gate says dangerous or breaking)`,
    `  compatible held  ${s.compatibleHeld} of ${s.compatible} pairs with no breaking witness (${pct(s.compatibleHeld, s.compatible)})`,
    `  documented policy ${
      Object.entries(s.policy)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ') || 'none'
    }`,
    `  search vs ground truth: ${s.truthWitnesses} witnesses known to exist by construction, ${s.searchMisses} not found (recall ${pct(s.truthWitnesses - s.searchMisses, s.truthWitnesses)}), ${s.fastMisses} found only with the generous budget; ${s.contradicted} pairs where the search contradicts the construction`,
  );
  const failing = failingRows(s);
  out.push('', `failing rows (${failing.length}): class / side / direction: silent, false alarms, calm held, under-rated (of pairs)`);
  for (const r of failing)
    out.push(
      `  ${`${r.cls} / ${r.side} / ${r.dir}`.padEnd(58)} silent ${String(r.silent.length).padStart(3)}  false ${String(r.falseAlarm.length).padStart(3)}  calm-held ${String(r.calmHeld.length).padStart(3)}  under ${String(r.underRated.length).padStart(3)}  (of ${r.pairs})`,
    );
  if (opts.examples) {
    out.push('', 'examples (the smallest of each kind in each failing row):');
    for (const r of failing) {
      for (const [kind, ids] of [
        ['silent pass', r.silent],
        ['false alarm', r.falseAlarm],
        ['calm held', r.calmHeld],
        ['under-rated', r.underRated],
      ] as const) {
        if (!ids.length) continue;
        const id = smallest(ids, pairs);
        out.push(
          `- ${r.cls} / ${r.side} / ${r.dir}: ${kind} (${ids.length})`,
          ...describePair(pairs[id]!, byId.get(id)!).map((l) => `    ${l}`),
        );
      }
    }
    const misses = s.rows.flatMap((r) => r.searchMisses);
    const contradicted = s.rows.flatMap((r) => r.contradicted);
    if (misses.length || contradicted.length) {
      out.push('', 'search against ground truth:');
      for (const id of [...new Set([...misses.slice(0, 20), ...contradicted.slice(0, 20)])]) {
        const p = pairs[id]!;
        const o = byId.get(id)!;
        out.push(
          `- ${p.cls} / ${p.side} / ${p.dir}: ${o.truthMiss ? `search missed the ${o.truthMiss.join(' and ')} witness` : `search contradicts "${p.truth}" (${o.truthContradicted?.join(', ')})`}`,
          ...describePair(p, o).map((l) => `    ${l}`),
        );
      }
    }
  }
  return out.join('\n');
}
