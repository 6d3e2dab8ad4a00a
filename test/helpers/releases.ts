import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFeatures } from '../../src/contract/features.js';
import { buildContract } from '../../src/contract/normalize.js';
import type { Contract } from '../../src/contract/types.js';
import { ROOT } from './cli.js';

/** A tool as a recorded release listed it. */
export type RawTool = Record<string, unknown> & { name: string };

/**
 * Each pair of consecutive recorded versions of a package (test/fixtures/releases), both ways:
 * [older, newer] and [newer, older], as the tools their servers listed.
 */
export function consecutiveReleases(): [before: RawTool[], after: RawTool[]][] {
  const dir = join(ROOT, 'test/fixtures/releases');
  const byPackage = new Map<string, string[]>();
  for (const f of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const pkg = f.slice(0, f.lastIndexOf('@'));
    byPackage.set(pkg, [...(byPackage.get(pkg) ?? []), f]);
  }
  // Each file read once: a recording in two pairs is the same array in both (a caller may key on it).
  const read = new Map<string, RawTool[]>();
  const tools = (f: string) =>
    read.get(f) ?? read.set(f, (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { tools: RawTool[] }).tools).get(f)!;
  const out: [RawTool[], RawTool[]][] = [];
  for (const versions of byPackage.values())
    for (let i = 1; i < versions.length; i++) {
      const [older, newer] = [tools(versions[i - 1]!), tools(versions[i]!)];
      out.push([older, newer], [newer, older]);
    }
  return out;
}

/** What test/fixtures/releases/<package>@<version>.json holds of a release. */
interface Recording {
  serverInfo?: { name?: string; version?: string };
  instructions?: string | null;
  capabilities?: unknown;
  tools: unknown[];
  /** Recorded where the capability is declared, by the recorder since the tenth held-out set (null: the list failed). */
  prompts?: unknown[] | null;
  resources?: unknown[] | null;
  resourceTemplates?: unknown[] | null;
}

/**
 * A recording as the gate reads a live server that listed it: its contract. A recording that holds
 * the prompts or resources its server lists (record.mjs since the tenth held-out set) has them
 * compared too, as a live run compares them; an older one holds tools only, like a snapshot, and
 * nothing beside its tools is compared (diff/index.ts).
 */
export function contractOfRecording(recorded: Recording): Contract {
  const server = {
    name: recorded.serverInfo?.name ?? null,
    version: recorded.serverInfo?.version ?? null,
    protocolVersion: null,
    instructions: recorded.instructions ?? null,
  };
  const contract = buildContract(server, recorded.tools, { pages: 1, durationMs: 0, errors: [] });
  if (!('prompts' in recorded || 'resources' in recorded || 'resourceTemplates' in recorded)) return contract;
  const { prompts = null, resources = null, resourceTemplates = null } = recorded;
  const capabilities = recorded.capabilities ?? {};
  return { ...contract, features: buildFeatures({ capabilities, prompts, resources, resourceTemplates }, []) };
}

/** The contract of one recorded release, by package and version. */
export const recordedContract = (pkg: string, version: string): Contract =>
  contractOfRecording(
    JSON.parse(
      readFileSync(join(ROOT, 'test/fixtures/releases', `${pkg.replace(/^@/, '').replace('/', '__')}@${version}.json`), 'utf8'),
    ) as Recording,
  );

/** A recorded release as the gate reads it, with its package and version. */
export interface RecordedRelease {
  pkg: string;
  version: string;
  contract: Contract;
}

/**
 * Each pair of consecutive recorded versions of a package, oldest first, in semver order (the
 * recordings have no pre-releases): what `mcp-gate run` compares when the newer one ships.
 */
export function recordedPairs(): [before: RecordedRelease, after: RecordedRelease][] {
  const dir = join(ROOT, 'test/fixtures/releases');
  const byPackage = new Map<string, RecordedRelease[]>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const recorded = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Recording & { package: string; version: string };
    const contract = contractOfRecording(recorded);
    byPackage.set(recorded.package, [
      ...(byPackage.get(recorded.package) ?? []),
      { pkg: recorded.package, version: recorded.version, contract },
    ]);
  }
  const numbers = (v: string) => v.split('.').map(Number);
  const order = (a: RecordedRelease, b: RecordedRelease) => {
    const [x, y] = [numbers(a.version), numbers(b.version)];
    for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
    return 0;
  };
  return [...byPackage.values()].flatMap((releases) =>
    releases.sort(order).flatMap((r, i, all) => (i ? [[all[i - 1]!, r] as [RecordedRelease, RecordedRelease]] : [])),
  );
}
