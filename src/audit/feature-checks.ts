import type { Contract } from '../contract/types.js';
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
  const add = (code: Finding['code'], one: string, many: string, keys: string[]) => {
    if (!keys.length) return;
    const shown = keys
      .slice(0, 10)
      .map((k) => JSON.stringify(k))
      .join(', ');
    const more = keys.length > 10 ? ` and ${keys.length - 10} more` : '';
    findings.push({
      code,
      severity: 'safe',
      side,
      tool: null,
      message: `${keys.length} ${keys.length === 1 ? one : many} without a description: ${shown}${more}.`,
    });
  };
  add(
    'prompt-description-missing',
    'prompt',
    'prompts',
    undescribed(features.prompts, (p) => p.name),
  );
  const resources = [...undescribed(features.resources, (r) => r.uri), ...undescribed(features.resourceTemplates, (t) => t.uriTemplate)];
  add('resource-description-missing', 'resource or template', 'resources and templates', resources);
  return findings;
}
