import { writeFileSync } from 'node:fs';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { judgePair, POLICIES, type Outcome } from './judge.js';
import { buildPairs, perClassFor, type Pair, type PairOptions } from './pairs.js';
import { formatReport, summarize, type Summary } from './report.js';

/**
 * `npm run oracle [-- flags]`: the schema diff held to the instance oracle at scale.
 *
 *   --pairs N            about N pairs (default 10,500)
 *   --sample N           a smaller run of about N pairs (same classes, fewer mutations each)
 *   --seed N             the PRNG seed (default 20261123): same seed, same pairs, same figures
 *   --only TEXT          classes whose name contains TEXT
 *   --workers N          worker threads (default 2); the figures do not depend on it
 *   --min-agreement P    exit 1 when agreement is below P percent (default: report only, exit 0)
 *   --max-silent N       exit 1 when there are more than N silent passes (default: report only)
 *   --json FILE          write every pair's outcome (and the summary) to FILE
 *   --no-examples        the figures and the failing rows only
 */
export const DEFAULT_SEED = 20261123;
export const DEFAULT_PAIRS = 10_500;

interface Flags {
  pairs: number;
  seed: number;
  only?: string;
  workers: number;
  minAgreement?: number;
  maxSilent?: number;
  json?: string;
  examples: boolean;
}

function parse(argv: string[]): Flags {
  const flags: Flags = { pairs: DEFAULT_PAIRS, seed: DEFAULT_SEED, workers: 2, examples: true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${name} needs a value`);
      return v;
    };
    const number = () => {
      const v = Number(value());
      if (!Number.isFinite(v)) throw new Error(`${name} needs a number`);
      return v;
    };
    if (name === '--pairs' || name === '--sample') flags.pairs = number();
    else if (name === '--seed') flags.seed = number();
    else if (name === '--only') flags.only = value();
    else if (name === '--workers') flags.workers = Math.max(1, Math.floor(number()));
    else if (name === '--min-agreement') flags.minAgreement = number();
    else if (name === '--max-silent') flags.maxSilent = number();
    else if (name === '--json') flags.json = value();
    else if (name === '--no-examples') flags.examples = false;
    else throw new Error(`unknown flag ${arg}`);
  }
  return flags;
}

interface Job {
  options: PairOptions;
  shard: number;
  shards: number;
}

function judgeShard(pairs: Pair[], shard: number, shards: number, progress?: (done: number) => void): Outcome[] {
  const out: Outcome[] = [];
  for (const p of pairs) {
    if (p.id % shards !== shard) continue;
    out.push(judgePair(p));
    if (progress && out.length % 100 === 0) progress(out.length);
  }
  return out;
}

function runWorkers(job: Omit<Job, 'shard'>, total: number): Promise<Outcome[]> {
  const done = new Array<number>(job.shards).fill(0);
  let reported = 0;
  const tick = () => {
    const sum = done.reduce((a, b) => a + b, 0);
    if (sum - reported >= total / 10) {
      reported = sum;
      process.stderr.write(`  ${sum} / ${total} pairs judged\n`);
    }
  };
  return Promise.all(
    Array.from(
      { length: job.shards },
      (_, shard) =>
        new Promise<Outcome[]>((resolve, reject) => {
          const worker = new Worker(new URL(import.meta.url), { workerData: { oracle: { ...job, shard } satisfies Job } });
          worker.on('message', (m: { progress?: number; outcomes?: Outcome[] }) => {
            if (m.progress !== undefined) {
              done[shard] = m.progress;
              tick();
            }
            if (m.outcomes) resolve(m.outcomes);
          });
          worker.on('error', reject);
          worker.on('exit', (code) => code !== 0 && reject(new Error(`oracle worker ${shard} exited with ${code}`)));
        }),
    ),
  ).then((parts) => parts.flat().sort((a, b) => a.id - b.id));
}

/** Runs the oracle and prints its report; the exit code CI reads. */
export async function main(argv: string[]): Promise<number> {
  let flags: Flags;
  try {
    flags = parse(argv);
  } catch (error) {
    console.error(`oracle: ${(error as Error).message}`);
    return 2;
  }
  const started = performance.now();
  const options: PairOptions = { seed: flags.seed, perClass: perClassFor(flags.pairs), ...(flags.only ? { only: flags.only } : {}) };
  const pairs = buildPairs(options);
  process.stderr.write(`oracle: ${pairs.length} pairs (seed ${flags.seed}), judging on ${flags.workers} worker(s)\n`);
  const outcomes =
    flags.workers > 1
      ? await runWorkers({ options, shards: flags.workers }, pairs.length)
      : judgeShard(pairs, 0, 1, (n) => n % 1000 === 0 && process.stderr.write(`  ${n} / ${pairs.length} pairs judged\n`));
  const summary: Summary = summarize(pairs, outcomes);
  const seconds = (performance.now() - started) / 1000;
  console.log(formatReport(summary, pairs, outcomes, { examples: flags.examples, seconds }));
  if (flags.examples) console.log(`\ndocumented policy:\n${POLICIES.map((p) => `  ${p.name}: ${p.why}`).join('\n')}`);
  if (flags.json) {
    const { rows: _rows, ...figures } = summary;
    writeFileSync(
      flags.json,
      `${JSON.stringify({ seed: flags.seed, seconds, figures, rows: summary.rows, pairs: pairs.map((p) => ({ ...p, outcome: outcomes[p.id] })) }, null, 1)}\n`,
    );
  }
  let code = 0;
  if (flags.minAgreement !== undefined && summary.agreement * 100 < flags.minAgreement) {
    console.log(`oracle: agreement ${(summary.agreement * 100).toFixed(1)}% is below --min-agreement ${flags.minAgreement}%`);
    code = 1;
  }
  if (flags.maxSilent !== undefined && summary.silent > flags.maxSilent) {
    console.log(`oracle: ${summary.silent} silent passes, more than --max-silent ${flags.maxSilent}`);
    code = 1;
  }
  return code;
}

if (!isMainThread && (workerData as { oracle?: Job } | null)?.oracle) {
  const job = (workerData as { oracle: Job }).oracle;
  const pairs = buildPairs(job.options);
  const outcomes = judgeShard(pairs, job.shard, job.shards, (n) => parentPort!.postMessage({ progress: n }));
  parentPort!.postMessage({ outcomes });
}
