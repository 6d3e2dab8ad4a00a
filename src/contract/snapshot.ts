import { InputError } from '../base/problems.js';
import { parseSource, readSource } from '../input/source.js';
import { GATE_NAME, GATE_VERSION } from '../base/version.js';
import { sortKeys } from './canonical.js';
import { buildContract } from './normalize.js';
import { buildFeatures, type RawFeatures } from './features.js';
import { snapshotSource } from './places.js';
import type { Contract, ContractTool, Features } from './types.js';

const SNAPSHOT_KIND = 'mcp-gate/contract';

/** The raw tool object, rebuilt from the normalised one (unknown fields included). */
const rawTool = (t: ContractTool): Record<string, unknown> => ({
  ...t.extra,
  name: t.name,
  ...(t.title !== null && t.title !== (t.annotations?.title ?? null) ? { title: t.title } : {}),
  ...(t.description !== null ? { description: t.description } : {}),
  ...(t.inputSchema !== null ? { inputSchema: t.inputSchema } : {}),
  ...(t.outputSchema !== null ? { outputSchema: t.outputSchema } : {}),
  ...(t.annotations !== null ? { annotations: t.annotations } : {}),
});

/** The features beside the tools as the lists gave them (hashes and derived fields are computed again on reading). */
const rawFeatures = (features: Features): RawFeatures => {
  const strip = <T extends { hash: string }>(items: T[] | null) => items?.map(({ hash: _hash, ...item }) => item) ?? null;
  return {
    capabilities: features.capabilities,
    prompts: strip(features.prompts),
    resources: strip(features.resources),
    resourceTemplates: features.resourceTemplates?.map(({ hash: _hash, variables: _variables, ...item }) => item) ?? null,
  };
};

/**
 * A versioned, deterministic contract snapshot: sorted keys, tools sorted by name, and no
 * timestamps or durations, so the same server always gives the same bytes.
 */
export function toSnapshot(contract: Contract): string {
  const snapshot = {
    kind: SNAPSHOT_KIND,
    schemaVersion: 1,
    generatedBy: { name: GATE_NAME, version: GATE_VERSION },
    server: contract.server,
    contractHash: contract.hash,
    tools: contract.tools.map(rawTool),
    ...(contract.features && { features: rawFeatures(contract.features) }),
  };
  return `${JSON.stringify(sortKeys(snapshot), null, 2)}\n`;
}

/**
 * A snapshot file; `text` when it was read already (from a git ref), so `file` is only its name.
 * A file read from the working tree records where it writes each tool and feature (`source`); one
 * read from a ref does not, as its lines need not be the working tree's.
 */
export function readSnapshot(file: string, display: string, text?: string): Contract {
  const parsed =
    text === undefined ? readSource(file, display, { jsonFastPath: true }) : parseSource(text, display, { jsonFastPath: true });
  if (!parsed.ok) throw new InputError(parsed.problems);
  const value = parsed.source.value as Record<string, unknown> | null;
  const problem = (path: string, message: string) =>
    new InputError([{ file: display, line: parsed.source.lineOf(path ? [path] : []), path, message }]);
  if (!value || typeof value !== 'object')
    throw problem('', `is not a contract snapshot (expected an object with kind "${SNAPSHOT_KIND}")`);
  if (value.kind !== SNAPSHOT_KIND) throw problem('kind', `must be "${SNAPSHOT_KIND}"; write snapshots with \`mcp-gate snapshot\``);
  if (value.schemaVersion !== 1)
    throw problem('schemaVersion', `is ${JSON.stringify(value.schemaVersion)}; this mcp-gate reads snapshot schemaVersion 1`);
  if (!Array.isArray(value.tools)) throw problem('tools', 'must be an array of tool objects');
  const server = (value.server ?? {}) as Contract['server'];
  if (server.era !== undefined && server.era !== null && server.era !== 'modern' && server.era !== 'legacy')
    throw problem('server.era', `is ${JSON.stringify(server.era)}; expected "modern", "legacy" or null`);
  const contract = buildContract(
    {
      name: server.name ?? null,
      version: server.version ?? null,
      protocolVersion: server.protocolVersion ?? null,
      instructions: server.instructions ?? null,
      // A snapshot written before the gate spoke both eras has none: absent, not guessed.
      ...(server.era && { era: server.era }),
    },
    value.tools,
    { pages: 0, durationMs: 0, errors: [] },
  );
  const source = text === undefined ? { source: snapshotSource(display, value, parsed.source.lineOf) } : {};
  // A snapshot written before mcp-gate read more than tools has no features: it stays unknown, never empty.
  if (value.features === undefined) return { ...contract, ...source };
  if (!value.features || typeof value.features !== 'object')
    throw problem('features', 'must be an object (capabilities, prompts, resources, resourceTemplates)');
  const raw = value.features as Record<string, unknown>;
  const list = (key: string): unknown[] | null => (Array.isArray(raw[key]) ? (raw[key] as unknown[]) : null);
  const features = buildFeatures(
    {
      capabilities: raw.capabilities,
      prompts: list('prompts'),
      resources: list('resources'),
      resourceTemplates: list('resourceTemplates'),
    },
    contract.discovery.errors,
  );
  return { ...contract, features, ...source };
}
