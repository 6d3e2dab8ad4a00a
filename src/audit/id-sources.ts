import { isObject } from '../base/json-object.js';
import { listedMentionsIn } from '../contract/mentions.js';
import type { Contract, ContractTool } from '../contract/types.js';
import { finding } from '../findings/finding.js';
import { onTool } from '../findings/subject.js';
import type { Finding, Side } from '../findings/types.js';

/**
 * The rule (the write-ups: "IDs are opaque and must come from a prior tool call. Never invent them",
 * then a map from each id to the tools that return it): a model holds no ids of its own. An argument
 * that takes one works only when the model called the tool that returns it first, and nothing in a
 * schema says which tool that is. So someone must say it: the argument's description, the tool's
 * description, or a sentence of the instructions that names the argument. An id argument none of
 * them gives a listed tool for leaves the model to guess a tool, or to make the id up.
 */

/** Arguments named as ids are: `id`, `post_id`, `tag_ids`, `boardId`, `userIDs`. */
const ID_NAME = /^(?:id|ids|ID|IDs)$|_(?:id|ids|ID|IDs)$|[a-z0-9](?:Id|Ids|ID|IDs)$/;

const ID_TYPES = new Set(['string', 'integer', 'number']);
/** A string or a number, or an array of them (maybe nullable, maybe in anyOf branches); never a closed list. */
function takesIds(p: unknown): boolean {
  if (!isObject(p) || 'enum' in p || 'const' in p) return false;
  const types = Array.isArray(p.type) ? p.type : [p.type];
  if (types.some((t) => typeof t === 'string' && ID_TYPES.has(t))) return true;
  if (types.includes('array')) return takesIds(p.items);
  return [p.anyOf, p.oneOf].some((branches) => Array.isArray(branches) && branches.some(takesIds));
}

/** How the instructions name an argument: `board_id`, `boardId`, "board id", "Board IDs". */
function spoken(argument: string): RegExp {
  const words = argument
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter((w) => w && !/^ids?$/i.test(w))
    .map((w) => w.replace(/[^A-Za-z0-9]/g, ''));
  return new RegExp(`\\b${[...words, ''].join('[\\s_-]*')}ids?\\b`, 'i');
}

/** Arguments named in one finding; the rest are counted. */
const MAX_SHOWN = 8;

/**
 * One finding per tool, listing its id arguments whose source is named nowhere. The argument's own
 * description may name the tool itself (a thread or a session id its earlier call handed back); the
 * tool's description and the instructions must name another.
 */
export function unsourcedIds(contract: Contract, side: Side): Finding[] {
  const sentences = (contract.server.instructions ?? '')
    .slice(0, 20_000)
    .split(/(?<=[.!?;])\s+|\n+/)
    .map((text) => ({ text, tools: listedMentionsIn(text, contract) }))
    .filter((s) => s.tools.size);
  const others = (text: string | null | undefined, self: string) => [...listedMentionsIn(text ?? '', contract)].some((t) => t !== self);
  const findings: Finding[] = [];
  for (const t of contract.tools) {
    const properties = isObject(t.inputSchema?.properties) ? t.inputSchema.properties : {};
    const ids = Object.entries(properties).filter(([name, p]) => ID_NAME.test(name) && takesIds(p));
    if (!ids.length || others(t.description, t.name)) continue;
    const parameters = ids
      .filter(([name, p]) => !listedMentionsIn(describedAs(p), contract).size && !inInstructions(name, t, sentences))
      .map(([name]) => name);
    if (parameters.length)
      findings.push(
        finding(
          'id-source-missing',
          { tool: t.name, parameters: parameters.slice(0, MAX_SHOWN), more: parameters.length - Math.min(parameters.length, MAX_SHOWN) },
          { side, subject: onTool(t.name, 'inputSchema', 'properties') },
        ),
      );
  }
  return findings;
}

const describedAs = (p: unknown): string => (isObject(p) && typeof p.description === 'string' ? p.description : '');

function inInstructions(argument: string, t: ContractTool, sentences: { text: string; tools: Set<string> }[]): boolean {
  const named = spoken(argument);
  return sentences.some((s) => named.test(s.text) && [...s.tools].some((name) => name !== t.name));
}
