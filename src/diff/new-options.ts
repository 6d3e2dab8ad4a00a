import type { SchemaWork } from '../contract/schema-work.js';
import type { ContractTool } from '../contract/types.js';
import type { Change } from '../findings/types.js';
import { toolChange } from './change.js';
import { inputPlaces, type InputPlace } from './input-places.js';

/**
 * What a caller can newly ask an existing tool to do that a person should read before it ships
 * (docs/verdicts.md, "New options that destroy, expose or lift a guard"). A model calls a tool with
 * any value its schema offers; clients that confirm destructive tools ask once per tool, not per
 * value. So a tool that was approved for what it did can gain an operation nobody approved:
 *
 * - **a destructive or exposing option**: a value of a list (`action` gains `delete_backup`), or a
 *   new boolean switch (`public`, `forceDelete`), whose name says it deletes, drops, purges,
 *   destroys, wipes, erases, clears, truncates or overwrites, or makes something public or
 *   exposed; on a tool that is not read-only (a read-only tool's hint says it changes nothing);
 * - **a guard the caller lifts**: a new argument whose own description (or a sentence of the tool's
 *   that names it) says it bypasses a check or a hook, allows what is dangerous or unsafe, skips a
 *   confirmation, or disables a safety measure. The model that is refused can set it itself.
 */
const DESTROYS = new Set(['delete', 'drop', 'purge', 'destroy', 'wipe', 'erase', 'clear', 'truncate', 'overwrite', 'shred', 'nuke']);
const EXPOSES = new Set(['public', 'publicly', 'expose', 'exposed', 'unauthenticated', 'anonymous', 'unrestricted']);

/** "deletes", "deleted", "deleting", "deletion" → "delet": a word and its forms alike. */
const stem = (word: string) => word.replace(/(?:ion|ing|ed|es|s)$/, '').replace(/e$/, '');

/** `delete_backup`, `deleteBranch`, `make-public`, `publiclyAccessible` → their words, lower case, stemmed. */
const wordsOf = (name: string): string[] =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean)
    .map(stem);

const DESTROY_STEMS = new Set([...DESTROYS].map(stem));
const EXPOSE_STEMS = new Set([...EXPOSES].map(stem));

function says(name: string): 'destroys' | 'exposes' | null {
  const words = wordsOf(name);
  if (words.some((w) => DESTROY_STEMS.has(w))) return 'destroys';
  if (words.some((w) => EXPOSE_STEMS.has(w))) return 'exposes';
  return null;
}

type Places = Map<string, InputPlace>;

const spelling = (name: string) => wordsOf(name).join(' ');

/**
 * The options a tool offers anywhere in its input: every listed value and every boolean switch,
 * by their words. An option the tool offered under another argument (`mode` renamed `operation`,
 * both listing `delete`) is no new operation.
 */
function offered(places: Places): Set<string> {
  const names = new Set<string>();
  for (const place of places.values()) {
    for (const value of place.values) names.add(spelling(value));
    if (place.name && place.types.has('boolean')) names.add(spelling(place.name));
  }
  return names;
}

/** New list values and new boolean switches whose names say they destroy or expose. */
function destructiveOptions(after: ContractTool, was: Places, now: Places): Change[] {
  if (after.effectiveAnnotations.readOnlyHint) return [];
  const known = offered(was);
  const out: Change[] = [];
  const add = (place: InputPlace, option: string) => {
    const kind = known.has(spelling(option)) ? null : says(option);
    if (kind) out.push(toolChange('input-destructive-option-added', after.name, place.at, null, option, `The name says it ${kind}.`));
  };
  for (const [key, place] of now) {
    for (const value of place.values) if (!was.get(key)?.values.has(value)) add(place, value);
    if (!was.has(key) && place.name && place.types.has('boolean')) add(place, place.name);
  }
  return out;
}

const LIFTS =
  /\b(?:bypass(?:es|ing)?|skip(?:s|ping)?|disabl(?:e|es|ing)|turn(?:s|ing)? off|overrid(?:e|es|ing)|ignor(?:e|es|ing))\s+(?:(?:the|a|an|any|all|its|this)\s+)?(?:[\w-]+\s+){0,4}(?:checks?|hooks?|validation|confirmations?|verification|safety|security|sandbox(?:ing)?|guards?|guardrails?|protections?|approvals?|restrictions?|prompts?)\b|\ballow(?:s|ing)?\s+(?:[\w-]+\s+){0,2}(?:dangerous|unsafe|insecure|destructive)\b|\b(?:reduce|weaken|lower)s?\s+(?:the\s+)?security\b|\bwithout\s+(?:asking\s+for\s+|any\s+)?(?:(?:human|user|manual)\s+)?(?:confirmation|approval|interaction|intervention|review)\b|\bauto(?:matically|-)?\s?approv(?:e|es|ed|ing|al)\b/i;

/** A sentence of the text that lifts a guard, clipped; for the tool's own text, only one that names the argument. */
function lifting(place: InputPlace, toolText: string): string | null {
  const sentences = (text: string) => text.split(/(?<=[.!?])\s+|\n+/);
  const own = place.descriptions.flatMap(sentences).find((s) => LIFTS.test(s));
  const named = own ?? (place.name ? sentences(toolText).find((s) => s.includes(place.name) && LIFTS.test(s)) : undefined);
  if (!named) return null;
  const text = named.trim().replace(/\s+/g, ' ');
  return text.length > 100 ? `${text.slice(0, 97)}...` : text;
}

/** New arguments whose text says the caller lifts a guard with them. */
function safetyOverrides(after: ContractTool, was: Places, now: Places): Change[] {
  const out: Change[] = [];
  for (const [key, place] of now) {
    if (was.has(key) || !place.name) continue;
    const sentence = lifting(place, after.description ?? '');
    if (sentence) out.push(toolChange('input-safety-override-added', after.name, place.at, null, place.name, `"${sentence}"`));
  }
  return out;
}

/** Both rules on a tool that changed; its input schema is read once a side. */
export function newOptions(before: ContractTool, after: ContractTool, work?: SchemaWork): Change[] {
  // An input schema served the same offers nothing new (a new argument's text is read only with it).
  if (JSON.stringify(before.inputSchema) === JSON.stringify(after.inputSchema)) return [];
  const [was, now] = [inputPlaces(before.inputSchema, work), inputPlaces(after.inputSchema, work)];
  return [...destructiveOptions(after, was, now), ...safetyOverrides(after, was, now)];
}
