import type { ClientName } from './clients.js';

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * Every default of the config file, declared once. The definition (config/definition.ts) gives each
 * to its setting, so the schema's `default` keywords and descriptions show it; the gate reads them
 * from here. Building the definition costs zod about 15 ms, on the path to starting the servers of
 * every run, and only the schema file (`npm run schemas`) and the types need it.
 */
export const DEFAULTS = {
  reports: { dir: 'reports' },
  timeouts: { startupMs: 15_000, requestMs: 30_000, runMs: 600_000, killGraceMs: 2_000 },
  limits: {
    maxPages: 100,
    maxTools: 10_000,
    maxMessageBytes: 16 * MiB,
    maxSideBytes: 64 * MiB,
    maxResultBytes: 4 * MiB,
    stderrTailBytes: 8 * KiB,
    witnessInstances: 2000,
    witnessNodes: 20_000,
    schemaNodesPerTool: 20_000,
    schemaNodesPerRun: 1_000_000,
    witnessInstancesPerRun: 200_000,
    witnessCalls: 20,
  },
  cases: { concurrency: 4 },
  bundle: { concurrency: 2 },
  audit: {
    resultBudgetBytes: 32 * KiB,
    resultGrowthPercent: 50,
    definitionCostGrowthPercent: 25,
    resultGrowthMinBytes: 1024,
    definitionCostGrowthMinTokens: 500,
    // On while the SDK 1.x line, which refuses such results, is the SDK's latest (docs/releases.md).
    clients: ['mcp-sdk-1'] as ClientName[],
  },
  promotion: {
    maxNewDestructiveTools: 0,
    maxBrokenCases: 0,
    destructiveToolsOutsideRoles: 'hold' as 'hold' | 'rollback',
    unannotatedServers: 'hold' as 'hold' | 'like-siblings',
    release: false,
    deprecationWindowDays: 30,
  },
  readyTimeoutMs: 15_000,
};

/** Deprecated keys still read, and what replaced them: a config that uses one gets a note. */
export const RENAMED_KEYS: { path: string[]; now: string }[] = [{ path: ['audit', 'maxResultBytes'], now: 'resultBudgetBytes' }];
