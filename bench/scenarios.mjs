// The gate-versus-floor scenarios, and the floor's plan for each: the same servers and the same
// probe calls the gate's config and datasets describe. Generated files go to bench/.tmp (gitignored).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { writeSyntheticProject } from '../test/fixtures/synthetic/project.mjs';
import { ROOT } from './measure.mjs';

export const SCRATCH = join(ROOT, 'bench/.tmp');
const FIXTURES = join(ROOT, 'test/fixtures/published');
const quote = JSON.stringify;

/** A published pair from npm (pinned aliases in package.json): server-memory across a real release. */
function publishedProject(dir) {
  mkdirSync(dir, { recursive: true });
  const profile = (alias) =>
    `{ command: ${quote(process.execPath)}, args: [${quote(join(ROOT, 'node_modules', alias, 'dist/index.js'))}], env: { MEMORY_FILE_PATH: /dev/null } }`;
  const config = [
    'version: 1',
    'profiles:',
    `  memory-2026.1.26: ${profile('mcp-memory-2026-01-26')}`,
    `  memory-2026.7.4: ${profile('mcp-memory-2026-07-04')}`,
    'baseline: memory-2026.1.26',
    'candidate: memory-2026.7.4',
    `datasets: [${quote(join(FIXTURES, 'memory.cases.yaml'))}]`,
    '',
  ].join('\n');
  writeFileSync(join(dir, 'gate.config.yaml'), config);
  return join(dir, 'gate.config.yaml');
}

/**
 * `runs` is the number of gate runs (and as many floor runs, interleaved). The big scenarios get
 * fewer, to keep the whole bench within a few minutes on two cores.
 */
export const SCENARIOS = [
  { id: 'example', label: 'Support Ops example (3 cases)', goal: 1.15, runs: 9, config: () => join(ROOT, 'gate.config.yaml') },
  { id: 'published', label: 'server-memory 2026.1.26 -> 2026.7.4 (npm)', goal: 1.15, runs: 9, config: (dir) => publishedProject(dir) },
  {
    id: 't100',
    label: 'synthetic, 100 tools, 100 cases',
    runs: 7,
    config: (dir) => writeSyntheticProject(dir, { tools: 100, cases: 100 }),
  },
  {
    id: 't1000',
    label: 'synthetic, 1,000 tools, 100 cases',
    goal: 1.25,
    runs: 5,
    config: (dir) => writeSyntheticProject(dir, { tools: 1000, cases: 100 }),
  },
  {
    id: 't5000',
    label: 'synthetic, 5,000 tools, 100 cases',
    runs: 3,
    config: (dir) => writeSyntheticProject(dir, { tools: 5000, cases: 100 }),
  },
  {
    id: 'c1000',
    label: 'synthetic, 100 tools, 1,000 cases',
    goal: 1.25,
    runs: 5,
    config: (dir) => writeSyntheticProject(dir, { tools: 100, cases: 1000 }),
  },
];

/** Reads a gate config the simple way (no env overrides: the bench clears MCPGATE_*) into a floor plan. */
export function floorPlan(configFile) {
  const config = parse(readFileSync(configFile, 'utf8'));
  const base = dirname(configFile);
  const server = (name) => {
    const p = config.profiles[name];
    return {
      command: p.command,
      args: p.args ?? [],
      cwd: resolve(base, p.cwd ?? '.'),
      env: p.env ?? {},
      allowSideEffects: p.allowSideEffects === true,
    };
  };
  const datasets = (config.datasets ?? []).map((file) => resolve(base, file));
  const cases = datasets
    .flatMap((file) => parse(readFileSync(file, 'utf8')).cases)
    .map((c) => ({
      sideEffects: c.sideEffects === 'allowed',
      probes: c.requiredTools.filter((t) => t.probeArguments !== undefined).map((t) => ({ tool: t.toolName, args: t.probeArguments })),
    }));
  return {
    protocolVersion: '2025-11-25',
    concurrency: config.cases?.concurrency ?? 4,
    servers: [server(config.baseline), server(config.candidate)],
    cases,
    datasets,
  };
}

/** Writes the scenario's files and its floor plan; returns their paths. */
export function prepare(scenario) {
  const dir = join(SCRATCH, scenario.id);
  mkdirSync(dir, { recursive: true });
  const config = scenario.config(dir);
  const plan = join(dir, 'floor-plan.json');
  writeFileSync(plan, JSON.stringify(floorPlan(config)));
  return { dir, config, plan, reportDir: join(dir, 'reports') };
}
