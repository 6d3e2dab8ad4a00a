// Whole-process measurements: wall time from spawn to exit; peak RSS and CPU time through bench/exit-stats.mjs.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { PACK_OPTIONS } from '../scripts/pack-options.mjs';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PRELOAD = fileURLToPath(new URL('./exit-stats.mjs', import.meta.url));
const CLI = join(ROOT, 'bin/mcp-gate.js');
const FLOOR = fileURLToPath(new URL('./floor.cjs', import.meta.url));
const RUN_PACKED = fileURLToPath(new URL('./run-packed.cjs', import.meta.url));
const SDK_FLOOR = join(ROOT, 'bench/.tmp/sdk-floor.cjs');

export const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
export const round = (x, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

function cleanEnv() {
  const env = { ...process.env, NO_COLOR: '1' };
  for (const key of Object.keys(env)) if (key.startsWith('MCPGATE_')) delete env[key];
  return env;
}

/** Builds the SDK floor (bench/sdk-floor.mjs) into one CommonJS file, with the gate's own packing options. */
export async function buildSdkFloor(outfile = SDK_FLOOR) {
  rmSync(`${outfile}.v8cache`, { force: true });
  await build({ ...PACK_OPTIONS, absWorkingDir: ROOT, entryPoints: ['bench/sdk-floor.mjs'], outfile });
}

/**
 * Runs `node --import exit-stats.mjs ...args` to the end; resolves with wall ms, the spawn's moment
 * (epoch ms), peak RSS (MiB), CPU ms, exit code, stdout.
 */
export function timeProcess(args, { cwd = ROOT, statsFile, env = {} }) {
  return new Promise((resolve, reject) => {
    rmSync(statsFile, { force: true });
    const started = performance.now();
    // The same instant on the epoch clock, which a child's performance.timeOrigin is also on.
    const spawnedAt = performance.timeOrigin + started;
    const child = spawn(process.execPath, ['--import', PRELOAD, ...args], {
      cwd,
      env: { ...cleanEnv(), ...env, BENCH_EXIT_STATS_FILE: statsFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      let rssMiB = null;
      let cpuMs = null;
      try {
        const stats = JSON.parse(readFileSync(statsFile, 'utf8'));
        rssMiB = stats.maxRssKiB / 1024;
        cpuMs = stats.cpuMs;
      } catch {
        // the process died before its exit hook ran
      }
      resolve({ ms, spawnedAt, rssMiB, cpuMs, code, stdout, stderr });
    });
  });
}

/** The real CLI, as CI runs it: `mcp-gate run -c CONFIG`, text to stdout (ignored), report written. */
export async function runGate(config, reportDir, scratch) {
  rmSync(reportDir, { recursive: true, force: true });
  // Not --quiet: CI sees the progress lines, and the last one carries the time to write the report,
  // which the saved report cannot hold.
  const run = await timeProcess([CLI, 'run', '-c', config, '--report-dir', reportDir], { statsFile: join(scratch, 'gate.stats.json') });
  if (run.code === 3 || run.code === null) throw new Error(`mcp-gate run -c ${config} could not decide (exit ${run.code}):\n${run.stderr}`);
  const files = readdirSync(reportDir).filter((f) => f.endsWith('.json'));
  if (files.length !== 1) throw new Error(`expected one report in ${reportDir}, found ${files.length}`);
  const report = JSON.parse(readFileSync(join(reportDir, files[0]), 'utf8'));
  const probes = (side) => side.caseResults.flatMap((c) => c.probes).filter((p) => p.status === 'called').length;
  return {
    ms: run.ms,
    rssMiB: run.rssMiB,
    cpuMs: run.cpuMs,
    stages: { ...report.timing.stages, report: Number(/report written to .* \((\d+) ms\)/.exec(run.stderr)?.[1] ?? NaN) },
    totalMs: report.timing.totalMs,
    verdict: report.decision.verdict,
    work: [report.baseline, report.candidate].map((s) => ({ tools: s.toolCount, pages: s.discovery.pages, probes: probes(s) })),
  };
}

/** The floor client on the same servers and cases. */
export const runFloor = (planFile, scratch) => floorRun([FLOOR, planFile], 'floor', planFile, scratch, {});

/** The SDK floor on the same servers and cases; `recordCache` for its first run, which is not counted. */
export const runSdkFloor = (planFile, scratch, { recordCache = false, packed = SDK_FLOOR } = {}) =>
  floorRun([RUN_PACKED, packed, planFile], 'sdk-floor', planFile, scratch, recordCache ? { BENCH_RECORD_CACHE: '1' } : {});

async function floorRun(args, name, planFile, scratch, env) {
  const run = await timeProcess(args, { statsFile: join(scratch, `${name}.stats.json`), env });
  if (run.code !== 0) throw new Error(`the ${name} client failed (exit ${run.code}) on ${planFile}:\n${run.stderr}`);
  const sides = JSON.parse(run.stdout);
  return {
    ms: run.ms,
    rssMiB: run.rssMiB,
    cpuMs: run.cpuMs,
    // When the later of the two servers answered initialize, from the spawn, as `ms` is timed.
    readyMs: Math.max(...sides.map((side) => side.readyAt)) - run.spawnedAt,
    work: sides.map(({ readyAt: _ready, ...work }) => work),
  };
}
