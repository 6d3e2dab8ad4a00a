#!/usr/bin/env node
// The load figure (bench/README.md, "Load: a bundle of 30 servers"): a bundle of 30 servers x 100
// cases, through `mcp-gate run` with the default concurrency (bundle.concurrency 2, cases.concurrency
// 4). Prints the wall time, the gate's peak RSS and CPU time (bench/exit-stats.mjs), and checks that
// every report was written and none lost.
// Usage: npm run build && node bench/bundle-load.mjs [--servers N] [--cases N]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SYNTHETIC_SERVER, syntheticDataset } from '../test/fixtures/synthetic/project.mjs';

const { values } = parseArgs({ options: { servers: { type: 'string', default: '30' }, cases: { type: 'string', default: '100' } } });
const [servers, cases, tools] = [Number(values.servers), Number(values.cases), 50];
const root = new URL('..', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-bundle-load-'));
const server = (extra) => JSON.stringify([SYNTHETIC_SERVER, '--tools', String(tools), '--payload', '2048', ...extra]);
const config = [
  'version: 1',
  'profiles:',
  `  baseline: { command: ${JSON.stringify(process.execPath)}, args: ${server([])} }`,
  `  candidate: { command: ${JSON.stringify(process.execPath)}, args: ${server(['--drift', '20'])} }`,
  'servers:',
];
for (let i = 1; i <= servers; i++)
  config.push(`  s${String(i).padStart(2, '0')}: { baseline: baseline, candidate: candidate, datasets: [cases.yaml] }`);
config.push('reports: { dir: reports }', '');
writeFileSync(join(dir, 'gate.config.yaml'), config.join('\n'));
writeFileSync(join(dir, 'cases.yaml'), syntheticDataset(tools, cases));

const stats = join(dir, 'exit-stats.json');
const started = performance.now();
const run = spawnSync(
  process.execPath,
  ['--import', join(root, 'bench/exit-stats.mjs'), join(root, 'bin/mcp-gate.js'), 'run', '--quiet', '--format', 'json'],
  { cwd: dir, env: { ...process.env, BENCH_EXIT_STATS_FILE: stats }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
);
const wallMs = Math.round(performance.now() - started);
const { maxRssKiB, cpuMs } = JSON.parse(readFileSync(stats, 'utf8'));
const files = readdirSync(join(dir, 'reports'));
const reports = files.filter((f) => f.endsWith('.json') && !f.includes('-bundle'));
const summary = JSON.parse(run.stdout);
const lost = servers - reports.length;
console.log(
  `bundle load: ${servers} servers x ${cases} cases (${tools} tools each): exit ${run.status}, wall ${wallMs} ms, gate peak RSS ${Math.round(maxRssKiB / 1024)} MiB, gate CPU ${Math.round(cpuMs)} ms, ${reports.length} reports written (${lost} lost), bundle verdict ${summary.verdict}, ${files.filter((f) => f.endsWith('.tmp')).length} temp files left`,
);
if (lost !== 0 || summary.servers.length !== servers) process.exit(1);
