import { hash } from 'node:crypto';
import { canonicalHash } from './canonical.js';
import { metaMarked } from './deprecation.js';
import type { ContractPrompt, ContractResource, ContractResourceTemplate, DiscoveryProblem, PromptArgument, Features } from './types.js';
import { isObject } from '../base/json-object.js';

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const byKey =
  <T>(key: (item: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

/** The raw lists of one side, as discovery read them: null for a list that could not be read. */
export interface RawFeatures {
  capabilities: unknown;
  prompts: unknown[] | null;
  resources: unknown[] | null;
  resourceTemplates: unknown[] | null;
}

/**
 * Raw `prompts/list`, `resources/list` and `resources/templates/list` entries and the `initialize`
 * capabilities -> a Features. Lenient like the tools: an entry that cannot be named is left out with
 * a problem, a repeated one is kept once with a problem. Only the fields the gate compares are kept
 * (and hashed), so an entry's depth is bounded whatever the server sends.
 */
export function buildFeatures(raw: RawFeatures, problems: DiscoveryProblem[]): Features {
  const capabilities = boundedCapabilities(raw.capabilities);
  const prompts = raw.prompts && keyed(raw.prompts, 'prompts', 'name', normalizePrompt, problems).sort(byKey((p) => p.name));
  const resources = raw.resources && keyed(raw.resources, 'resources', 'uri', normalizeResource, problems).sort(byKey((r) => r.uri));
  const resourceTemplates =
    raw.resourceTemplates &&
    keyed(raw.resourceTemplates, 'resourceTemplates', 'uriTemplate', normalizeTemplate, problems).sort(byKey((t) => t.uriTemplate));
  const hashes = (items: { hash: string }[] | null) => items?.map((i) => i.hash) ?? null;
  return {
    capabilities,
    prompts,
    resources,
    resourceTemplates,
    hash: canonicalHash([capabilities, hashes(prompts), hashes(resources), hashes(resourceTemplates)]),
  };
}

/** The most characters of one text of a prompt, resource or template that the gate keeps. */
export const FEATURE_TEXT_MAX = 16 * 1024;
const MAX_ARGUMENTS = 256;

/**
 * A text past FEATURE_TEXT_MAX, cut there and marked with its length and a digest of the whole,
 * so a change past the cut still changes the text. The kept part is a copy: a slice would hold
 * the whole page's string in memory.
 */
function boundedText(value: unknown): unknown {
  if (typeof value !== 'string' || value.length <= FEATURE_TEXT_MAX) return value;
  const digest = hash('sha256', value, 'hex').slice(0, 16);
  const kept = Buffer.from(value.slice(0, FEATURE_TEXT_MAX), 'utf8').toString('utf8');
  return `${kept}… [cut: ${value.length} characters in all, sha256 ${digest}]`;
}

/**
 * One raw entry of prompts/list, resources/list or resources/templates/list as discovery keeps it,
 * as each page arrives (docs/security.md, "Memory is bounded"): the fields the gate compares, each
 * text bounded, so what a server lists costs memory by the entry, not by the bytes it sent.
 */
export function slimFeatureEntry(raw: unknown): unknown {
  if (!isObject(raw)) return raw;
  const out: Record<string, unknown> = {};
  for (const key of ['name', 'uri', 'uriTemplate', 'title', 'description', 'mimeType']) if (key in raw) out[key] = boundedText(raw[key]);
  // Of `_meta`, only a deprecation mark is kept (contract/deprecation.ts): the rest is unbounded and unread.
  if (metaMarked(raw._meta)) out._meta = { deprecated: true };
  if (Array.isArray(raw.arguments)) {
    out.arguments = raw.arguments
      .slice(0, MAX_ARGUMENTS)
      .map((a) => (isObject(a) ? { name: boundedText(a.name), description: boundedText(a.description), required: a.required } : a));
  }
  return out;
}

/** Entries with a non-empty string key, each key once, in the order listed. */
function keyed<T>(
  items: unknown[],
  list: string,
  key: string,
  normalize: (raw: Record<string, unknown>) => T,
  problems: DiscoveryProblem[],
): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  items.forEach((raw, at) => {
    const id = isObject(raw) ? raw[key] : undefined;
    if (!isObject(raw) || typeof id !== 'string' || id === '') {
      problems.push({ tool: null, message: `${list}[${at}] has no string "${key}"; it was left out of the contract.` });
    } else if (seen.has(id)) {
      problems.push({ tool: null, message: `${list}: ${JSON.stringify(id.slice(0, 200))} is listed more than once; the first is used.` });
    } else {
      seen.add(id);
      out.push(normalize(raw));
    }
  });
  return out;
}

function normalizePrompt(raw: Record<string, unknown>): ContractPrompt {
  const args: PromptArgument[] = (Array.isArray(raw.arguments) ? raw.arguments : [])
    .filter((a): a is Record<string, unknown> => isObject(a) && typeof a.name === 'string')
    .map((a) => ({ name: a.name as string, description: text(a.description), required: a.required === true }));
  const prompt = {
    name: raw.name as string,
    title: text(raw.title),
    description: text(raw.description),
    arguments: args,
    // Only when marked, so an unmarked prompt hashes as it did before the mark was read.
    ...(metaMarked(raw._meta) && { deprecated: true as const }),
  };
  return { ...prompt, hash: canonicalHash(prompt) };
}

function normalizeResource(raw: Record<string, unknown>): ContractResource {
  const resource = {
    uri: raw.uri as string,
    name: text(raw.name),
    title: text(raw.title),
    description: text(raw.description),
    mimeType: text(raw.mimeType),
  };
  return { ...resource, hash: canonicalHash(resource) };
}

function normalizeTemplate(raw: Record<string, unknown>): ContractResourceTemplate {
  const uriTemplate = raw.uriTemplate as string;
  const template = {
    uriTemplate,
    name: text(raw.name),
    title: text(raw.title),
    description: text(raw.description),
    mimeType: text(raw.mimeType),
    variables: templateVariables(uriTemplate),
  };
  return { ...template, hash: canonicalHash(template) };
}

/**
 * The variable names of an RFC 6570 URI template: `{id}`, `{+path}`, `{?q,page}`, `{/segments*}`,
 * `{name:3}` give id, path, q, page, segments, name. Sorted and unique.
 */
export function templateVariables(template: string): string[] {
  const names = new Set<string>();
  for (const [, expression] of template.matchAll(/\{([^{}]*)\}/g)) {
    for (const spec of expression!.replace(/^[+#./;?&=,!@|]/, '').split(',')) {
      const name = spec.replace(/\*$/, '').replace(/:\d+$/, '').trim();
      if (name) names.add(name);
    }
  }
  return [...names].sort();
}

/**
 * The capabilities two levels deep (`resources.subscribe`, `tools.listChanged`, `logging`): what a
 * client negotiates on. Deeper values (`experimental` payloads) are kept as `true`, so a server
 * cannot make the comparison, the hash or the report walk a value of any depth.
 */
function boundedCapabilities(raw: unknown): Record<string, unknown> {
  if (!isObject(raw)) return {};
  const leaf = (value: unknown): unknown => (value !== null && typeof value === 'object' ? true : value);
  return Object.fromEntries(
    Object.entries(raw).map(([name, value]) => [
      name,
      isObject(value) ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, leaf(inner)])) : leaf(value),
    ]),
  );
}
