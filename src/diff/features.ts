import { canonicalJson } from '../contract/canonical.js';
import type { ContractPrompt, ContractResource, ContractResourceTemplate, DiscoveryProblem, Features } from '../contract/types.js';
import type { Change } from '../findings/types.js';
import { resourceCatalogue } from '../base/resource-catalogue.js';
import { change } from './change.js';
import { words } from './lookup-name.js';
import { likelySuccessor } from './tools.js';

/**
 * What changed beside the tools: the capabilities, the prompts, the resource templates and the
 * static resources. A list that either side could not read (null) is not compared: unknown is not
 * "removed". Changes here name no tool; their subject says which prompt, resource or capability.
 */
export function diffFeatures(before: Features, after: Features, problemsBefore: DiscoveryProblem[] = []): Change[] {
  return [
    ...diffCapabilities(before.capabilities, after.capabilities, unserved(before, problemsBefore)),
    ...(before.prompts && after.prompts ? diffPrompts(before.prompts, after.prompts) : []),
    ...(before.resourceTemplates && after.resourceTemplates ? diffTemplates(before.resourceTemplates, after.resourceTemplates) : []),
    ...(before.resources && after.resources ? diffResources(before.resources, after.resources) : []),
  ];
}

/** Capabilities as dotted names: `logging`, `resources`, `resources.subscribe` (a sub-capability counts when set). */
function capabilityNames(capabilities: Record<string, unknown>): Set<string> {
  const names = new Set<string>();
  for (const [name, value] of Object.entries(capabilities)) {
    if (value === undefined || value === null || value === false) continue;
    names.add(name);
    if (value && typeof value === 'object') {
      for (const [sub, flag] of Object.entries(value))
        if (flag !== undefined && flag !== null && flag !== false) names.add(`${name}.${sub}`);
    }
  }
  return names;
}

/** JSON-RPC "Method not found": the server has no handler for the method at all. */
const METHOD_NOT_FOUND = -32601;

/**
 * The capabilities the baseline declared whose every list answered "Method not found": `prompts`
 * without `prompts/list`, `resources` without `resources/list` and `resources/templates/list`. No
 * client read anything through them, so no call that worked is lost with them. A list that failed
 * otherwise (a timeout, an internal error, a refused key) may serve elsewhere, and proves nothing.
 */
function unserved(features: Features, problems: DiscoveryProblem[]): Set<string> {
  const notFound = (method: string) => problems.some((p) => p.method === method && p.code === METHOD_NOT_FOUND);
  const out = new Set<string>();
  if (features.prompts === null && notFound('prompts/list')) out.add('prompts');
  if (
    features.resources === null &&
    features.resourceTemplates === null &&
    notFound('resources/list') &&
    notFound('resources/templates/list')
  )
    out.add('resources');
  return out;
}

function diffCapabilities(before: Record<string, unknown>, after: Record<string, unknown>, unservedBefore: Set<string>): Change[] {
  const was = capabilityNames(before);
  const now = capabilityNames(after);
  const at = (name: string) => ({ kind: 'capability', capability: name.split('.') }) as const;
  // A sub-capability is news only under a capability both sides declare: a new `resources` is one addition.
  const counted = (name: string) => !name.includes('.') || (was.has(name.split('.')[0]!) && now.has(name.split('.')[0]!));
  const removed = (name: string) => (unservedBefore.has(name) ? 'capability-removed-unserved' : 'capability-removed');
  return [
    ...[...was].filter((n) => !now.has(n) && counted(n)).map((n) => change(removed(n), at(n), true, null)),
    ...[...now].filter((n) => !was.has(n) && counted(n)).map((n) => change('capability-added', at(n), null, true)),
  ];
}

/** A prompt's arguments, the way a client calls it: names and whether each is required. */
const signature = (p: ContractPrompt) => canonicalJson(p.arguments.map((a) => [a.name, a.required]).sort());
const sameWords = (a: string, b: string) => canonicalJson([...words(a)].sort()) === canonicalJson([...words(b)].sort());

function diffPrompts(before: ContractPrompt[], after: ContractPrompt[]): Change[] {
  const afterByName = new Map(after.map((p) => [p.name, p]));
  const beforeNames = new Set(before.map((p) => p.name));
  const removed = before.filter((p) => !afterByName.has(p.name));
  const added = after.filter((p) => !beforeNames.has(p.name));
  const claimed = new Set<ContractPrompt>();
  const out: Change[] = [];
  for (const gone of removed) {
    const open = added.filter((p) => !claimed.has(p));
    // `simple_prompt` -> `simple-prompt`: the same words; otherwise the same arguments, as for tools.
    const byName = open.filter((p) => sameWords(p.name, gone.name));
    const successor =
      byName.length === 1
        ? byName[0]!
        : likelySuccessor(
            gone,
            open.filter((p) => signature(p) === signature(gone)),
          );
    if (successor) {
      claimed.add(successor);
      out.push(change('prompt-renamed', { kind: 'prompt', prompt: gone.name }, gone.name, successor.name));
      out.push(...diffArguments(gone, successor));
    } else {
      out.push(change('prompt-removed', { kind: 'prompt', prompt: gone.name }, promptSummary(gone), null));
    }
  }
  for (const prompt of added)
    if (!claimed.has(prompt)) out.push(change('prompt-added', { kind: 'prompt', prompt: prompt.name }, null, promptSummary(prompt)));
  for (const prompt of before) {
    const successor = afterByName.get(prompt.name);
    if (successor && successor.hash !== prompt.hash) out.push(...diffArguments(prompt, successor));
  }
  return out;
}

/** Arguments a caller must now pass, or may no longer pass, under the candidate's name of the prompt. */
function diffArguments(before: ContractPrompt, after: ContractPrompt): Change[] {
  const was = new Map(before.arguments.map((a) => [a.name, a]));
  const now = new Map(after.arguments.map((a) => [a.name, a]));
  const at = (name: string) => ({ kind: 'prompt', prompt: after.name, argument: name }) as const;
  const out: Change[] = [];
  for (const [name, argument] of now) {
    if (argument.required && !was.get(name)?.required)
      out.push(change('prompt-argument-required', at(name), was.has(name) ? 'optional' : null, 'required'));
  }
  for (const [name, argument] of was) {
    if (!now.has(name)) out.push(change('prompt-argument-removed', at(name), argument.required ? 'required' : 'optional', null));
  }
  return out;
}

const promptSummary = (p: ContractPrompt) => ({
  name: p.name,
  arguments: p.arguments.map((a) => (a.required ? `${a.name} (required)` : a.name)),
});

/** A template with its variables blanked: `demo://{a}/x` and `demo://{id}/x` address the same thing. */
const templateShape = (t: ContractResourceTemplate) => t.uriTemplate.replace(/\{[^{}]*\}/g, '{}');

function diffTemplates(before: ContractResourceTemplate[], after: ContractResourceTemplate[]): Change[] {
  const afterByUri = new Map(after.map((t) => [t.uriTemplate, t]));
  const beforeUris = new Set(before.map((t) => t.uriTemplate));
  const added = after.filter((t) => !beforeUris.has(t.uriTemplate));
  const claimed = new Set<ContractResourceTemplate>();
  const out: Change[] = [];
  for (const gone of before.filter((t) => !afterByUri.has(t.uriTemplate))) {
    const open = added.filter((t) => !claimed.has(t));
    const sameShape = open.filter((t) => templateShape(t) === templateShape(gone));
    const sameName = gone.name === null ? [] : open.filter((t) => t.name === gone.name);
    const successor = sameShape.length === 1 ? sameShape[0]! : sameName.length === 1 ? sameName[0]! : null;
    const at = { kind: 'template', uriTemplate: gone.uriTemplate } as const;
    if (successor) {
      claimed.add(successor);
      out.push(change('resource-template-variables-changed', at, gone.uriTemplate, successor.uriTemplate));
    } else {
      out.push(change('resource-template-removed', at, gone.uriTemplate, null));
    }
  }
  for (const template of added) {
    if (!claimed.has(template))
      out.push(change('resource-template-added', { kind: 'template', uriTemplate: template.uriTemplate }, null, template.uriTemplate));
  }
  for (const template of before) {
    const successor = afterByUri.get(template.uriTemplate);
    if (successor && successor.mimeType !== template.mimeType) {
      const at = { kind: 'template', uriTemplate: template.uriTemplate, field: 'mimeType' } as const;
      out.push(change('resource-mime-type-changed', at, template.mimeType, successor.mimeType));
    }
  }
  return out;
}

/**
 * Static resources by URI. A host reads `resources/list` afresh to offer what is there, so an
 * entry that leaves a catalogue the candidate still lists entries in (a doc page, a file, a
 * record) is content that moved: `resource-entry-removed`, reported. A resource whose catalogue
 * the candidate no longer lists at all is `resource-removed`, held: a host set up to read it by
 * its URI finds nothing there (docs/verdicts.md, "Resources that come and go").
 */
function diffResources(before: ContractResource[], after: ContractResource[]): Change[] {
  const afterByUri = new Map(after.map((r) => [r.uri, r]));
  const beforeUris = new Set(before.map((r) => r.uri));
  const listedCatalogues = new Set(after.map((r) => resourceCatalogue(r.uri)).filter((c) => c !== null));
  const out: Change[] = [];
  for (const resource of before) {
    const successor = afterByUri.get(resource.uri);
    if (!successor) {
      const catalogue = resourceCatalogue(resource.uri);
      const code = catalogue !== null && listedCatalogues.has(catalogue) ? 'resource-entry-removed' : 'resource-removed';
      out.push(change(code, { kind: 'resource', uri: resource.uri }, resource.uri, null));
    } else if (successor.mimeType !== resource.mimeType) {
      const at = { kind: 'resource', uri: resource.uri, field: 'mimeType' } as const;
      out.push(change('resource-mime-type-changed', at, resource.mimeType, successor.mimeType));
    }
  }
  for (const resource of after)
    if (!beforeUris.has(resource.uri)) out.push(change('resource-added', { kind: 'resource', uri: resource.uri }, null, resource.uri));
  return out;
}
