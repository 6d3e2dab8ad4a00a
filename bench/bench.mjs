#!/usr/bin/env node
// npm run bench: figures as ratios or beside a baseline measured in the same run, medians of several.
// Writes bench/results.json and regenerates the tables in bench/README.md.
// Options: --only ID[,ID]  run only these scenarios (and skip the README); BENCH_RUNS=N  runs per figure.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { audit } from '../dist/audit/index.js';
import { DEFAULTS } from '../dist/config/types.js';
import { buildContract } from '../dist/contract/normalize.js';
import { diffContracts } from '../dist/diff/index.js';
import { syntheticTool } from '../test/fixtures/synthetic/tools.mjs';
import { buildSdkFloor, median, round, runFloor, runGate, runSdkFloor } from './measure.mjs';
import { prepare, SCENARIOS } from './scenarios.mjs';
import { goalRows, renderReadme } from './table.mjs';

const { values } = parseArgs({ options: { only: { type: 'string' } } });
const only = values.only?.split(',');
const RUNS = process.env.BENCH_RUNS ? Number(process.env.BENCH_RUNS) : null;
const IN_PROCESS_RUNS = RUNS ?? 7;
const progress = (line) => process.stderr.write(`bench: ${line}\n`);

const time = (fn) => {
  const t = performance.now();
  fn();
  return performance.now() - t;
};
const measure = (fn) => median(Array.from({ length: IN_PROCESS_RUNS }, () => time(fn)));
const server = { name: 'synthetic', version: '1', protocolVersion: '2025-11-25', instructions: null };
const contract = (tools) => buildContract(server, tools, { pages: 1, durationMs: 0, errors: [] });
const sideContracts = (count) => {
  const before = Array.from({ length: count }, (_, i) => syntheticTool(i));
  // 5% of tools drift, in four different ways; the rest are unchanged.
  const after = before.map((_, i) => syntheticTool(i, i % 20 === 0 ? 1 + ((i / 20) % 4) : 0));
  return { before, after, a: contract(before), b: contract(after) };
};

function inProcess(count) {
  const { after, a, b } = sideContracts(count);
  let changes = 0;
  const diffMs = measure(() => {
    changes = diffContracts(a, b).length;
  });
  const normaliseMs = measure(() => contract(after));
  // The audit of one contract, and the gate's audit stage: both sides' contracts (no live results here).
  const auditOneMs = measure(() =>
    audit({ side: 'baseline', contract: a, observations: [] }, { side: 'candidate', contract: null, observations: [] }, DEFAULTS.audit),
  );
  const auditMs = measure(() =>
    audit({ side: 'baseline', contract: a, observations: [] }, { side: 'candidate', contract: b, observations: [] }, DEFAULTS.audit),
  );
  return {
    tools: count,
    diffMs: round(diffMs),
    normaliseMs: round(normaliseMs),
    auditOneMs: round(auditOneMs),
    auditMs: round(auditMs),
    changes,
  };
}

function coldStart() {
  const run = (args) =>
    median(Array.from({ length: IN_PROCESS_RUNS }, () => time(() => spawnSync(process.execPath, args, { stdio: 'ignore' }))));
  const node = run(['-e', '0']);
  const version = run(['bin/mcp-gate.js', '--version']);
  const validate = run(['bin/mcp-gate.js', 'validate', '--quiet']);
  return {
    nodeMs: round(node),
    versionMs: round(version),
    validateMs: round(validate),
    versionRatio: round(version / node),
    validateRatio: round(validate / node),
  };
}

let sdkFloorCacheRecorded = false;

/** Gate, floor and SDK floor runs interleaved, so a noisy moment on the machine hits all alike. */
async function scenario(s) {
  const files = prepare(s);
  const runs = RUNS ?? s.runs;
  const gates = [];
  const floors = [];
  const sdkFloors = [];
  await runFloor(files.plan, files.dir); // warm the file cache for all three
  // The SDK floor's code cache is recorded once, on the first scenario's warm-up run (as the build
  // records the gate's on the example).
  await runSdkFloor(files.plan, files.dir, { recordCache: !sdkFloorCacheRecorded });
  sdkFloorCacheRecorded = true;
  for (let i = 0; i < runs; i++) {
    gates.push(await runGate(files.config, files.reportDir, files.dir));
    floors.push(await runFloor(files.plan, files.dir));
    sdkFloors.push(await runSdkFloor(files.plan, files.dir));
  }
  const gateMs = median(gates.map((g) => g.ms));
  const floorMs = median(floors.map((f) => f.ms));
  // Each run's own ratio (a gate run over the floor run right after it): the middle half of them
  // says how far one run of the bench can be trusted on this machine.
  const pairs = gates.map((g, i) => g.ms / floors[i].ms).sort((x, y) => x - y);
  const ratioRange = [round(pairs[Math.floor(pairs.length / 4)]), round(pairs[Math.ceil((3 * pairs.length) / 4) - 1])];
  const sdkFloorMs = median(sdkFloors.map((f) => f.ms));
  const stages = Object.fromEntries(Object.keys(gates[0].stages).map((k) => [k, median(gates.map((g) => g.stages[k]))]));
  const work = (runs) => JSON.stringify(runs[0].work);
  const sameWork = work(gates) === work(floors) && work(sdkFloors) === work(floors);
  if (!sameWork) progress(`${s.id}: the runs did different work: gate ${work(gates)}, floor ${work(floors)}, SDK floor ${work(sdkFloors)}`);
  const result = {
    id: s.id,
    label: s.label,
    runs,
    goal: s.goal ?? null,
    gateMs: round(gateMs, 0),
    floorMs: round(floorMs, 0),
    ratio: round(gateMs / floorMs),
    ratioRange,
    sdkFloorMs: round(sdkFloorMs, 0),
    sdkFloorRatio: round(sdkFloorMs / floorMs),
    sdkFloorCpuMs: round(median(sdkFloors.map((f) => f.cpuMs)), 0),
    // When both servers had answered initialize, from the floor's spawn (bench/floor-client.cjs, measure.mjs).
    floorReadyMs: round(median(floors.map((f) => f.readyMs)), 0),
    sdkFloorReadyMs: round(median(sdkFloors.map((f) => f.readyMs)), 0),
    gateRssMiB: round(median(gates.map((g) => g.rssMiB)), 0),
    floorRssMiB: round(median(floors.map((f) => f.rssMiB)), 0),
    gateCpuMs: round(median(gates.map((g) => g.cpuMs)), 0),
    floorCpuMs: round(median(floors.map((f) => f.cpuMs)), 0),
    inGateMs: round(median(gates.map((g) => g.totalMs)), 0),
    stages,
    verdict: gates[0].verdict,
    work: gates[0].work,
    sameWork,
  };
  progress(
    `${s.id}: gate ${result.gateMs} ms, floor ${result.floorMs} ms, ratio ${result.ratio} (runs ${ratioRange.join(' to ')}), SDK floor ${result.sdkFloorMs} ms (${result.sdkFloorRatio}x), initialize answered at ${result.floorReadyMs} ms (floor) and ${result.sdkFloorReadyMs} ms (SDK floor), CPU gate ${result.gateCpuMs} ms, floor ${result.floorCpuMs} ms, SDK floor ${result.sdkFloorCpuMs} ms, gate peak RSS ${result.gateRssMiB} MiB, stages ${JSON.stringify(stages)}`,
  );
  return result;
}

progress('building the SDK floor (bench/sdk-floor.mjs)');
await buildSdkFloor();
const scenarios = [];
for (const s of SCENARIOS.filter((s) => !only || only.includes(s.id))) scenarios.push(await scenario(s));
if (only) process.exit(0);

progress('in-process figures and cold start');
const t1000 = inProcess(1000);
const t5000 = inProcess(5000);
const results = {
  date: new Date().toISOString().slice(0, 10),
  machine: `${os.cpus()[0]?.model ?? 'unknown cpu'} x${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.type()} ${os.release()}`,
  loadAverage: os.loadavg().map((x) => round(x)),
  runs: { inProcess: IN_PROCESS_RUNS, scenarios: Object.fromEntries(scenarios.map((s) => [s.id, s.runs])) },
  scenarios,
  inProcess: { t1000, t5000, diffScaling: round(t5000.diffMs / t1000.diffMs) },
  coldStart: coldStart(),
};
const overhead = (id) => {
  const s = scenarios.find((x) => x.id === id);
  return s.gateMs - s.floorMs;
};
results.scaling = round(overhead('t5000') / overhead('t1000'));
results.goals = goalRows(results);
writeFileSync(new URL('./results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);

const readmeUrl = new URL('./README.md', import.meta.url);
const { readme, tables } = renderReadme(readFileSync(readmeUrl, 'utf8'), results);
writeFileSync(readmeUrl, readme);
console.log(tables);
