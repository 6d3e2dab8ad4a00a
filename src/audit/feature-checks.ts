import type { Contract } from '../contract/types.js';
import { finding } from '../findings/finding.js';
import type { Finding, Side } from '../findings/types.js';

/** The server's instructions as the model's context receives them, estimated in tokens (bytes / 4, as for tools). */
export const instructionsTokens = (contract: Contract): number =>
  Math.ceil(Buffer.byteLength(contract.server.instructions ?? '', 'utf8') / 4);

const undescribed = <T extends { description: string | null }>(items: T[] | null, key: (item: T) => string): string[] =>
  (items ?? []).filter((item) => !item.description?.trim()).map(key);

/**
 * Prompts, resources and resource templates without a description: a client shows their names
 * alone to the user or the model, who must guess what each one is for. One finding per kind,
 * naming at most ten, so a server with a hundred bare resources is one line.
 */
export function auditFeatures(contract: Contract, side: Side): Finding[] {
  const features = contract.features;
  if (!features) return [];
  const findings: Finding[] = [];
  const prompts = undescribed(features.prompts, (p) => p.name);
  if (prompts.length) findings.push(finding('prompt-description-missing', { names: prompts }, { side }));
  const resources = [...undescribed(features.resources, (r) => r.uri), ...undescribed(features.resourceTemplates, (t) => t.uriTemplate)];
  if (resources.length) findings.push(finding('resource-description-missing', { names: resources }, { side }));
  return findings;
}
