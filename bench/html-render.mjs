#!/usr/bin/env node
// Time-to-rendered of the HTML report for a 1,000-tool contract in headless Chromium.
// The report is made by the real gate: two synthetic contract snapshots, `mcp-gate diff --format
// json`, then `mcp-gate show --format html -o`. Chromium is Debian's (/usr/bin/chromium, or
// MCPGATE_CHROMIUM); playwright-core drives it and downloads nothing. Goal: under 2 s.
// Writes bench/html-results.json. Run after `npm run build`.
/* global document, Event, requestAnimationFrame -- used inside page.evaluate, which runs in the browser */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { buildContract } from '../dist/contract/normalize.js';
import { toSnapshot } from '../dist/contract/snapshot.js';
import { reportProblems } from '../dist/report/read.js';
import { syntheticTool } from '../test/fixtures/synthetic/tools.mjs';

const TOOLS = Number(process.env.BENCH_TOOLS ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const GOAL_MS = 2000;
const CHROMIUM = process.env.MCPGATE_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x) => Math.round(x * 10) / 10;

if (!existsSync(CHROMIUM)) {
  console.error(
    `bench/html-render.mjs: no Chromium at ${CHROMIUM}; install Debian's chromium package (as .ci/run does) or set MCPGATE_CHROMIUM.`,
  );
  process.exit(1);
}

const work = mkdtempSync(join(os.tmpdir(), 'mcp-gate-html-bench-'));
const cli = (args) => spawnSync(process.execPath, ['bin/mcp-gate.js', ...args, '--quiet'], { encoding: 'utf8', maxBuffer: 256 * 2 ** 20 });

// 5% of the tools drift in five ways, 2% are removed and 2% added: every row kind appears.
const server = { name: 'synthetic', version: '1', protocolVersion: '2025-11-25', instructions: null };
const snapshot = (tools) => toSnapshot(buildContract(server, tools, { pages: 1, durationMs: 0, errors: [] }));
const before = Array.from({ length: TOOLS }, (_, i) => syntheticTool(i));
const after = before
  .map((_, i) => syntheticTool(i, i % 20 === 0 ? 1 + ((i / 20) % 4) : 0))
  .filter((_, i) => i % 50 !== 7)
  .concat(Array.from({ length: TOOLS / 50 }, (_, i) => syntheticTool(TOOLS + i)));
writeFileSync(join(work, 'baseline.json'), snapshot(before));
writeFileSync(join(work, 'candidate.json'), snapshot(after));

const diff = cli(['diff', join(work, 'baseline.json'), join(work, 'candidate.json'), '--format', 'json']);
const report = JSON.parse(diff.stdout);
const problems = reportProblems(report);
if (problems.length) throw new Error(`the synthetic report does not validate:\n${problems.join('\n')}`);
writeFileSync(join(work, 'report.json'), diff.stdout);
const page = join(work, 'report.html');
const shown = cli(['show', join(work, 'report.json'), '--format', 'html', '-o', page]);
if (shown.status !== 0) throw new Error(`mcp-gate show failed: ${shown.stderr}`);

const profile = mkdtempSync(join(os.tmpdir(), 'mcp-gate-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
  args: ARGS,
  viewport: { width: 1280, height: 900 },
});
const requests = [];
await context.route('**/*', (route) =>
  route.request().url() === `file://${page}` ? route.continue() : (requests.push(route.request().url()), route.abort()),
);
const renders = [];
const searches = [];
let rows = 0;
try {
  for (let run = 0; run < RUNS; run++) {
    const tab = await context.newPage();
    await tab.goto(`file://${page}`, { waitUntil: 'load' });
    await tab.waitForSelector('html[data-rendered="true"]', { timeout: 30_000 });
    // Navigation start -> the first frame painted after the page was built.
    renders.push(
      await tab.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now()))))),
    );
    rows = await tab.locator('details.tool').count();
    // One keystroke in the tool search, to the next painted frame.
    searches.push(
      await tab.evaluate(
        () =>
          new Promise((done) => {
            const input = document.getElementById('search');
            const start = performance.now();
            input.value = 'action7';
            input.dispatchEvent(new Event('input'));
            requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - start)));
          }),
      ),
    );
    await tab.close();
  }
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
if (requests.length) throw new Error(`the page made network requests: ${requests.join(', ')}`);

const results = {
  date: new Date().toISOString().slice(0, 10),
  machine: `${os.cpus()[0]?.model ?? 'unknown cpu'} x${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  chromium: context.browser()?.version() ?? spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8' }).stdout.trim(),
  runs: RUNS,
  report: {
    baselineTools: report.baseline.toolCount,
    candidateTools: report.candidate.toolCount,
    toolRows: rows,
    changes: report.diff.changes.length,
    htmlBytes: statSync(page).size,
    jsonBytes: readFileSync(join(work, 'report.json')).length,
  },
  timeToRenderedMs: { median: round(median(renders)), all: renders.map(round), goal: GOAL_MS },
  searchKeystrokeMs: { median: round(median(searches)), all: searches.map(round) },
};
rmSync(work, { recursive: true, force: true });
writeFileSync(new URL('./html-results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
const verdict = results.timeToRenderedMs.median < GOAL_MS ? 'within' : 'OVER';
console.log(
  `HTML report, ${rows} tool rows (${results.report.changes} changes, ${Math.round(results.report.htmlBytes / 1024)} KiB): time to rendered ${results.timeToRenderedMs.median} ms (median of ${RUNS}, ${verdict} the ${GOAL_MS} ms goal); search keystroke ${results.searchKeystrokeMs.median} ms.`,
);
process.exitCode = verdict === 'within' ? 0 : 1;
