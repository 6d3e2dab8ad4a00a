/**
 * Whether changed text newly steers the model (docs/verdicts.md, "Text that steers the model").
 * A model reads a description as documentation, and most edits only document: what a tool
 * returns, that a parameter does not exist, the syntax of a query, a limit. Those are reported and
 * not held, whatever words they use ("not", "only", "use … instead"). A description steers when it
 * speaks to the model about its own conduct, and it does so in a few shapes that documentation
 * rarely takes:
 *
 * - **route**: when or whether to call ("whenever", "even when", "start here", "call this first",
 *   "before using", "at the end of the turn", "exactly once", "only use");
 * - **prefer**: a preference ("prefer", "preferably");
 * - **rule**: an absolute rule opening a sentence ("Never …", "Always pass …", "Do not …",
 *   "Avoid …"), or written in capitals as prompts are ("MUST", "NEVER", "IMPORTANT");
 * - **reader**: text that names the model as its reader ("Note for LLMs", "you are an AI");
 * - **address**: text that otherwise speaks to the model about its conduct ("your reasoning",
 *   "you must", "the agent must", "ask the user"); not a need inside a condition ("when you need
 *   to …"), which names what the tool is for.
 *
 * A shape counts when the new text has more of it than the old one, so guidance reworded or moved
 * within the text is not new, and guidance removed is not steering. Server instructions are the
 * model's system prompt, so there any new command counts, and instructions where there were none.
 * Each shape's precision was measured on a reviewer's labels (test/unit/wording-labels.test.ts).
 */
export type SteeringShape = 'route' | 'prefer' | 'rule' | 'reader' | 'address' | 'command' | 'system';

export interface SteeringCue {
  shape: SteeringShape;
  /** The text that carries it, clipped. */
  text: string;
}

/** Where a sentence or a clause opens: a list item, a bold lead, after a dash or a colon. */
const OPENS = String.raw`(?:^|[.!?:;(\u2014\u2013]\s*|\s-\s+|^\s*[-*\u2022]\s*|\*\*\s*)`;
/** "Always returns", "Never expires": an adverb before a verb in the third person is a fact, not a rule. */
const NOT_A_FACT = String.raw`(?!\s+[a-z]+[^s\W]s\b)`;

/**
 * "Use this when you need to inspect state": a need inside a condition says what the tool is for,
 * the situation a description exists to name, and gives the model no order.
 */
const NOT_A_CONDITION = String.raw`(?<!\b(?:when|if|whenever|once|unless|where|in case)\s+)`;

const CUES: [SteeringShape, RegExp][] = [
  [
    'route',
    /\b(?:whenever|even (?:if|when|without|though)|start here|exactly once|only use|must be (?:called|used) first|(?:call|use|run|invoke) (?:[\w.-]+ ){0,2}first|(?:call|use) (?:this|it)(?: tool)? (?:before|whenever|when|for any|only when)|before (?:calling|using|running|reproducing|starting|making|any)|at the end of (?:the|each|every|your) (?:turn|session|conversation|response))\b/gi,
  ],
  ['prefer', /\bprefer(?:s|red|ably)?\b/gi],
  ['rule', new RegExp(String.raw`${OPENS}(?:never|always|do not|don'?t|avoid)\b${NOT_A_FACT}`, 'gim')],
  ['rule', /\b(?:MUST|NEVER|ALWAYS|DO NOT|DON'T|IMPORTANT|CRITICAL)\b/g],
  [
    'reader',
    /\b(?:(?:note|hint|message|instructions?) (?:to|for) (?:the |an? )?(?:llm|ai|agent|model|assistant)s?|(?:written|meant|intended) for (?:the |an? )?(?:llm|ai|agent|model|assistant)s?|you are (?:an?|the) (?:ai|llm|assistant|agent|model)|as an? (?:ai|llm|assistant|language model))\b/gi,
  ],
  [
    'address',
    new RegExp(
      String.raw`\b(?:(?:in )?your (?:job|task|reasoning|role|response|answer|reply)|${NOT_A_CONDITION}(?:you|the (?:agent|assistant|model|llm)) (?:must|should|need to|have to|are required to)|(?:ask|tell|inform|remind|confirm with|check with) the user)\b`,
      'gi',
    ),
  ],
];

/** A command opening a sentence: in the server's instructions, every one is addressed to the model. */
const COMMAND = new RegExp(
  String.raw`${OPENS}(?:use|call|pass|send|include|consult|read|check|ask|invoke|run|reuse|follow|enable|make sure|ensure)\b`,
  'gim',
);

/** "Do not create commit": a parameter's description opens with what it does, in the imperative of CLI help. */
const PARAMETER_OPENING = /^\s*(?:do not|don'?t)\b/i;

/**
 * A line of the instructions that lists one tool and what it does: `- list-projects — List all
 * projects`, `` `read_file`: Read a file ``. Its text is that tool's description, written where the
 * model reads the rest, and is judged as a description is: a verb opening it says what the tool
 * does ("Read details of …"), not what the model must do. The name is one word shaped as tool names
 * are (with `_`, `-`, `.` or `/`, in camelCase, or in backticks), so "Note: use …" stays a command.
 */
const CATALOGUE_LINE =
  /^[ \t]*(?:[-*\u2022][ \t]*)?(?:`[^`\s]+`|[A-Za-z][\w]*[_./-][\w./-]*|[a-z]+[A-Z][\w]*)[ \t]*(?:\u2014|\u2013|:|[ \t]-[ \t]).*$/gm;

const clip = (text: string) => {
  const t = text.trim().replace(/\s+/g, ' ');
  return t.length > 60 ? `${t.slice(0, 57)}...` : t;
};

/** The matches of `pattern` in `after` beyond those in `before`, by count: the first new one is shown. */
function added(pattern: RegExp, before: string, after: string): string | null {
  const was = before.match(pattern)?.length ?? 0;
  const now = [...after.matchAll(pattern)];
  if (now.length <= was) return null;
  const known = new Set((before.match(pattern) ?? []).map((m) => m.trim().toLowerCase()));
  const first = now.find((m) => !known.has(m[0].trim().toLowerCase())) ?? now[0]!;
  // The words after the cue say what it is about: "Prefer using the accessibility…".
  return clip(after.slice(first.index, first.index + first[0].length + 48).replace(/^[^A-Za-z]+/, ''));
}

export type TextKind = 'description' | 'parameter' | 'instructions';

/** The steering the new text adds to the old one, one cue per shape; empty when it only documents. */
export function steeringCues(before: string, after: string, kind: TextKind): SteeringCue[] {
  const strip = (text: string) => (kind === 'parameter' ? text.replace(PARAMETER_OPENING, '') : text);
  const [was, now] = [strip(before), strip(after)];
  const cues: SteeringCue[] = [];
  const add = (shape: SteeringShape, text: string | null) => {
    if (text !== null && !cues.some((c) => c.shape === shape)) cues.push({ shape, text });
  };
  for (const [shape, pattern] of CUES) add(shape, added(pattern, was, now));
  if (kind === 'instructions') {
    if (!was.trim() && now.trim()) add('system', clip(now));
    const commands = (text: string) => text.replace(CATALOGUE_LINE, '');
    add('command', added(COMMAND, commands(was), commands(now)));
  }
  return cues;
}

const SAYS: Record<SteeringShape, string> = {
  route: 'when to call',
  prefer: 'a preference',
  rule: 'an always/never rule',
  reader: 'text addressed to the model',
  address: 'text addressed to the model',
  command: 'a command to the model',
  system: 'instructions where there were none',
};

/** "It newly says when to call ("whenever …") and a preference ("Prefer …")". */
export const steeringSentence = (cues: SteeringCue[]): string =>
  `It newly says ${cues.map((c) => `${SAYS[c.shape]} ("${c.text}")`).join(', ')}`;
