#!/usr/bin/env node
// npm run bench: figures as ratios or beside a baseline measured in the same run, medians of several.
// Writes bench/results.json and regenerates the table in bench/README.md.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { buildContract } from '../dist/contract/normalize.js';
import { diffContracts } from '../dist/diff/index.js';
import { syntheticTool } from './synthetic.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = (fn) => { const t = performance.now(); fn(); return performance.now() - t; };
const measure = (fn) => median(Array.from({ length: RUNS }, () => time(fn)));
const server = { name: 'synthetic', version: '1', protocolVersion: '2025-11-25', instructions: null };
const contract = (tools) => buildContract(server, tools, { pages: 1, durationMs: 0, errors: [] });

function diffFigures(count) {
  const before = Array.from({ length: count }, (_, i) => syntheticTool(i));
  // 5% of tools drift, in five different ways; the rest are unchanged.
  const after = before.map((_, i) => syntheticTool(i, i % 20 === 0 ? 1 + ((i / 20) % 4) : 0));
  const a = contract(before);
  const b = contract(after);
  let changes = 0;
  const ms = measure(() => { changes = diffContracts(a, b).length; });
  const normaliseMs = measure(() => contract(after));
  return { tools: count, diffMs: round(ms), normaliseMs: round(normaliseMs), changes };
}

function coldStart() {
  const run = (args) => measure(() => spawnSync(process.execPath, args, { stdio: 'ignore' }));
  const node = run(['-e', '0']);
  const version = run(['bin/mcp-gate.js', '--version']);
  const validate = run(['bin/mcp-gate.js', 'validate', '--quiet']);
  return { nodeMs: round(node), versionMs: round(version), validateMs: round(validate), versionRatio: round(version / node), validateRatio: round(validate / node) };
}

const round = (x) => Math.round(x * 100) / 100;

const d1000 = diffFigures(1000);
const d5000 = diffFigures(5000);
const results = {
  date: new Date().toISOString().slice(0, 10),
  machine: `${os.cpus()[0]?.model ?? 'unknown cpu'} x${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  runs: RUNS,
  diff: { t1000: d1000, t5000: d5000, scaling1000to5000: round(d5000.diffMs / d1000.diffMs) },
  coldStart: coldStart(),
};
writeFileSync(new URL('./results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);

const rows = [
  ['diff, 1,000 vs 1,000 tools (5% drifted)', `${d1000.diffMs} ms`, `${d1000.changes} changes`],
  ['diff, 5,000 vs 5,000 tools (5% drifted)', `${d5000.diffMs} ms`, `goal < 150 ms`],
  ['normalise 5,000 raw tools into a contract', `${d5000.normaliseMs} ms`, ''],
  ['diff scaling, 1,000 -> 5,000 tools', `${results.diff.scaling1000to5000}x`, 'goal <= 5.5x (linear)'],
  ['`mcp-gate --version` vs `node -e 0`', `${results.coldStart.versionRatio}x`, `${results.coldStart.versionMs} ms vs ${results.coldStart.nodeMs} ms; goal < 2x`],
  ['`mcp-gate validate` (example) vs `node -e 0`', `${results.coldStart.validateRatio}x`, `${results.coldStart.validateMs} ms`],
];
const table = [
  `Measured ${results.date} on ${results.machine}; medians of ${RUNS} runs.`,
  '',
  '| figure | value | note |',
  '|---|---|---|',
  ...rows.map((r) => `| ${r.join(' | ')} |`),
].join('\n');
console.log(table);
const readmeUrl = new URL('./README.md', import.meta.url);
const readme = readFileSync(readmeUrl, 'utf8');
writeFileSync(readmeUrl, readme.replace(/<!-- bench:start -->[\s\S]*<!-- bench:end -->/, `<!-- bench:start -->\n${table}\n<!-- bench:end -->`));

