import type { Contract, ContractTool } from '../contract/types.js';
import { finding } from '../findings/finding.js';
import { onTool } from '../findings/subject.js';
import type { Finding, Side } from '../findings/types.js';
import { literal } from '../base/safe-regex.js';

/**
 * Tools a model cannot tell apart from what it is told (the write-ups: "the description is what
 * disambiguates list_bugs from get_bug when both are plausible candidates"). The rule:
 *
 * - both tools are about the same thing: their names have the same words once the action verbs are
 *   set aside (`list_bugs`, `get_bug`, `search_bugs`), and both read or both write the same way;
 * - their descriptions say mostly the same beyond the names: content words (stop words and the two
 *   names' words dropped, plurals folded) overlap by at least half of all of them (Jaccard);
 * - neither description names the other tool, or sends the model to it by its verb ("choose the
 *   corresponding list tool when…"): that sentence is the fix.
 *
 * Measured on the recorded releases (docs/writeups-lessons.md, row 21): a heuristic, reported only.
 */
const CLOSE = 0.5;
/** Fewer words than this beyond the name is a weak description (`description-weak`), not a look-alike. */
const MIN_WORDS = 3;
/** Groups reported per side, and words shown per group: the rest is the same story. */
const MAX_GROUPS = 10;
const MAX_SHARED = 8;
/** Tools read: past this many, a server's list is already too long to choose from well. */
const MAX_TOOLS = 500;

const READ = new Set('get list search find fetch query read describe retrieve view show lookup browse count inspect'.split(' '));
const WRITE = new Set(
  'create add update delete remove set put post patch write edit insert upsert move copy rename upload send assign merge close open run execute approve publish archive restore cancel start stop drop'.split(
    ' ',
  ),
);
const STOP = new Set(
  `a an the and or but if then else of to in on at by for with from into onto over under about as is are was were be been being it its this that these those there their them they you your we our us i me my not no nor do does did done can could should would will shall may might must have has had having so such than too very just only also any all each every some more most other which who whom whose what when where why how whether while via per up down out off again further once here both few own same`.split(
    /\s+/,
  ),
);

/** Lower-case words, plurals folded; a number is a word of a name (`list_v2`), not of prose ("400: Bad request"). */
const words = (text: string, numbers = false) =>
  text
    .slice(0, 4000)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w && (numbers || !/^\d+$/.test(w)))
    .map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));

interface Reading {
  name: string;
  description: string;
  nameWords: Set<string>;
  verbs: string[];
  /** The name's words beside its verbs: what the tool is about. */
  about: string;
  writes: boolean;
  content: Set<string>;
}

function read(t: ContractTool): Reading | null {
  if (!t.description) return null;
  const nameWords = words(t.name, true);
  // The verb leads the name, or follows a prefix (`kubectl_get`); a write may trail it (`work_item_write`).
  // Elsewhere a verb's word is a noun: `list_posts`, `get_merge_request`.
  const lead = nameWords.slice(0, 2).findIndex((w) => READ.has(w) || WRITE.has(w));
  const last = nameWords.length - 1;
  const tail = last > lead + 1 && WRITE.has(nameWords[last]!) ? last : -1;
  const verbs = [lead, tail].filter((i) => i >= 0).map((i) => nameWords[i]!);
  const about = [...new Set(nameWords.filter((_, i) => i !== lead && i !== tail))].sort().join(' ');
  if (!about) return null;
  const content = new Set(words(t.description).filter((w) => !STOP.has(w)));
  return {
    name: t.name,
    description: t.description,
    nameWords: new Set(nameWords),
    verbs,
    about,
    writes: verbs.some((v) => WRITE.has(v)),
    content,
  };
}

/** The description names `other` ("use search_bugs", "search bugs"), or sends the model to it by its verb. */
function pointsTo(description: string, other: Reading): boolean {
  const forms = [other.name, other.name.replace(/[_-]+/g, ' ')].map(literal).join('|');
  if (new RegExp(`(?<![\\w-])(?:${forms})(?![\\w-])`, 'i').test(description)) return true;
  return other.verbs.some((v) =>
    new RegExp(`\\b(?:use|choose|call|prefer|try)\\b[^.]{0,60}\\b${v}\\b[^.]{0,30}\\btools?\\b`, 'i').test(description),
  );
}

/** What two descriptions share beyond the two names, or null when they are not close. */
function shared(a: Reading, b: Reading, common: Set<string>): string[] | null {
  const beyond = (r: Reading) => [...r.content].filter((w) => !a.nameWords.has(w) && !b.nameWords.has(w) && !common.has(w));
  const wa = beyond(a);
  const wb = new Set(beyond(b));
  if (wa.length < MIN_WORDS || wb.size < MIN_WORDS) return null;
  const both = wa.filter((w) => wb.has(w));
  return both.length / (wa.length + wb.size - both.length) >= CLOSE ? both : null;
}

/**
 * Words in more than half of the descriptions (the product's name, "Error Responses"): they tell no
 * tool apart. Among fewer than ten tools such a word is as likely the domain itself, and is kept.
 */
function boilerplate(readings: Reading[]): Set<string> {
  const common = new Set<string>();
  if (readings.length < 10) return common;
  const seen = new Map<string, number>();
  for (const r of readings) for (const w of r.content) seen.set(w, (seen.get(w) ?? 0) + 1);
  for (const [w, n] of seen) if (n > readings.length / 2) common.add(w);
  return common;
}

/** One finding per thing the tools are about, naming every tool of it that another is close to, in name order. */
export function confusableDescriptions(contract: Contract, side: Side): Finding[] {
  const byAbout = new Map<string, Reading[]>();
  for (const t of contract.tools.slice(0, MAX_TOOLS)) {
    const r = read(t);
    if (r) byAbout.set(r.about, [...(byAbout.get(r.about) ?? []), r]);
  }
  const common = boilerplate([...byAbout.values()].flat());
  const found: { names: string[]; shared: string[] }[] = [];
  for (const same of byAbout.values()) {
    const names = new Set<string>();
    const alike = new Set<string>();
    for (const [i, a] of same.entries()) {
      for (const b of same.slice(i + 1)) {
        if (a.writes !== b.writes || (a.writes && a.verbs.join() !== b.verbs.join())) continue;
        const both = shared(a, b, common);
        if (!both || pointsTo(a.description, b) || pointsTo(b.description, a)) continue;
        names.add(a.name).add(b.name);
        for (const w of both) alike.add(w);
      }
    }
    if (names.size) found.push({ names: [...names].sort(), shared: [...alike].sort().slice(0, MAX_SHARED) });
  }
  return found
    .sort((a, b) => (a.names[0]! < b.names[0]! ? -1 : 1))
    .slice(0, MAX_GROUPS)
    .map((facts) => finding('confusable-descriptions', facts, { side, subject: onTool(facts.names[0]!) }));
}
